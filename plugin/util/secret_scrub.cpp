// ScrubValues: a value is found in every form a message or a logged body can hold it in. Rather than
// encoding each value every way an encoder might (JSON with or without HTML escapes, Go's %q and %#v,
// \u or \x or octal, either case of hex digits, surrogate pairs), the text is decoded instead, one
// level of escapes at a time, and each value is looked for at every level; a match masks the part of
// the original text it was decoded from.
#include <algorithm>
#include <cstdint>
#include <optional>

#include "util/secret_mask.hpp"

namespace tazuna::util {
namespace {

// Raw; JSON-escaped or Go-quoted; Go-quoted inside JSON (an apiserver message in a body); that inside
// one more JSON string (a body logged inside JSON).
constexpr size_t kMaxLevels = 4;

// A text with one more level of escapes decoded: byte i of `text` came from the original text's bytes
// starting at starts[i]; starts[text.size()] is the end of the original text.
struct Decoded {
  std::string text;
  std::vector<size_t> starts;
};

// The bytes one escape stands for and how long it is.
struct Escape {
  std::string bytes;
  size_t length = 0;
};

std::optional<uint32_t> Digits(std::string_view s, size_t at, size_t n, uint32_t base) {
  if (at + n > s.size()) return std::nullopt;
  uint32_t v = 0;
  for (size_t i = at; i < at + n; ++i) {
    const char c = s[i];
    int d = 99;
    if (c >= '0' && c <= '9') d = c - '0';
    if (c >= 'a' && c <= 'f') d = c - 'a' + 10;
    if (c >= 'A' && c <= 'F') d = c - 'A' + 10;
    if (d >= static_cast<int>(base)) return std::nullopt;
    v = v * base + static_cast<uint32_t>(d);
  }
  return v;
}

std::string Utf8(uint32_t rune) {
  std::string out;
  if (rune > 0x10FFFF || (rune >= 0xD800 && rune < 0xE000)) rune = 0xFFFD;
  if (rune < 0x80) {
    out += static_cast<char>(rune);
  } else if (rune < 0x800) {
    out += {static_cast<char>(0xC0 | (rune >> 6)), static_cast<char>(0x80 | (rune & 0x3F))};
  } else if (rune < 0x10000) {
    out += {static_cast<char>(0xE0 | (rune >> 12)), static_cast<char>(0x80 | ((rune >> 6) & 0x3F)),
            static_cast<char>(0x80 | (rune & 0x3F))};
  } else {
    out += {static_cast<char>(0xF0 | (rune >> 18)), static_cast<char>(0x80 | ((rune >> 12) & 0x3F)),
            static_cast<char>(0x80 | ((rune >> 6) & 0x3F)), static_cast<char>(0x80 | (rune & 0x3F))};
  }
  return out;
}

// \uXXXX at s[at], with the low half of a JSON surrogate pair when one follows a high half.
std::optional<Escape> UnicodeEscape(std::string_view s, size_t at) {
  const std::optional<uint32_t> v = Digits(s, at + 2, 4, 16);
  if (!v) return std::nullopt;
  if (*v >= 0xD800 && *v < 0xDC00 && s.substr(at + 6, 2) == "\\u") {
    const std::optional<uint32_t> low = Digits(s, at + 8, 4, 16);
    if (low && *low >= 0xDC00 && *low < 0xE000) {
      return Escape{Utf8(0x10000 + ((*v - 0xD800) << 10) + (*low - 0xDC00)), 12};
    }
  }
  return Escape{Utf8(*v), 6};
}

// The escape at s[at] (a backslash) as a JSON decoder or Go's strconv.Unquote reads it; nullopt when it is
// neither's, and the backslash stands for itself.
std::optional<Escape> DecodeEscape(std::string_view s, size_t at) {
  if (at + 1 >= s.size()) return std::nullopt;
  const char c = s[at + 1];
  constexpr std::string_view kNames = "\"\\/'abfnrtv";
  constexpr std::string_view kBytes = "\"\\/'\a\b\f\n\r\t\v";
  if (const size_t k = kNames.find(c); k != std::string_view::npos) return Escape{std::string(1, kBytes[k]), 2};
  if (c == 'u') return UnicodeEscape(s, at);
  if (c == 'U') {
    const std::optional<uint32_t> v = Digits(s, at + 2, 8, 16);
    return v ? std::optional<Escape>(Escape{Utf8(*v), 10}) : std::nullopt;
  }
  const bool hex = c == 'x';
  const std::optional<uint32_t> v = hex ? Digits(s, at + 2, 2, 16) : Digits(s, at + 1, 3, 8);
  if (!v || *v > 0xFF) return std::nullopt;
  return Escape{std::string(1, static_cast<char>(*v)), 4};  // \xNN and \NNN are both 4 long
}

Decoded DecodeOnce(const Decoded& in) {
  Decoded out;
  const std::string& s = in.text;
  out.text.reserve(s.size());
  out.starts.reserve(s.size() + 1);
  for (size_t i = 0; i < s.size();) {
    const std::optional<Escape> e = s[i] == '\\' ? DecodeEscape(s, i) : std::nullopt;
    out.text += e ? e->bytes : std::string(1, s[i]);
    out.starts.resize(out.text.size(), in.starts[i]);
    i += e ? e->length : 1;
  }
  out.starts.push_back(in.starts[s.size()]);
  return out;
}

using Range = std::pair<size_t, size_t>;

// Where in the original text each occurrence of `value` in `level` came from.
void FindIn(const Decoded& level, const std::string& value, std::vector<Range>& ranges) {
  if (value.empty()) return;
  for (size_t at = level.text.find(value); at != std::string::npos; at = level.text.find(value, at + value.size())) {
    size_t end = at + value.size();
    // A match that ends inside the bytes of one escape (a part of a rune) takes the whole escape.
    while (end < level.text.size() && level.starts[end] == level.starts[end - 1]) ++end;
    ranges.emplace_back(level.starts[at], level.starts[end]);
  }
}

std::string MaskRanges(const std::string& text, std::vector<Range> ranges) {
  std::sort(ranges.begin(), ranges.end());
  std::string out;
  size_t done = 0;
  for (size_t i = 0; i < ranges.size();) {
    size_t end = ranges[i].second;
    size_t j = i + 1;
    while (j < ranges.size() && ranges[j].first < end) end = std::max(end, ranges[j++].second);
    out.append(text, done, ranges[i].first - done);
    out += kSecretMask;
    done = end;
    i = j;
  }
  out.append(text, done, std::string::npos);
  return out;
}

}  // namespace

std::string ScrubValues(std::string text, const std::vector<std::string>& values) {
  if (values.empty()) return text;
  std::vector<Decoded> levels(1);
  levels[0].text = text;
  levels[0].starts.resize(text.size() + 1);
  for (size_t i = 0; i <= text.size(); ++i) levels[0].starts[i] = i;
  while (levels.size() < kMaxLevels && levels.back().text.find('\\') != std::string::npos) {
    Decoded next = DecodeOnce(levels.back());
    if (next.text == levels.back().text) break;
    levels.push_back(std::move(next));
  }
  std::vector<Range> ranges;
  for (const std::string& value : values) {
    for (const Decoded& level : levels) FindIn(level, value, ranges);
  }
  return ranges.empty() ? text : MaskRanges(text, std::move(ranges));
}

}  // namespace tazuna::util
