#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "util/result.hpp"

namespace tazuna::util {

/// What one requirement of a label selector asks of a label.
enum class SelectorOp { kEquals, kNotEquals, kIn, kNotIn, kExists, kDoesNotExist, kGreaterThan, kLessThan };

/// One requirement: `key OP values` (kEquals/kNotEquals one value; kIn/kNotIn one or more, sorted, each
/// once; kExists/kDoesNotExist none; kGreaterThan/kLessThan one integer).
struct SelectorRequirement {
  std::string key;
  SelectorOp op = SelectorOp::kExists;
  std::vector<std::string> values;
  bool operator==(const SelectorRequirement&) const = default;
};

/// A parsed Kubernetes label selector: requirements that must all hold (the commas of `-l` are AND).
/// Empty: every set of labels matches.
struct LabelSelector {
  std::vector<SelectorRequirement> requirements;

  /// Whether `labels` satisfy every requirement, as apimachinery's labels.Selector.Matches: `a!=b` and
  /// `a notin (b)` hold for labels without `a`; `a=b`, `a in (b)`, `a>1` need `a`.
  bool Matches(const std::map<std::string, std::string>& labels) const;
  bool empty() const { return requirements.empty(); }
  bool operator==(const LabelSelector&) const = default;
};

/// Parses kubectl's `-l/--selector` syntax: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`,
/// `a>1`, `a<1`, joined by commas (AND), whitespace around tokens ignored. Keys must be qualified names
/// (optional DNS-subdomain prefix and `/`, name of at most 63 characters), values valid label values.
/// kUsage `invalid label selector "TEXT": WHY` for anything else. "" is the empty selector.
Result<LabelSelector> ParseLabelSelector(std::string_view text);

}  // namespace tazuna::util
