#include "util/go_unicode.hpp"

#include <algorithm>
#include <iterator>

namespace tazuna::util {
namespace {

struct RuneRange {
  char32_t first;
  char32_t last;
};

#include "util/go_unicode_tables.inc"

template <size_t N>
bool InTable(const RuneRange (&table)[N], char32_t r) {
  const auto* it = std::upper_bound(std::begin(table), std::end(table), r,
                                    [](char32_t v, const RuneRange& range) { return v < range.first; });
  return it != std::begin(table) && r <= std::prev(it)->last;
}

}  // namespace

DecodedRune DecodeRune(std::string_view text) {
  if (text.empty()) return {kRuneError, 0};
  const auto b = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char c0 = b(0);
  if (c0 < 0x80) return {c0, 1};
  const auto cont = [&](size_t i) { return i < text.size() && (b(i) & 0xC0) == 0x80; };
  if (c0 >= 0xC2 && c0 <= 0xDF && cont(1)) return {static_cast<char32_t>((c0 & 0x1F) << 6 | (b(1) & 0x3F)), 2};
  if (c0 >= 0xE0 && c0 <= 0xEF && cont(1) && cont(2)) {
    const char32_t r = (c0 & 0x0F) << 12 | (b(1) & 0x3F) << 6 | (b(2) & 0x3F);
    if (r >= 0x800 && (r < 0xD800 || r > 0xDFFF)) return {r, 3};
    return {kRuneError, 1};
  }
  if (c0 >= 0xF0 && c0 <= 0xF4 && cont(1) && cont(2) && cont(3)) {
    const char32_t r = (c0 & 0x07) << 18 | (b(1) & 0x3F) << 12 | (b(2) & 0x3F) << 6 | (b(3) & 0x3F);
    if (r >= 0x10000 && r <= 0x10FFFF) return {r, 4};
  }
  return {kRuneError, 1};
}

void AppendRune(std::string& out, char32_t r) {
  if (r > 0x10FFFF || (r >= 0xD800 && r <= 0xDFFF)) r = kRuneError;
  if (r < 0x80) {
    out.push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (r >> 6)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (r >> 12)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (r >> 18)));
    out.push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

size_t RuneCount(std::string_view text) {
  size_t n = 0;
  while (!text.empty()) {
    text.remove_prefix(DecodeRune(text).width);
    ++n;
  }
  return n;
}

std::vector<char32_t> Runes(std::string_view text) {
  std::vector<char32_t> out;
  while (!text.empty()) {
    const DecodedRune d = DecodeRune(text);
    out.push_back(d.rune);
    text.remove_prefix(d.width);
  }
  return out;
}

bool IsGoPrint(char32_t r) { return InTable(kGoPrint, r); }
bool IsGoLetter(char32_t r) { return InTable(kGoLetter, r); }
bool IsGoDigit(char32_t r) { return InTable(kGoDigit, r); }

bool IsGoSpace(char32_t r) {
  switch (r) {
    case '\t': case '\n': case '\v': case '\f': case '\r': case ' ': case 0x85: case 0xA0: case 0x1680:
    case 0x2028: case 0x2029: case 0x202F: case 0x205F: case 0x3000: return true;
    default: return r >= 0x2000 && r <= 0x200A;
  }
}

}  // namespace tazuna::util
