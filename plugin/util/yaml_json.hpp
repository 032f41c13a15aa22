#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace tazuna::util {

/// Options for ParseYamlStream / ParseYamlDocument.
struct YamlOptions {
  std::string source_name;      ///< file name (or "<stdin>") used as the error prefix
  size_t max_nodes = 2'000'000; ///< bound on nodes produced per document, aliases expanded
  bool block_reader = true;     ///< try ParseBlockYamlStream first (false: yaml-cpp only, for comparisons)
};

/// Parses every document of a YAML stream into JSON values typed as sigs.k8s.io/yaml types
/// them (goyaml.v2, YAML 1.1 scalars; see yaml_resolve.hpp): anchors and aliases expanded,
/// `<<` merge keys applied in order (a later key, merged or explicit, overrides an earlier
/// one, as goyaml.v2), non-string keys stringified as sigs.k8s.io/yaml does. Integers are kept
/// as int64/uint64, floats as double. An empty document yields null.
/// Fails with kInput "<source_name>:<line>:<col>: <message>" (1-based) on a syntax error,
/// a key repeated in one mapping, a block mapping key without its `:` (goyaml.v2's "could not find
/// expected ':'"), a null, uint64, map or sequence key, NaN or infinity,
/// control characters or invalid UTF-8 in the text, or more than max_nodes nodes.
Result<std::vector<nlohmann::json>> ParseYamlStream(std::string_view text, const YamlOptions& options);

/// Checks `text` as goyaml.v2's reader does before it parses: valid UTF-8 without control characters.
/// kInput "<source_name>:<line>:<col>: invalid UTF-8 in YAML input" or "...: control characters are not
/// allowed (character 0x00)"; yaml-cpp alone would misreport or cut the text at such bytes.
Status ValidateYamlText(std::string_view text, const YamlOptions& options);

/// Parses a stream that must hold at most one document (none or empty -> null).
/// Fails as ParseYamlStream, or with kInput "<source_name>: expected one YAML document, got N".
Result<nlohmann::json> ParseYamlDocument(std::string_view text, const YamlOptions& options);

}  // namespace tazuna::util
