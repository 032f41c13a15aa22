#include "util/sha256.hpp"

#include <cstdlib>

#include <sodium.h>

namespace tazuna::util {

namespace {

std::string Hex(const unsigned char* bytes, size_t n) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * n);
  for (size_t i = 0; i < n; ++i) {
    out.push_back(kHex[bytes[i] >> 4]);
    out.push_back(kHex[bytes[i] & 0xF]);
  }
  return out;
}

}  // namespace

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  // crypto_hash_sha256 needs no sodium_init(): it uses no randomness or CPU dispatch state.
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return Hex(digest, sizeof digest);
}

std::string HmacSha256Hex(std::string_view key, std::string_view data) {
  unsigned char mac[crypto_auth_hmacsha256_BYTES];
  crypto_auth_hmacsha256_state st;
  crypto_auth_hmacsha256_init(&st, reinterpret_cast<const unsigned char*>(key.data()), key.size());
  crypto_auth_hmacsha256_update(&st, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  crypto_auth_hmacsha256_final(&st, mac);
  return Hex(mac, sizeof mac);
}

std::string RandomBytes(size_t n) {
  if (sodium_init() < 0) std::abort();  // idempotent; fails only without a usable random source
  std::string out(n, '\0');
  randombytes_buf(out.data(), n);
  return out;
}

}  // namespace tazuna::util
