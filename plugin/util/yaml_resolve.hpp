#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace tazuna::util {

/// Types one YAML scalar the way goyaml.v2's resolve() does (the YAML 1.1 rules
/// sigs.k8s.io/yaml applies). `tag` is "" for a plain untagged scalar, a short core tag such
/// as "!!int" or "!!str" for an explicit tag, or any other tag text (then the value is a string).
/// Returns null, a bool, an int64 or uint64 integer, a double (possibly NaN or +-Inf, which the
/// caller must reject where JSON needs it), or a string; timestamps stay their original text.
/// Fails with kInput ("cannot decode !!str `x` as a !!int") when the text does not fit an
/// explicit tag, or ("!!binary value contains invalid base64 data") for bad !!binary data.
/// The message carries no position; the caller adds one.
Result<nlohmann::json> ResolveYamlScalar(std::string_view tag, std::string_view text);

}  // namespace tazuna::util
