// Go's strconv quoting and unquoting (strconv/quote.go), for the text/template and fmt twins.
#include "util/go_strconv.hpp"

#include "util/go_unicode.hpp"

namespace tazuna::util {
namespace {

constexpr char kLowerHex[] = "0123456789abcdef";

bool ValidRune(uint64_t r) { return r <= 0x10FFFF && (r < 0xD800 || r > 0xDFFF); }

void AppendHex(std::string& out, uint64_t v, int digits) {
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out.push_back(kLowerHex[(v >> shift) & 0xF]);
}

void AppendEscapedRune(std::string& out, char32_t r, char quote, QuoteMode mode) {
  if (r == static_cast<char32_t>(quote) || r == '\\') {
    out.push_back('\\');
    AppendRune(out, r);
    return;
  }
  if (mode == QuoteMode::kAscii ? r < 0x80 && IsGoPrint(r) : IsGoPrint(r)) {
    AppendRune(out, r);
    return;
  }
  static constexpr struct {
    char32_t rune;
    const char* escape;
  } kShort[] = {{'\a', "\\a"}, {'\b', "\\b"}, {'\f', "\\f"}, {'\n', "\\n"},
                {'\r', "\\r"}, {'\t', "\\t"}, {'\v', "\\v"}};
  for (const auto& s : kShort) {
    if (s.rune == r) {
      out += s.escape;
      return;
    }
  }
  if (r < ' ' || r == 0x7F) {
    out += "\\x";
    AppendHex(out, r, 2);
  } else if (!ValidRune(r) || r < 0x10000) {
    out += "\\u";
    AppendHex(out, ValidRune(r) ? r : kRuneError, 4);
  } else {
    out += "\\U";
    AppendHex(out, r, 8);
  }
}

int Unhex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The escape after a backslash: \x \u \U \NNN or a one-letter escape.
std::optional<UnquotedChar> UnquoteEscape(char c, std::string_view s, char quote) {
  static constexpr char kLetters[] = "abfnrtv";
  static constexpr char kValues[] = "\a\b\f\n\r\t\v";
  for (int i = 0; kLetters[i] != 0; ++i) {
    if (c == kLetters[i]) return UnquotedChar{static_cast<char32_t>(kValues[i]), false, s};
  }
  if (c == 'x' || c == 'u' || c == 'U') {
    const size_t n = c == 'x' ? 2 : c == 'u' ? 4 : 8;
    if (s.size() < n) return std::nullopt;
    uint64_t v = 0;
    for (size_t j = 0; j < n; ++j) {
      const int x = Unhex(s[j]);
      if (x < 0) return std::nullopt;
      v = v << 4 | static_cast<uint64_t>(x);
    }
    if (c == 'x') return UnquotedChar{static_cast<char32_t>(v), false, s.substr(n)};
    if (!ValidRune(v)) return std::nullopt;
    return UnquotedChar{static_cast<char32_t>(v), true, s.substr(n)};
  }
  if (c >= '0' && c <= '7') {
    if (s.size() < 2) return std::nullopt;
    uint32_t v = static_cast<uint32_t>(c - '0');
    for (int j = 0; j < 2; ++j) {
      if (s[j] < '0' || s[j] > '7') return std::nullopt;
      v = v << 3 | static_cast<uint32_t>(s[j] - '0');
    }
    if (v > 255) return std::nullopt;
    return UnquotedChar{v, false, s.substr(2)};
  }
  if (c == '\\') return UnquotedChar{'\\', false, s};
  if ((c == '\'' || c == '"') && c == quote) return UnquotedChar{static_cast<char32_t>(c), false, s};
  return std::nullopt;
}

// The body of "..." or '...' after the opening quote, up to and including the closing one.
std::optional<std::string> UnquoteEscaped(std::string_view in, char quote) {
  std::string out;
  while (!in.empty() && in[0] != quote) {
    if (in[0] == '\n') return std::nullopt;
    auto c = GoUnquoteChar(in, quote);
    if (!c) return std::nullopt;
    in = c->tail;
    if (c->value < 0x80 || !c->multibyte) {
      out.push_back(static_cast<char>(c->value));
    } else {
      AppendRune(out, c->value);
    }
    if (quote == '\'') break;
  }
  if (in.size() != 1 || in[0] != quote) return std::nullopt;
  return out;
}

}  // namespace

std::string GoQuote(std::string_view text, QuoteMode mode) {
  std::string out = "\"";
  while (!text.empty()) {
    const DecodedRune d = DecodeRune(text);
    if (d.width == 1 && d.rune == kRuneError) {
      out += "\\x";
      AppendHex(out, static_cast<unsigned char>(text[0]), 2);
    } else {
      AppendEscapedRune(out, d.rune, '"', mode);
    }
    text.remove_prefix(d.width);
  }
  return out + "\"";
}

std::string GoQuoteRune(uint64_t rune, QuoteMode mode) {
  std::string out = "'";
  AppendEscapedRune(out, ValidRune(rune) ? static_cast<char32_t>(rune) : kRuneError, '\'', mode);
  return out + "'";
}

bool GoCanBackquote(std::string_view text) {
  while (!text.empty()) {
    const DecodedRune d = DecodeRune(text);
    text.remove_prefix(d.width);
    if (d.width > 1) {
      if (d.rune == 0xFEFF) return false;
      continue;
    }
    if (d.rune == kRuneError) return false;
    if ((d.rune < ' ' && d.rune != '\t') || d.rune == '`' || d.rune == 0x7F) return false;
  }
  return true;
}

std::optional<UnquotedChar> GoUnquoteChar(std::string_view s, char quote) {
  if (s.empty()) return std::nullopt;
  const char c = s[0];
  if (c == quote && (quote == '\'' || quote == '"')) return std::nullopt;
  if (static_cast<unsigned char>(c) >= 0x80) {
    const DecodedRune d = DecodeRune(s);
    return UnquotedChar{d.rune, true, s.substr(d.width)};
  }
  if (c != '\\') return UnquotedChar{static_cast<char32_t>(static_cast<unsigned char>(c)), false, s.substr(1)};
  if (s.size() <= 1) return std::nullopt;
  return UnquoteEscape(s[1], s.substr(2), quote);
}

std::optional<std::string> GoUnquote(std::string_view s) {
  if (s.size() < 2) return std::nullopt;
  const char quote = s[0];
  if (quote == '`') {
    if (s.back() != '`' || s.substr(1, s.size() - 2).find('`') != std::string_view::npos) return std::nullopt;
    std::string out;
    for (char c : s.substr(1, s.size() - 2)) {
      if (c != '\r') out.push_back(c);  // carriage returns are discarded from raw strings
    }
    return out;
  }
  if (quote != '"' && quote != '\'') return std::nullopt;
  return UnquoteEscaped(s.substr(1), quote);
}

}  // namespace tazuna::util
