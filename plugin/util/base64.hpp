#pragma once

#include <string>
#include <string_view>

#include "util/result.hpp"

namespace tazuna::util {

/// Standard base64 (RFC 4648 §4, with `=` padding), as Go's base64.StdEncoding.EncodeToString.
std::string Base64Encode(std::string_view data);

/// Decodes standard padded base64 as Go's base64.StdEncoding.DecodeString: no whitespace other
/// than CR/LF (which are skipped), padding required. Returns kInput "illegal base64 data at
/// input byte N" on malformed input.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace tazuna::util
