#include "util/go_json.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <string_view>

namespace tazuna::util {
namespace {

/// Shortest round-trip decimal digits of a finite non-zero value: value = 0.DIGITS x 10^dp.
struct Decimal {
  std::string digits;
  int dp = 0;
};

template <class Float>
Decimal ShortestDigits(Float value) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof(buf), std::fabs(value), std::chars_format::scientific);
  std::string_view text(buf, static_cast<size_t>(res.ptr - buf));
  Decimal dec;
  size_t e = text.find('e');
  for (char c : text.substr(0, e)) {
    if (c != '.') dec.digits.push_back(c);
  }
  int exp = 0;
  std::string_view exp_text = text.substr(e + 1);
  if (!exp_text.empty() && exp_text[0] == '+') exp_text.remove_prefix(1);
  std::from_chars(exp_text.data(), exp_text.data() + exp_text.size(), exp);
  while (dec.digits.size() > 1 && dec.digits.back() == '0') dec.digits.pop_back();
  dec.dp = exp + 1;
  return dec;
}

// strconv's fmtF with shortest precision.
void AppendFixed(std::string& out, const Decimal& dec) {
  const int nd = static_cast<int>(dec.digits.size());
  if (dec.dp > 0) {
    for (int i = 0; i < dec.dp; ++i) out.push_back(i < nd ? dec.digits[i] : '0');
  } else {
    out.push_back('0');
  }
  const int prec = nd - dec.dp;
  if (prec <= 0) return;
  out.push_back('.');
  for (int i = 1; i <= prec; ++i) {
    const int j = dec.dp + i - 1;
    out.push_back(j >= 0 && j < nd ? dec.digits[j] : '0');
  }
}

// strconv's fmtE with shortest precision: at least two exponent digits.
void AppendExponent(std::string& out, const Decimal& dec) {
  out.push_back(dec.digits[0]);
  if (dec.digits.size() > 1) {
    out.push_back('.');
    out.append(dec.digits, 1);
  }
  out.push_back('e');
  int exp = dec.dp - 1;
  out.push_back(exp < 0 ? '-' : '+');
  if (exp < 0) exp = -exp;
  if (exp < 10) out.push_back('0');
  out += std::to_string(exp);
}

constexpr char kHex[] = "0123456789abcdef";

/// Length of a valid UTF-8 sequence at `s[i]`, or 0 if invalid (as Go's utf8.DecodeRune).
size_t ValidUtf8Length(std::string_view s, size_t i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  size_t len = 0;
  uint32_t lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    len = 2;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    len = 3;
    if (b0 == 0xE0) lo = 0xA0;
    if (b0 == 0xED) hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    len = 4;
    if (b0 == 0xF0) lo = 0x90;
    if (b0 == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    const uint32_t l = k == 1 ? lo : 0x80, h = k == 1 ? hi : 0xBF;
    if (b < l || b > h) return 0;
  }
  return len;
}

void AppendUnicodeEscape(std::string& out, unsigned code) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out.push_back(kHex[(code >> shift) & 0xF]);
}

void AppendValue(std::string& out, const nlohmann::json& value);

void AppendObject(std::string& out, const nlohmann::json& value) {
  // nlohmann::json's default object_t is a std::map<std::string, ...>: already bytewise sorted.
  out.push_back('{');
  bool first = true;
  for (const auto& [key, item] : value.items()) {
    if (!first) out.push_back(',');
    first = false;
    AppendGoJsonString(out, key);
    out.push_back(':');
    AppendValue(out, item);
  }
  out.push_back('}');
}

void AppendValue(std::string& out, const nlohmann::json& value) {
  using Type = nlohmann::json::value_t;
  switch (value.type()) {
    case Type::object:
      AppendObject(out, value);
      return;
    case Type::array: {
      out.push_back('[');
      for (size_t i = 0; i < value.size(); ++i) {
        if (i > 0) out.push_back(',');
        AppendValue(out, value[i]);
      }
      out.push_back(']');
      return;
    }
    case Type::string:
      AppendGoJsonString(out, value.get_ref<const std::string&>());
      return;
    case Type::boolean:
      out += value.get<bool>() ? "true" : "false";
      return;
    case Type::number_integer:
      out += FormatGoFloat64(static_cast<double>(value.get<int64_t>()));
      return;
    case Type::number_unsigned:
      out += FormatGoFloat64(static_cast<double>(value.get<uint64_t>()));
      return;
    case Type::number_float:
      out += FormatGoFloat64(value.get<double>());
      return;
    default:  // null, discarded, binary
      out += "null";
      return;
  }
}

}  // namespace

void AppendGoJsonString(std::string& out, std::string_view text) {
  out.push_back('"');
  for (size_t i = 0; i < text.size();) {
    size_t plain = i;  // a run that needs no escaping is copied at once
    while (plain < text.size()) {
      const auto b = static_cast<unsigned char>(text[plain]);
      if (b < 0x20 || b >= 0x80 || b == '"' || b == '\\' || b == '<' || b == '>' || b == '&') break;
      ++plain;
    }
    if (plain > i) {
      out.append(text.data() + i, plain - i);
      i = plain;
      continue;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;  // Go >= 1.22 uses the short forms for \b and \f.
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '<': case '>': case '&': AppendUnicodeEscape(out, c); break;  // HTML-safe, as Go
        default:
          if (c < 0x20) {
            AppendUnicodeEscape(out, c);
          } else {
            out.push_back(static_cast<char>(c));
          }
      }
      ++i;
      continue;
    }
    const size_t len = ValidUtf8Length(text, i);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    // U+2028 and U+2029 are E2 80 A8 / E2 80 A9; Go escapes them for JSONP safety.
    if (len == 3 && c == 0xE2 && static_cast<unsigned char>(text[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(text[i + 2]) & 0xFE) == 0xA8) {
      AppendUnicodeEscape(out, 0x2028 + (static_cast<unsigned char>(text[i + 2]) - 0xA8));
    } else {
      out.append(text.substr(i, len));
    }
    i += len;
  }
  out.push_back('"');
}

std::string FormatGoFloat64(double value) {
  if (std::isnan(value) || std::isinf(value)) return "null";
  std::string out;
  if (std::signbit(value)) out.push_back('-');
  if (value == 0) {
    out.push_back('0');
    return out;
  }
  const Decimal dec = ShortestDigits(value);
  const double abs = std::fabs(value);
  if (abs < 1e-6 || abs >= 1e21) {
    AppendExponent(out, dec);
    // encoding/json trims e-07 to e-7 but keeps e+21.
    const size_t n = out.size();
    if (n >= 4 && out[n - 4] == 'e' && out[n - 3] == '-' && out[n - 2] == '0') {
      out.erase(n - 2, 1);
    }
  } else {
    AppendFixed(out, dec);
  }
  return out;
}

std::string FormatGoFloat32G(double value) {
  if (std::isnan(value)) return "NaN";
  const auto f = static_cast<float>(value);
  if (std::isinf(f)) return f > 0 ? "+Inf" : "-Inf";
  std::string out;
  if (std::signbit(f)) out.push_back('-');
  if (f == 0) {
    out.push_back('0');
    return out;
  }
  const Decimal dec = ShortestDigits(f);
  const int exp = dec.dp - 1;
  // strconv's shortest %g decides with eprec = 6 regardless of the digit count.
  if (exp < -4 || exp >= 6) {
    AppendExponent(out, dec);
  } else {
    AppendFixed(out, dec);
  }
  return out;
}

std::string GoJsonMarshal(const nlohmann::json& value) {
  std::string out;
  AppendValue(out, value);
  return out;
}

}  // namespace tazuna::util
