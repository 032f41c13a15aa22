#pragma once

// tazuna.hint.yaml: what the vars of a helmfile manifest may hold, as the Go tazuna documents it
// (docs/src/reference/tazuna-hint-yaml.md there). Pure: the caller reads the file.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/model.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

inline constexpr const char* kHintFileName = "tazuna.hint.yaml";

/// One declared var.
struct HintVar {
  std::string type;                              ///< string, slice or map
  bool required = false;                         ///< must be given
  std::optional<nlohmann::json> default_value;   ///< injected when not given
  std::string format;                            ///< for strings: hostname, url, email, ip, cidr, uuid, semver, datetime
  std::vector<std::string> required_with;        ///< given when any of these is given
  std::vector<std::string> required_without;     ///< given when none of these is
};

/// A rule across vars (only oneof_required: at least one of `vars` is given).
struct HintRule {
  std::string type;
  std::vector<std::string> vars;
  std::string message;
};

struct Hint {
  std::map<std::string, HintVar> vars;
  std::vector<HintRule> rules;
};

/// Parses and validates a hint file (`path` prefixes errors): known keys only (required_with and
/// required_without also as the Go tool's YAML library spells them, requiredwith and requiredwithout),
/// types string|slice|map, no required with default, required_with or required_without, formats only on
/// strings and known, references to declared vars, rules of a known type over at least two vars.
util::Result<Hint> ParseHint(std::string_view text, const std::string& path);

/// Whether each var of tazuna.yaml fits its declared type (a string declared var given a staticSlice or
/// staticMap; a slice or map declared var given another static value).
util::Status CheckVarKinds(const Hint& hint, const std::map<std::string, HelmfileVar>& vars, const std::string& path);

/// The vars with the hint applied, as the Go tool does: a required var missing is an error; a missing var
/// gets its default, else its type's zero value ("", [], {}); then required_with, required_without,
/// formats (non-empty strings only) and rules are checked against the vars as given (`given`, before
/// defaults).
util::Result<nlohmann::json> ApplyHint(const Hint& hint, const nlohmann::json& given, const std::string& path);

/// Why `value` does not match `format` ("invalid hostname", ...), or "" when it does.
std::string FormatViolation(const std::string& format, const std::string& value);

}  // namespace tazuna::manifest
