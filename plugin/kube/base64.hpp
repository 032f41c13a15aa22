#pragma once

#include <string>
#include <string_view>

#include "util/result.hpp"

namespace tazuna::kube {

/// Standard base64 (with padding), as Go's encoding/base64.StdEncoding.
std::string Base64Encode(std::string_view data);
/// Decodes standard base64. kInput `illegal base64 data at input byte N` on bad input (Go's wording).
util::Result<std::string> Base64Decode(std::string_view text);

}  // namespace tazuna::kube
