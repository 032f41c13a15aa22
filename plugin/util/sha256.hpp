#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tazuna::util {

/// SHA-256 of `data` as 64 lowercase hex digits (libsodium crypto_hash_sha256).
std::string Sha256Hex(std::string_view data);

/// HMAC-SHA-256 of `data` under `key` (libsodium crypto_auth_hmacsha256) as 64 lowercase hex digits.
std::string HmacSha256Hex(std::string_view key, std::string_view data);

/// `n` bytes from the system's cryptographic random source (libsodium randombytes_buf).
std::string RandomBytes(size_t n);

}  // namespace tazuna::util
