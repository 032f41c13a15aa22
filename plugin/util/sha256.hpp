#pragma once

#include <string>
#include <string_view>

namespace tazuna::util {

/// SHA-256 of `data` as 64 lowercase hex digits (libsodium crypto_hash_sha256).
std::string Sha256Hex(std::string_view data);

}  // namespace tazuna::util
