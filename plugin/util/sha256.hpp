#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace tazuna::util {

/// SHA-256 of `data` as 64 lowercase hex digits (libsodium crypto_hash_sha256).
std::string Sha256Hex(std::string_view data);

/// SHA-256 of the file at `fd`, read from its current offset to the end in blocks (a renderer binary is tens of
/// megabytes); "" when a read fails.
std::string Sha256FdHex(int fd);

/// HMAC-SHA-256 of `data` under `key` (libsodium crypto_auth_hmacsha256) as 64 lowercase hex digits.
std::string HmacSha256Hex(std::string_view key, std::string_view data);

/// `n` bytes from the system's cryptographic random source (libsodium randombytes_buf).
std::string RandomBytes(size_t n);

}  // namespace tazuna::util
