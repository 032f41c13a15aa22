#include "util/base64.hpp"

#include <vector>

#include "util/strings.hpp"

namespace tazuna::util {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int DecodeChar(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

Error Illegal(size_t pos) {
  return MakeError(ErrorKind::kInput, StrCat("illegal base64 data at input byte ", pos));
}

}  // namespace

std::string Base64Encode(std::string_view data) {
  std::string out;
  out.reserve((data.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 3 <= data.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(data[i]) << 16 |
                       static_cast<unsigned char>(data[i + 1]) << 8 |
                       static_cast<unsigned char>(data[i + 2]);
    for (int shift = 18; shift >= 0; shift -= 6) out.push_back(kAlphabet[(v >> shift) & 63]);
  }
  const size_t rest = data.size() - i;
  if (rest == 0) return out;
  unsigned v = static_cast<unsigned char>(data[i]) << 16;
  if (rest == 2) v |= static_cast<unsigned char>(data[i + 1]) << 8;
  out.push_back(kAlphabet[(v >> 18) & 63]);
  out.push_back(kAlphabet[(v >> 12) & 63]);
  out.push_back(rest == 2 ? kAlphabet[(v >> 6) & 63] : '=');
  out.push_back('=');
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  // Collect significant characters with their input positions (Go skips \r and \n).
  std::string chars;
  std::vector<size_t> pos;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r' || text[i] == '\n') continue;
    chars.push_back(text[i]);
    pos.push_back(i);
  }
  if (chars.size() % 4 != 0) return Illegal(chars.empty() ? 0 : text.size());
  std::string out;
  for (size_t q = 0; q < chars.size(); q += 4) {
    unsigned v = 0;
    int pad = 0;
    for (size_t k = 0; k < 4; ++k) {
      const char c = chars[q + k];
      if (c == '=' && k >= 2 && q + 4 == chars.size()) {
        if (k == 2 && chars[q + 3] != '=') return Illegal(pos[q + 3]);
        ++pad;
        v <<= 6;
        continue;
      }
      const int d = pad > 0 ? -1 : DecodeChar(c);
      if (d < 0) return Illegal(pos[q + k]);
      v = v << 6 | static_cast<unsigned>(d);
    }
    out.push_back(static_cast<char>(v >> 16));
    if (pad < 2) out.push_back(static_cast<char>((v >> 8) & 0xFF));
    if (pad < 1) out.push_back(static_cast<char>(v & 0xFF));
  }
  return out;
}

}  // namespace tazuna::util
