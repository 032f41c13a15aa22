// Go's strconv number parsing and float formatting (strconv/atoi.go, atof.go, ftoa.go), for the
// text/template and fmt twins. Digits come from std::to_chars, which is correctly rounded (shortest,
// or to a precision with ties to even) as strconv is.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "util/go_strconv.hpp"

namespace tazuna::util {
namespace {

char Lower(char c) { return static_cast<char>(c | 0x20); }

// strconv's underscoreOK: underscores only between digits, or between a base prefix and a digit.
bool UnderscoreOk(std::string_view s) {
  char saw = '^';
  size_t i = 0;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) s.remove_prefix(1);
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0' && (Lower(s[1]) == 'b' || Lower(s[1]) == 'o' || Lower(s[1]) == 'x')) {
    i = 2;
    saw = '0';
    hex = Lower(s[1]) == 'x';
  }
  for (; i < s.size(); ++i) {
    if ((s[i] >= '0' && s[i] <= '9') || (hex && Lower(s[i]) >= 'a' && Lower(s[i]) <= 'f')) {
      saw = '0';
      continue;
    }
    if (s[i] == '_') {
      if (saw != '0') return false;
      saw = '_';
      continue;
    }
    if (saw == '_') return false;
    saw = '!';
  }
  return saw != '_';
}

// A decimal digit string: value = 0.d × 10^dp, no trailing zeros in d; empty d is zero.
struct Decimal {
  std::string d;
  int dp = 0;
};

void TrimZeros(Decimal& x) {
  while (!x.d.empty() && x.d.back() == '0') x.d.pop_back();
  if (x.d.empty()) x.dp = 0;
}

// From std::to_chars scientific output "D.DDDDe±XX".
Decimal FromScientific(std::string_view s) {
  Decimal x;
  const size_t e = s.find('e');
  for (char c : s.substr(0, e)) {
    if (c != '.') x.d.push_back(c);
  }
  int exp = 0;
  std::from_chars(s.data() + e + (s[e + 1] == '+' ? 2 : 1), s.data() + s.size(), exp);
  x.dp = exp + 1;
  TrimZeros(x);
  return x;
}

// `abs` (> 0) with `digits` significant digits, or shortest when digits < 0.
Decimal Significant(double abs, int digits) {
  if (abs == 0) return {};
  std::string buf(64 + static_cast<size_t>(std::max(digits, 0)), '\0');
  char* const end = buf.data() + buf.size();
  const auto r = digits < 0 ? std::to_chars(buf.data(), end, abs, std::chars_format::scientific)
                            : std::to_chars(buf.data(), end, abs, std::chars_format::scientific, digits - 1);
  return FromScientific(std::string_view(buf.data(), static_cast<size_t>(r.ptr - buf.data())));
}

// `abs` rounded to `prec` digits after the decimal point.
Decimal Fixed(double abs, int prec) {
  std::string buf(1200 + static_cast<size_t>(prec), '\0');
  const auto r = std::to_chars(buf.data(), buf.data() + buf.size(), abs, std::chars_format::fixed, prec);
  const std::string_view s(buf.data(), static_cast<size_t>(r.ptr - buf.data()));
  const size_t dot = s.find('.');
  const std::string_view int_part = s.substr(0, dot);
  Decimal x;
  x.d = std::string(int_part) + std::string(dot == std::string_view::npos ? "" : s.substr(dot + 1));
  const size_t lead = x.d.find_first_not_of('0');
  if (lead == std::string::npos) return {};
  x.dp = static_cast<int>(int_part.size()) - static_cast<int>(lead);
  x.d.erase(0, lead);
  TrimZeros(x);
  return x;
}

std::string FormatE(bool neg, const Decimal& d, int prec, char fmt) {
  std::string out = neg ? "-" : "";
  out.push_back(d.d.empty() ? '0' : d.d[0]);
  if (prec > 0) {
    out.push_back('.');
    for (int i = 1; i <= prec; ++i) out.push_back(i < static_cast<int>(d.d.size()) ? d.d[static_cast<size_t>(i)] : '0');
  }
  out.push_back(fmt);
  int exp = d.d.empty() ? 0 : d.dp - 1;
  out.push_back(exp < 0 ? '-' : '+');
  exp = std::abs(exp);
  if (exp < 10) out.push_back('0');
  out += std::to_string(exp);
  return out;
}

std::string FormatF(bool neg, const Decimal& d, int prec) {
  std::string out = neg ? "-" : "";
  const int nd = static_cast<int>(d.d.size());
  if (d.dp > 0) {
    for (int i = 0; i < d.dp; ++i) out.push_back(i < nd ? d.d[static_cast<size_t>(i)] : '0');
  } else {
    out.push_back('0');
  }
  if (prec > 0) {
    out.push_back('.');
    for (int i = 1; i <= prec; ++i) {
      const int j = d.dp + i - 1;
      out.push_back(j >= 0 && j < nd ? d.d[static_cast<size_t>(j)] : '0');
    }
  }
  return out;
}

// strconv's %g choice between %e and %f.
std::string FormatG(bool neg, const Decimal& d, int prec, bool shortest, char fmt) {
  const int nd = static_cast<int>(d.d.size());
  int eprec = prec;
  if (eprec > nd && nd >= d.dp) eprec = nd;
  if (shortest) eprec = 6;
  const int exp = d.dp - 1;
  if (exp < -4 || exp >= eprec) return FormatE(neg, d, (prec > nd ? nd : prec) - 1, static_cast<char>(fmt + 'e' - 'g'));
  return FormatF(neg, d, std::max((prec > d.dp ? nd : prec) - d.dp, 0));
}

struct Bits {
  bool neg = false;
  uint64_t mant = 0;  // with the implicit bit
  int exp = 0;        // value = mant × 2^(exp - 52)
};

Bits Decompose(double f) {
  uint64_t bits = 0;
  std::memcpy(&bits, &f, sizeof bits);
  Bits b;
  b.neg = (bits >> 63) != 0;
  int exp = static_cast<int>((bits >> 52) & 0x7FF);
  b.mant = bits & ((uint64_t{1} << 52) - 1);
  if (exp == 0) {
    ++exp;  // denormal
  } else {
    b.mant |= uint64_t{1} << 52;
  }
  b.exp = exp - 1023;
  return b;
}

// %b: decimal mantissa, 'p', binary exponent.
std::string FormatB(const Bits& b) {
  const int exp = b.exp - 52;
  return (b.neg ? "-" : "") + std::to_string(b.mant) + "p" + (exp >= 0 ? "+" : "") + std::to_string(exp);
}

// %x: -0x1.yyyyp±dd (hexadecimal mantissa rounded to `prec` digits, ties to even).
std::string FormatX(Bits b, int prec, char fmt) {
  uint64_t mant = b.mant << 8;  // leading 1 at bit 60
  int exp = mant == 0 ? 0 : b.exp;
  while (mant != 0 && (mant & (uint64_t{1} << 60)) == 0) {
    mant <<= 1;
    --exp;
  }
  if (prec >= 0 && prec < 15) {
    const unsigned shift = static_cast<unsigned>(prec * 4);
    const uint64_t extra = (mant << shift) & ((uint64_t{1} << 60) - 1);
    mant >>= 60 - shift;
    if ((extra | (mant & 1)) > (uint64_t{1} << 59)) ++mant;
    mant <<= 60 - shift;
    if ((mant & (uint64_t{1} << 61)) != 0) {
      mant >>= 1;
      ++exp;
    }
  }
  const char* hex = fmt == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string out = b.neg ? "-" : "";
  out += {'0', fmt, static_cast<char>('0' + ((mant >> 60) & 1))};
  mant <<= 4;
  if ((prec < 0 && mant != 0) || prec > 0) out.push_back('.');
  for (int i = 0; prec < 0 ? mant != 0 : i < prec; ++i, mant <<= 4) out.push_back(hex[(mant >> 60) & 15]);
  out.push_back(fmt == 'X' ? 'P' : 'p');
  out.push_back(exp < 0 ? '-' : '+');
  exp = std::abs(exp);
  if (exp < 10) out.push_back('0');
  return out + std::to_string(exp);
}

}  // namespace

std::optional<uint64_t> GoParseUint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const std::string_view s0 = s;
  unsigned base = 10;
  if (s[0] == '0') {
    const char p = s.size() >= 3 ? Lower(s[1]) : 0;
    base = p == 'b' ? 2 : p == 'o' ? 8 : p == 'x' ? 16 : 8;
    s.remove_prefix(p == 'b' || p == 'o' || p == 'x' ? 2 : 1);
  }
  uint64_t n = 0;
  bool underscores = false;
  for (char c : s) {
    unsigned d = 0;
    if (c == '_') {
      underscores = true;
      continue;
    }
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (Lower(c) >= 'a' && Lower(c) <= 'z') {
      d = static_cast<unsigned>(Lower(c) - 'a' + 10);
    } else {
      return std::nullopt;
    }
    if (d >= base) return std::nullopt;
    if (n > (UINT64_MAX - d) / base) return std::nullopt;
    n = n * base + d;
  }
  if (underscores && !UnderscoreOk(s0)) return std::nullopt;
  return n;
}

std::optional<int64_t> GoParseInt(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const bool neg = s[0] == '-';
  if (s[0] == '+' || s[0] == '-') s.remove_prefix(1);
  const std::optional<uint64_t> u = GoParseUint(s);
  if (!u) return std::nullopt;
  constexpr uint64_t kCutoff = uint64_t{1} << 63;
  if ((!neg && *u >= kCutoff) || (neg && *u > kCutoff)) return std::nullopt;
  return neg ? static_cast<int64_t>(0 - *u) : static_cast<int64_t>(*u);
}

std::optional<double> GoParseFloat(std::string_view s) {
  size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  const bool hex = i + 2 < s.size() && s[i] == '0' && Lower(s[i + 1]) == 'x';
  if (hex) i += 2;
  bool dot = false, digits = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '_') continue;
    if (c == '.' && !dot) {
      dot = true;
      continue;
    }
    if ((c >= '0' && c <= '9') || (hex && Lower(c) >= 'a' && Lower(c) <= 'f')) {
      digits = true;
      continue;
    }
    break;
  }
  if (!digits) return std::nullopt;
  if (i < s.size() && Lower(s[i]) == (hex ? 'p' : 'e')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (i >= s.size() || s[i] < '0' || s[i] > '9') return std::nullopt;
    while (i < s.size() && ((s[i] >= '0' && s[i] <= '9') || s[i] == '_')) ++i;
  } else if (hex) {
    return std::nullopt;  // a hexadecimal mantissa needs a 'p' exponent
  }
  if (i != s.size() || (s.find('_') != std::string_view::npos && !UnderscoreOk(s))) return std::nullopt;
  std::string plain;
  for (char c : s) {
    if (c != '_') plain.push_back(c);
  }
  const double f = std::strtod(plain.c_str(), nullptr);
  if (std::isinf(f)) return std::nullopt;  // Go: ±Inf with ErrRange
  return f;
}

std::string GoFormatFloat(double f, char fmt, int prec) {
  if (std::isnan(f)) return "NaN";
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  const Bits bits = Decompose(f);
  if (fmt == 'b') return FormatB(bits);
  if (fmt == 'x' || fmt == 'X') return FormatX(bits, prec, fmt);
  const bool neg = std::signbit(f);
  const double abs = std::fabs(f);
  const bool shortest = prec < 0;
  const char lower = Lower(fmt);
  if (lower == 'f') {
    const Decimal d = shortest ? Significant(abs, -1) : Fixed(abs, prec);
    return FormatF(neg, d, shortest ? std::max(static_cast<int>(d.d.size()) - d.dp, 0) : prec);
  }
  if (lower == 'e') {
    const Decimal d = Significant(abs, shortest ? -1 : prec + 1);
    return FormatE(neg, d, shortest ? std::max(static_cast<int>(d.d.size()) - 1, 0) : prec, fmt);
  }
  const int digits = prec == 0 ? 1 : prec;
  const Decimal d = Significant(abs, shortest ? -1 : digits);
  return FormatG(neg, d, shortest ? static_cast<int>(d.d.size()) : digits, shortest, fmt);
}

}  // namespace tazuna::util
