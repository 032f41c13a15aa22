#include "manifest/sprig/strings.hpp"

#include <algorithm>
#include <string_view>

#include "manifest/sprig/values.hpp"
#include "util/go_unicode.hpp"

namespace tazuna::manifest::sprig {

std::string TrimSpace(const std::string& s) {
  size_t begin = 0, end = s.size();
  while (begin < end) {
    const util::DecodedRune d = util::DecodeRune(std::string_view(s).substr(begin));
    if (!util::IsGoSpace(d.rune) || (d.width == 1 && d.rune == util::kRuneError)) break;
    begin += d.width;
  }
  while (end > begin) {
    size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    const util::DecodedRune d = util::DecodeRune(std::string_view(s).substr(start, end - start));
    if (d.width != end - start || !util::IsGoSpace(d.rune)) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

// strings.Trim(s, cutset).
std::string TrimCutset(const std::string& s, const std::string& cutset) {
  if (s.empty() || cutset.empty()) return s;
  const std::vector<char32_t> set = util::Runes(cutset);
  const auto in = [&](std::string_view piece) {
    const util::DecodedRune d = util::DecodeRune(piece);
    return d.width == piece.size() && std::find(set.begin(), set.end(), d.rune) != set.end();
  };
  size_t begin = 0, end = s.size();
  while (begin < end) {
    const util::DecodedRune d = util::DecodeRune(std::string_view(s).substr(begin));
    if (!in(std::string_view(s).substr(begin, d.width))) break;
    begin += d.width;
  }
  while (end > begin) {
    size_t start = end - 1;
    while (start > begin && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    const util::DecodedRune d = util::DecodeRune(std::string_view(s).substr(start, end - start));
    if (d.width != end - start) start = end - 1;
    if (!in(std::string_view(s).substr(start, end - start))) break;
    end = start;
  }
  return s.substr(begin, end - begin);
}

// Go's case mapping for ASCII letters; other runes are left as they are.
char32_t AsciiUpper(char32_t r) { return r >= 'a' && r <= 'z' ? r - 'a' + 'A' : r; }
char32_t AsciiLower(char32_t r) { return r >= 'A' && r <= 'Z' ? r - 'A' + 'a' : r; }

std::string MapRunes(const std::string& s, char32_t (*f)(char32_t)) {
  std::string out;
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    out += b < 0x80 ? static_cast<char>(f(b)) : c;
  }
  return out;
}

// strings.Title's isSeparator.
bool IsSeparator(char32_t r) {
  if (r <= 0x7F) return !((r >= '0' && r <= '9') || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || r == '_');
  if (util::IsGoLetter(r) || util::IsGoDigit(r)) return false;
  return util::IsGoSpace(r);
}

std::string Title(const std::string& s) {
  std::string out;
  char32_t prev = ' ';
  std::string_view rest = s;
  while (!rest.empty()) {
    const util::DecodedRune d = util::DecodeRune(rest);
    const char32_t r = IsSeparator(prev) ? AsciiUpper(d.rune) : d.rune;
    if (d.width == 1 && d.rune == util::kRuneError) {
      out += rest[0];
    } else {
      util::AppendRune(out, r);
    }
    prev = d.rune;
    rest.remove_prefix(d.width);
  }
  return out;
}

// goutils.Uncapitalize: the first letter of each whitespace-separated word lowered.
std::string Untitle(const std::string& s) {
  std::string out;
  bool next = true;
  for (const char32_t r : util::Runes(s)) {
    if (util::IsGoSpace(r)) {
      next = true;
      util::AppendRune(out, r);
    } else {
      util::AppendRune(out, next ? AsciiLower(r) : r);
      next = false;
    }
  }
  return out;
}

// goutils.DeleteWhiteSpace: byte by byte, each kept byte written as the rune of that value.
std::string DeleteWhiteSpace(const std::string& s) {
  std::string out;
  for (const char c : s) {
    const auto b = static_cast<unsigned char>(c);
    if (!util::IsGoSpace(b)) util::AppendRune(out, b);
  }
  return out.size() == s.size() && std::none_of(s.begin(), s.end(), [](char c) { return util::IsGoSpace(static_cast<unsigned char>(c)); }) ? s : out;
}

// goutils.AbbreviateFull; nullopt for its errors.
std::optional<std::string> AbbreviateFull(const std::string& str, int64_t offset, int64_t max_width) {
  if (str.empty()) return "";
  if (max_width < 4) return std::nullopt;
  const auto len = static_cast<int64_t>(str.size());
  if (len <= max_width) return str;
  if (offset > len) offset = len;
  if (len - offset < max_width - 3) offset = len - (max_width - 3);
  if (offset <= 4) return str.substr(0, static_cast<size_t>(max_width - 3)) + "...";
  if (max_width < 7) return std::nullopt;
  if (offset + max_width - 3 < len) {
    auto tail = AbbreviateFull(str.substr(static_cast<size_t>(offset)), 0, max_width - 3);
    return "..." + tail.value_or("");
  }
  return "..." + str.substr(static_cast<size_t>(len - (max_width - 3)));
}

// strings.Split(s, sep) (n < 0) and SplitN.
std::vector<std::string> GoSplit(const std::string& s, const std::string& sep, int64_t n) {
  std::vector<std::string> out;
  if (n == 0) return out;
  if (sep.empty()) {
    std::string_view rest = s;
    while (!rest.empty()) {
      if (n > 0 && static_cast<int64_t>(out.size()) == n - 1) {
        out.emplace_back(rest);
        return out;
      }
      const util::DecodedRune d = util::DecodeRune(rest);
      out.emplace_back(rest.substr(0, d.width));
      rest.remove_prefix(d.width);
    }
    return out;
  }
  size_t pos = 0;
  while (n < 0 || static_cast<int64_t>(out.size()) < n - 1) {
    const size_t at = s.find(sep, pos);
    if (at == std::string::npos) break;
    out.push_back(s.substr(pos, at - pos));
    pos = at + sep.size();
  }
  out.push_back(s.substr(pos));
  return out;
}

// strings.Replace(s, old, new, -1).
std::string ReplaceAll(const std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) {
    std::string out = to;
    std::string_view rest = s;
    while (!rest.empty()) {
      const util::DecodedRune d = util::DecodeRune(rest);
      out += rest.substr(0, d.width);
      out += to;
      rest.remove_prefix(d.width);
    }
    return out;
  }
  std::string out;
  size_t pos = 0;
  for (size_t at; (at = s.find(from, pos)) != std::string::npos; pos = at + from.size()) {
    out += s.substr(pos, at - pos);
    out += to;
  }
  return out + s.substr(pos);
}

Result<std::string> Repeat(const std::string& s, int64_t count) {
  if (count < 0) return Fail("strings: negative Repeat count");
  if (!s.empty() && static_cast<uint64_t>(count) > (uint64_t{1} << 30) / s.size()) return Fail("strings: Repeat output length overflow");
  std::string out;
  for (int64_t i = 0; i < count; ++i) out += s;
  return out;
}

Result<std::string> Indent(int64_t spaces, const std::string& v) {
  auto pad = Repeat(" ", spaces);
  if (!pad) return pad.error();
  return *pad + ReplaceAll(v, "\n", "\n" + *pad);
}

}  // namespace tazuna::manifest::sprig
