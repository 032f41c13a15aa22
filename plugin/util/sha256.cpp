#include "util/sha256.hpp"

#include <sodium.h>

namespace tazuna::util {

std::string Sha256Hex(std::string_view data) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  // crypto_hash_sha256 needs no sodium_init(): it uses no randomness or CPU dispatch state.
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * sizeof(digest));
  for (unsigned char b : digest) {
    out.push_back(kHex[b >> 4]);
    out.push_back(kHex[b & 0xF]);
  }
  return out;
}

}  // namespace tazuna::util
