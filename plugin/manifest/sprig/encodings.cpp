#include "manifest/sprig/encodings.hpp"

#include <algorithm>
#include <cstring>

#include <sodium.h>

namespace tazuna::manifest::sprig {
namespace {

std::string Hex(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

uint32_t Rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

constexpr char kBase32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

}  // namespace

// ---- paths (Go's path package) ----

std::string CleanPath(const std::string& path) {
  if (path.empty()) return ".";
  const bool rooted = path[0] == '/';
  const size_t n = path.size();
  std::string out;
  size_t r = 0, dotdot = 0;
  if (rooted) {
    out = "/";
    r = dotdot = 1;
  }
  while (r < n) {
    if (path[r] == '/') {
      ++r;
    } else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/')) {
      ++r;
    } else if (path[r] == '.' && path[r + 1] == '.' && (r + 2 == n || path[r + 2] == '/')) {
      r += 2;
      if (out.size() > dotdot) {
        size_t w = out.size() - 1;
        while (w > dotdot && out[w] != '/') --w;
        out.resize(w);
      } else if (!rooted) {
        if (!out.empty()) out += '/';
        out += "..";
        dotdot = out.size();
      }
    } else {
      if ((rooted && out.size() != 1) || (!rooted && !out.empty())) out += '/';
      for (; r < n && path[r] != '/'; ++r) out += path[r];
    }
  }
  return out.empty() ? "." : out;
}

std::string BasePath(const std::string& text) {
  std::string path = text;
  if (path.empty()) return ".";
  while (!path.empty() && path.back() == '/') path.pop_back();
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos) path = path.substr(slash + 1);
  return path.empty() ? "/" : path;
}

std::string DirPath(const std::string& path) {
  const size_t slash = path.rfind('/');
  return CleanPath(slash == std::string::npos ? "" : path.substr(0, slash + 1));
}

std::string ExtPath(const std::string& path) {
  for (size_t i = path.size(); i > 0 && path[i - 1] != '/'; --i) {
    if (path[i - 1] == '.') return path.substr(i - 1);
  }
  return "";
}

// ---- hashes and encodings ----

// SHA-1 (FIPS 180-4), as crypto/sha1.Sum.
std::string Sha1Hex(const std::string& data) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  std::string msg = data;
  msg += '\x80';
  while (msg.size() % 64 != 56) msg += '\0';
  const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  for (int i = 7; i >= 0; --i) msg += static_cast<char>((bits >> (8 * i)) & 0xFF);
  for (size_t block = 0; block < msg.size(); block += 64) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      w[i] = 0;
      for (int j = 0; j < 4; ++j) w[i] = (w[i] << 8) | static_cast<unsigned char>(msg[block + 4 * i + j]);
    }
    for (int i = 16; i < 80; ++i) w[i] = Rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
      uint32_t f, k;
      if (i < 20) {
        f = (b & c) | (~b & d), k = 0x5A827999;
      } else if (i < 40) {
        f = b ^ c ^ d, k = 0x6ED9EBA1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
      } else {
        f = b ^ c ^ d, k = 0xCA62C1D6;
      }
      const uint32_t t = Rotl(a, 5) + f + e + k + w[i];
      e = d, d = c, c = Rotl(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
  }
  unsigned char out[20];
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<unsigned char>(h[i] >> (24 - 8 * j));
  }
  return Hex(out, sizeof out);
}

std::string Sha512Hex(const std::string& data) {
  unsigned char out[crypto_hash_sha512_BYTES];
  crypto_hash_sha512(out, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return Hex(out, sizeof out);
}

uint32_t Adler32(const std::string& data) {
  uint32_t a = 1, b = 0;
  for (const char c : data) {
    a = (a + static_cast<unsigned char>(c)) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

std::string Base32Encode(const std::string& data) {
  std::string out;
  for (size_t i = 0; i < data.size(); i += 5) {
    uint64_t chunk = 0;
    const size_t n = std::min<size_t>(5, data.size() - i);
    for (size_t j = 0; j < 5; ++j) chunk = (chunk << 8) | (j < n ? static_cast<unsigned char>(data[i + j]) : 0);
    const size_t chars = (n * 8 + 4) / 5;
    for (size_t j = 0; j < 8; ++j) out += j < chars ? kBase32[(chunk >> (35 - 5 * j)) & 31] : '=';
  }
  return out;
}

// base32.StdEncoding.DecodeString; nullopt (Go's "illegal base32 data at input byte N") on bad input.
std::optional<std::string> Base32Decode(const std::string& text) {
  std::string s;
  for (const char c : text) {
    if (c != '\r' && c != '\n') s += c;
  }
  if (s.size() % 8 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < s.size(); i += 8) {
    uint64_t chunk = 0;
    size_t chars = 8;
    for (size_t j = 0; j < 8; ++j) {
      const char c = s[i + j];
      uint64_t v = 0;
      if (c == '=') {
        if (i + 8 != s.size()) return std::nullopt;
        if (chars == 8) chars = j;
        if (j < 2) return std::nullopt;
      } else {
        if (chars != 8) return std::nullopt;
        const char* p = std::strchr(kBase32, c);
        if (c == '\0' || p == nullptr) return std::nullopt;
        v = static_cast<uint64_t>(p - kBase32);
      }
      chunk = (chunk << 5) | v;
    }
    if (chars != 8 && chars != 2 && chars != 4 && chars != 5 && chars != 7) return std::nullopt;
    const size_t bytes = chars * 5 / 8;
    for (size_t j = 0; j < bytes; ++j) out += static_cast<char>((chunk >> (32 - 8 * j)) & 0xFF);
  }
  return out;
}

}  // namespace tazuna::manifest::sprig
