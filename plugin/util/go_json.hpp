#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tazuna::util {

/// Serialises `value` exactly as Go's encoding/json.Marshal does for the same value after
/// json.Unmarshal into interface{}: compact, object keys sorted bytewise, every number
/// treated as a float64 (integers above 2^53 are rounded), HTML-safe string escaping,
/// invalid UTF-8 replaced by \ufffd. NaN and infinities (which Go refuses) print as `null`;
/// callers that must reject them check for them first (ParseYaml* never produces them).
std::string GoJsonMarshal(const nlohmann::json& value);

/// Formats a float64 as encoding/json does: strconv 'f' with shortest digits when
/// 1e-6 <= |f| < 1e21 (or f is zero), else 'e' with a cleaned exponent (`1e-7`, `1e+21`).
/// Negative zero prints as `-0`.
std::string FormatGoFloat64(double value);

/// Formats `value` rounded to float32 as Go's strconv.FormatFloat(f, 'g', -1, 32): shortest
/// float32 digits, exponent form when the decimal exponent is < -4 or >= 6 (`1e+06`).
/// Infinities and NaN print as `+Inf`, `-Inf`, `NaN`. Used for float map keys.
std::string FormatGoFloat32G(double value);

/// Appends `text` as a Go encoding/json string literal (quotes included) to `out`.
void AppendGoJsonString(std::string& out, std::string_view text);

}  // namespace tazuna::util
