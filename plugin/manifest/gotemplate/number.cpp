// Go's text/template number constants (parse.NewNumber): every interpretation of one literal.
#include <charconv>
#include <cmath>
#include <system_error>

#include "manifest/gotemplate/parse_internal.hpp"
#include "util/go_strconv.hpp"

namespace tazuna::manifest::gotemplate {
namespace {

// fmt's floatToken for Sscan of a complex constant: sign, digits (hex after 0x), fraction, exponent.
std::string_view FloatToken(std::string_view s, size_t& i) {
  const size_t start = i;
  const auto accept = [&](std::string_view set) {
    if (i < s.size() && set.find(s[i]) != std::string_view::npos) return ++i, true;
    return false;
  };
  accept("+-");
  std::string_view digits = "0123456789_", exp = "eEpP";
  if (accept("0") && accept("xX")) {
    digits = "0123456789aAbBcCdDeEfF_";
    exp = "pP";
  }
  while (accept(digits)) {
  }
  if (accept(".")) {
    while (accept(digits)) {
    }
  }
  if (accept(exp)) {
    accept("+-");
    while (accept("0123456789_")) {
    }
  }
  return s.substr(start, i - start);
}

// fmt's convertFloat: a 'p' exponent scales a decimal mantissa (a hexadecimal one is strconv's).
std::optional<double> ConvertFloat(std::string_view s) {
  const size_t p = s.find('p');
  if (p == std::string_view::npos || s.find_first_of("xX") != std::string_view::npos) return util::GoParseFloat(s);
  const std::optional<double> f = util::GoParseFloat(s.substr(0, p));
  std::string_view e = s.substr(p + 1);
  if (!f || e.empty()) return std::nullopt;
  const bool neg = e[0] == '-';
  if (e[0] == '+' || e[0] == '-') e.remove_prefix(1);
  if (e.empty() || e.find_first_not_of("0123456789") != std::string_view::npos || e.size() > 9) return std::nullopt;
  int m = 0;
  if (std::from_chars(e.data(), e.data() + e.size(), m).ec != std::errc()) return std::nullopt;
  return std::ldexp(*f, neg ? -m : m);
}

// fmt.Sscan of a complex128: real part, a sign, imaginary part, 'i'.
std::optional<std::pair<double, double>> ParseComplex(std::string_view s) {
  size_t i = 0;
  const std::string_view real = FloatToken(s, i);
  if (i >= s.size() || (s[i] != '+' && s[i] != '-')) return std::nullopt;
  const size_t sign = i++;
  const std::string_view imag = FloatToken(s, i);
  if (i >= s.size() || s[i] != 'i') return std::nullopt;
  const std::optional<double> re = ConvertFloat(real);
  const std::optional<double> im = ConvertFloat(std::string(s.substr(sign, 1)) + std::string(imag));
  if (!re || !im) return std::nullopt;
  return std::pair{*re, *im};
}

// Go's float64(int64(f)) == f and float64(uint64(f)) == f, without C++'s undefined conversions.
bool FitsInt64(double f) { return f >= -9223372036854775808.0 && f < 9223372036854775808.0 && std::trunc(f) == f; }
bool FitsUint64(double f) { return f >= 0 && f < 18446744073709551616.0 && std::trunc(f) == f; }

void SimplifyComplex(Number& n) {
  n.is_float = n.im == 0;
  if (!n.is_float) return;
  n.f = n.re;
  n.is_int = FitsInt64(n.f);
  if (n.is_int) n.i = static_cast<int64_t>(n.f);
  n.is_uint = FitsUint64(n.f);
  if (n.is_uint) n.u = static_cast<uint64_t>(n.f);
}

// The integer and float readings of a plain number.
std::optional<std::string> ReadReal(Number& n, const std::string& text) {
  const std::optional<uint64_t> u = util::GoParseUint(text);
  if (u) n.is_uint = true, n.u = *u;
  if (const std::optional<int64_t> i = util::GoParseInt(text)) {
    n.is_int = true;
    n.i = *i;
    if (*i == 0) n.is_uint = true, n.u = u.value_or(0);  // -0
  }
  if (n.is_int) {
    n.is_float = true;
    n.f = static_cast<double>(n.i);
  } else if (n.is_uint) {
    n.is_float = true;
    n.f = static_cast<double>(n.u);
  } else if (const std::optional<double> f = util::GoParseFloat(text)) {
    if (text.find_first_of(".eEpP") == std::string::npos) return "integer overflow: " + util::GoQuote(text, util::QuoteMode::kUnicode);
    n.is_float = true;
    n.f = *f;
    if (FitsInt64(*f)) n.is_int = true, n.i = static_cast<int64_t>(*f);
    if (FitsUint64(*f)) n.is_uint = true, n.u = static_cast<uint64_t>(*f);
  }
  if (!n.is_int && !n.is_uint && !n.is_float) return "illegal number syntax: " + util::GoQuote(text, util::QuoteMode::kUnicode);
  return std::nullopt;
}

}  // namespace

util::Result<Number> NewNumber(const std::string& text, TokenType type) {
  Number n;
  n.text = text;
  const auto fail = [](std::string message) { return util::MakeError(util::ErrorKind::kInput, std::move(message)); };
  if (type == TokenType::kCharConstant) {
    const auto c = util::GoUnquoteChar(std::string_view(text).substr(1), text[0]);
    if (!c) return fail("invalid syntax");
    if (c->tail != "'") return fail("malformed character constant: " + text);
    n.i = c->value;
    n.u = c->value;
    n.f = c->value;
    n.is_int = n.is_uint = n.is_float = true;
    return n;
  }
  if (type == TokenType::kComplex) {
    const auto c = ParseComplex(text);
    if (!c) return fail("expected integer");
    n.is_complex = true;
    std::tie(n.re, n.im) = *c;
    SimplifyComplex(n);
    return n;
  }
  if (!text.empty() && text.back() == 'i') {  // imaginary constants are complex unless they are zero
    if (const std::optional<double> f = util::GoParseFloat(std::string_view(text).substr(0, text.size() - 1))) {
      n.is_complex = true;
      n.im = *f;
      SimplifyComplex(n);
      return n;
    }
  }
  if (auto problem = ReadReal(n, text)) return fail(*problem);
  return n;
}

}  // namespace tazuna::manifest::gotemplate
