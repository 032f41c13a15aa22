#include "util/sha256.hpp"

#include <unistd.h>

#include <cerrno>
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

std::string Sha256FdHex(int fd) {
  crypto_hash_sha256_state st;
  crypto_hash_sha256_init(&st);
  std::string block(size_t{1} << 20, '\0');
  for (;;) {
    const ssize_t n = ::read(fd, block.data(), block.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return "";
    if (n == 0) break;
    crypto_hash_sha256_update(&st, reinterpret_cast<const unsigned char*>(block.data()), static_cast<size_t>(n));
  }
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&st, digest);
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
