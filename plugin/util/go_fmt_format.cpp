// Go's fmt/format.go for the text/template twin: padding, integers, runes, strings and floats under
// one verb's flags (GoPrinter::f_).
#include "util/go_fmt_printer.hpp"
#include "util/go_strconv.hpp"
#include "util/go_unicode.hpp"

namespace tazuna::util {

void GoPrinter::WritePadding(int n) {
  if (n <= 0) return;
  buf.append(static_cast<size_t>(n), f_.zero && !f_.minus ? '0' : ' ');
}

void GoPrinter::Pad(std::string_view text) {
  if (!f_.wid_present || f_.wid == 0) {
    buf.append(text);
    return;
  }
  const int width = f_.wid - static_cast<int>(RuneCount(text));
  if (!f_.minus) {
    WritePadding(width);
    buf.append(text);
  } else {
    buf.append(text);
    WritePadding(width);
  }
}

void GoPrinter::FmtBoolean(bool v) { Pad(v ? "true" : "false"); }

// "U+0078", or with # "U+0078 'x'" for a printable rune.
void GoPrinter::FmtUnicode(uint64_t u) {
  const int prec = f_.prec_present && f_.prec > 4 ? f_.prec : 4;
  std::string hex;
  for (uint64_t v = u;; v >>= 4) {
    hex.insert(hex.begin(), "0123456789ABCDEF"[v & 0xF]);
    if (v < 16) break;
  }
  if (static_cast<int>(hex.size()) < prec) hex.insert(0, static_cast<size_t>(prec) - hex.size(), '0');
  std::string out = "U+" + hex;
  if (f_.sharp && u <= 0x10FFFF && IsGoPrint(static_cast<char32_t>(u))) {
    out += " '";
    AppendRune(out, static_cast<char32_t>(u));
    out += "'";
  }
  const bool zero = f_.zero;
  f_.zero = false;
  Pad(out);
  f_.zero = zero;
}

void GoPrinter::FmtIntegerBase(uint64_t u, int base, bool is_signed, char32_t verb, bool upper) {
  const bool negative = is_signed && static_cast<int64_t>(u) < 0;
  if (negative) u = 0 - u;
  int prec = 0;
  if (f_.prec_present) {
    prec = f_.prec;
    if (prec == 0 && u == 0) {  // precision 0 and value 0 print nothing but padding
      const bool zero = f_.zero;
      f_.zero = false;
      WritePadding(f_.wid);
      f_.zero = zero;
      return;
    }
  } else if (f_.zero && !f_.minus && f_.wid_present) {
    prec = f_.wid;
    if (negative || f_.plus || f_.space) --prec;  // room for the sign
  }
  const char* digits = upper ? "0123456789ABCDEFX" : "0123456789abcdefx";
  std::string out;
  for (uint64_t v = u;; v /= static_cast<uint64_t>(base)) {
    out.push_back(digits[v % static_cast<uint64_t>(base)]);
    if (v < static_cast<uint64_t>(base)) break;
  }
  while (static_cast<int>(out.size()) < prec) out.push_back('0');
  if (f_.sharp && base == 2) out += "b0";
  if (f_.sharp && base == 8 && out.back() != '0') out.push_back('0');
  if (f_.sharp && base == 16) out += {digits[16], '0'};
  if (verb == 'O') out += "o0";
  if (negative) {
    out.push_back('-');
  } else if (f_.plus) {
    out.push_back('+');
  } else if (f_.space) {
    out.push_back(' ');
  }
  const std::string text(out.rbegin(), out.rend());
  const bool zero = f_.zero;
  f_.zero = false;  // zero padding was done as precision above
  Pad(text);
  f_.zero = zero;
}

std::string_view GoPrinter::TruncateString(std::string_view s) const {
  if (!f_.prec_present) return s;
  int n = f_.prec;
  for (size_t i = 0; i < s.size(); i += DecodeRune(s.substr(i)).width) {
    if (--n < 0) return s.substr(0, i);
  }
  return s;
}

void GoPrinter::FmtS(std::string_view s) { Pad(TruncateString(s)); }

// Bytes of `s` as hexadecimal, with the space and # flags.
void GoPrinter::FmtSbx(std::string_view s, bool upper) {
  const char* digits = upper ? "0123456789ABCDEFX" : "0123456789abcdefx";
  int length = static_cast<int>(s.size());
  if (f_.prec_present && f_.prec < length) length = f_.prec;
  int width = 2 * length;
  if (width <= 0) {
    if (f_.wid_present) WritePadding(f_.wid);
    return;
  }
  if (f_.space) {
    if (f_.sharp) width *= 2;
    width += length - 1;
  } else if (f_.sharp) {
    width += 2;
  }
  if (f_.wid_present && f_.wid > width && !f_.minus) WritePadding(f_.wid - width);
  if (f_.sharp) buf += {'0', digits[16]};
  for (int i = 0; i < length; ++i) {
    if (f_.space && i > 0) {
      buf.push_back(' ');
      if (f_.sharp) buf += {'0', digits[16]};
    }
    const auto c = static_cast<unsigned char>(s[static_cast<size_t>(i)]);
    buf += {digits[c >> 4], digits[c & 0xF]};
  }
  if (f_.wid_present && f_.wid > width && f_.minus) WritePadding(f_.wid - width);
}

void GoPrinter::FmtQ(std::string_view s) {
  s = TruncateString(s);
  if (f_.sharp && GoCanBackquote(s)) {
    Pad("`" + std::string(s) + "`");
    return;
  }
  Pad(GoQuote(s, f_.plus ? QuoteMode::kAscii : QuoteMode::kUnicode));
}

void GoPrinter::FmtC(uint64_t c) {
  std::string out;
  AppendRune(out, c > 0x10FFFF ? kRuneError : static_cast<char32_t>(c));
  Pad(out);
}

void GoPrinter::FmtQc(uint64_t c) { Pad(GoQuoteRune(c, f_.plus ? QuoteMode::kAscii : QuoteMode::kUnicode)); }

// fmt's fmtFloat: strconv's digits, then sign, # and zero padding as fmt applies them.
void GoPrinter::FmtFloatRaw(double v, char verb, int prec) {
  if (f_.prec_present) prec = f_.prec;
  std::string num = GoFormatFloat(v, verb, prec);
  if (num[0] != '-' && num[0] != '+') num.insert(num.begin(), '+');
  if (f_.space && num[0] == '+' && !f_.plus) num[0] = ' ';
  if (num[1] == 'I' || num[1] == 'N') {  // infinities and NaN are never zero padded
    const bool zero = f_.zero;
    f_.zero = false;
    if (num[1] == 'N' && !f_.space && !f_.plus) num.erase(0, 1);
    Pad(num);
    f_.zero = zero;
    return;
  }
  if (f_.sharp && verb != 'b') {
    int digits = 0;
    if (verb == 'v' || verb == 'g' || verb == 'G' || verb == 'x') digits = prec == -1 ? 6 : prec;
    std::string tail;
    bool has_point = false, nonzero = false;
    for (size_t i = 1; i < num.size(); ++i) {
      const char c = num[i];
      if (c == '.') {
        has_point = true;
      } else if (c == 'p' || c == 'P' || ((c == 'e' || c == 'E') && verb != 'x' && verb != 'X')) {
        tail = num.substr(i);
        num.resize(i);
        break;
      } else {
        nonzero = nonzero || c != '0';
        if (nonzero) --digits;
      }
    }
    if (!has_point) {
      if (num.size() == 2 && num[1] == '0') --digits;  // a leading 0 counts once
      num.push_back('.');
    }
    for (; digits > 0; --digits) num.push_back('0');
    num += tail;
  }
  if (f_.plus || num[0] != '+') {
    if (f_.zero && !f_.minus && f_.wid_present && f_.wid > static_cast<int>(num.size())) {
      buf.push_back(num[0]);  // the sign goes before the zeros
      WritePadding(f_.wid - static_cast<int>(num.size()));
      buf.append(num, 1);
      return;
    }
    Pad(num);
    return;
  }
  Pad(std::string_view(num).substr(1));
}

}  // namespace tazuna::util
