#include "util/yaml_resolve.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

#include "util/base64.hpp"
#include "util/strings.hpp"

namespace tazuna::util {
namespace {

using nlohmann::json;

struct Resolved {
  std::string_view tag;  ///< "!!null", "!!bool", "!!int", "!!float", "!!str", "!!timestamp"
  json value;
};

// goyaml.v2's resolveMap: exact spellings only.
std::optional<Resolved> LookupWord(std::string_view s) {
  static constexpr std::string_view kTrue[] = {"y", "Y", "yes", "Yes", "YES", "true", "True",
                                               "TRUE", "on", "On", "ON"};
  static constexpr std::string_view kFalse[] = {"n", "N", "no", "No", "NO", "false", "False",
                                                "FALSE", "off", "Off", "OFF"};
  static constexpr std::string_view kNull[] = {"", "~", "null", "Null", "NULL"};
  for (auto w : kTrue) if (s == w) return Resolved{"!!bool", true};
  for (auto w : kFalse) if (s == w) return Resolved{"!!bool", false};
  for (auto w : kNull) if (s == w) return Resolved{"!!null", nullptr};
  const double inf = std::numeric_limits<double>::infinity();
  if (s == ".nan" || s == ".NaN" || s == ".NAN") return Resolved{"!!float", std::nan("")};
  if (s == ".inf" || s == ".Inf" || s == ".INF" || s == "+.inf" || s == "+.Inf" || s == "+.INF") {
    return Resolved{"!!float", inf};
  }
  if (s == "-.inf" || s == "-.Inf" || s == "-.INF") return Resolved{"!!float", -inf};
  if (s == "<<") return Resolved{"!!merge", "<<"};
  return std::nullopt;
}

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

int DigitValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
  return 99;
}

/// Go's strconv.ParseUint(s, 0, 64) on a string without underscores: prefixes 0x 0o 0b and
/// leading-0 octal; no sign. nullopt on syntax or range errors.
std::optional<uint64_t> GoParseUint(std::string_view s, int base) {
  if (s.empty()) return std::nullopt;
  if (base == 0) {
    base = 10;
    if (s[0] == '0' && s.size() >= 3 && (s[1] == 'x' || s[1] == 'X')) {
      base = 16, s.remove_prefix(2);
    } else if (s[0] == '0' && s.size() >= 3 && (s[1] == 'o' || s[1] == 'O')) {
      base = 8, s.remove_prefix(2);
    } else if (s[0] == '0' && s.size() >= 3 && (s[1] == 'b' || s[1] == 'B')) {
      base = 2, s.remove_prefix(2);
    } else if (s[0] == '0') {
      base = 8, s.remove_prefix(1);
      if (s.empty()) return 0;
    }
  }
  uint64_t v = 0;
  for (char c : s) {
    const int d = DigitValue(c);
    if (d >= base) return std::nullopt;
    if (v > (std::numeric_limits<uint64_t>::max() - static_cast<uint64_t>(d)) / static_cast<uint64_t>(base)) {
      return std::nullopt;
    }
    v = v * static_cast<uint64_t>(base) + static_cast<uint64_t>(d);
  }
  return v;
}

/// Go's strconv.ParseInt(s, base, 64): optional sign, then ParseUint rules, int64 range.
std::optional<int64_t> GoParseInt(std::string_view s, int base) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  auto u = GoParseUint(s, base);
  if (!u) return std::nullopt;
  constexpr uint64_t kCutoff = uint64_t{1} << 63;
  if (!neg && *u >= kCutoff) return std::nullopt;
  if (neg && *u > kCutoff) return std::nullopt;
  return neg ? static_cast<int64_t>(0 - *u) : static_cast<int64_t>(*u);
}

/// goyaml.v2's yamlStyleFloat: ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$
bool IsYamlStyleFloat(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    const size_t start = i;
    while (i < s.size() && IsDigit(s[i])) ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

/// Parses a decimal float matching IsYamlStyleFloat as Go's ParseFloat: correctly rounded,
/// underflow gives (signed) zero, overflow fails.
std::optional<double> ParseDecimalFloat(std::string_view s) {
  const bool neg = !s.empty() && s[0] == '-';
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  double v = 0;
  auto res = std::from_chars(s.data(), s.data() + s.size(), v, std::chars_format::general);
  if (res.ec == std::errc::result_out_of_range) {
    // Decide overflow vs underflow from the decimal magnitude of the first non-zero digit.
    const size_t e = s.find_first_of("eE");
    const std::string_view mant = s.substr(0, e);
    long exp = 0;
    if (e != std::string_view::npos) {
      std::string_view et = s.substr(e + 1);
      if (!et.empty() && et[0] == '+') et.remove_prefix(1);
      std::from_chars(et.data(), et.data() + et.size(), exp);  // huge exponents saturate below
      if (et.size() > 9) exp = (et[0] == '-') ? -1000000000L : 1000000000L;
    }
    const size_t dot = std::min(mant.find('.'), mant.size());
    const size_t first = mant.find_first_of("123456789");
    const long mag = static_cast<long>(dot) - static_cast<long>(first) + (first > dot ? 1 : 0) + exp;
    if (mag > 0) return std::nullopt;
    v = 0;
  } else if (res.ec != std::errc() || res.ptr != s.data() + s.size()) {
    return std::nullopt;
  }
  return neg ? -v : v;
}

/// Go's ParseFloat on text starting with '.': underscores allowed only between digits.
std::optional<double> ParseDotFloat(std::string_view s) {
  std::string plain;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '_') {
      plain.push_back(s[i]);
      continue;
    }
    if (i == 0 || i + 1 == s.size() || !IsDigit(s[i - 1]) || !IsDigit(s[i + 1])) return std::nullopt;
  }
  if (!IsYamlStyleFloat(plain)) return std::nullopt;
  return ParseDecimalFloat(plain);
}

/// The 'D'/'S' branch of resolve(): timestamp, int, uint, float, then 0b forms.
std::optional<Resolved> ResolveNumber(std::string_view tag, std::string_view in) {
  if (tag.empty() || tag == "!!timestamp") {
    // Timestamps (YYYY-...) decode to their original text for interface{} targets. Only the
    // four-digit year and dash are checked: such text can never be a number anyway.
    if (in.size() > 4 && IsDigit(in[0]) && IsDigit(in[1]) && IsDigit(in[2]) && IsDigit(in[3]) &&
        in[4] == '-') {
      return Resolved{"!!timestamp", std::string(in)};
    }
  }
  std::string plain;
  for (char c : in) {
    if (c != '_') plain.push_back(c);
  }
  if (auto i = GoParseInt(plain, 0)) return Resolved{"!!int", json(*i)};
  if (auto u = GoParseUint(plain, 0)) return Resolved{"!!int", json(*u)};
  if (IsYamlStyleFloat(plain)) {
    if (auto f = ParseDecimalFloat(plain)) return Resolved{"!!float", *f};
  }
  return std::nullopt;
}

Resolved ResolvePlain(std::string_view tag, std::string_view in) {
  const char hint = in.empty() ? 'N' : in[0];
  const bool may_resolve = (hint == 'N' || hint == '+' || hint == '-' || IsDigit(hint) ||
                            std::string_view("yYnNtTfFoO~.").find(hint) != std::string_view::npos);
  if (!may_resolve || tag == "!!str" || tag == "!!binary") return {"!!str", std::string(in)};
  if (auto item = LookupWord(in)) return *item;
  if (hint == '.') {
    if (auto f = ParseDotFloat(in)) return {"!!float", *f};
  } else if (hint == '+' || hint == '-' || IsDigit(hint)) {
    if (auto r = ResolveNumber(tag, in)) return *r;
  }
  return {"!!str", std::string(in)};
}

/// Replaces each byte that does not start a valid UTF-8 sequence with U+FFFD, as Go's
/// encoding/json does on Marshal.
std::string ToValidUtf8(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const auto b0 = static_cast<unsigned char>(text[i]);
    size_t len = b0 < 0x80 ? 1 : b0 >= 0xC2 && b0 <= 0xDF ? 2 : b0 >= 0xE0 && b0 <= 0xEF ? 3
                                : b0 >= 0xF0 && b0 <= 0xF4 ? 4 : 0;
    const unsigned char lo = b0 == 0xE0 ? 0xA0 : b0 == 0xF0 ? 0x90 : 0x80;
    const unsigned char hi = b0 == 0xED ? 0x9F : b0 == 0xF4 ? 0x8F : 0xBF;
    if (i + len > text.size()) len = 0;
    for (size_t k = 1; k < len; ++k) {
      const auto b = static_cast<unsigned char>(text[i + k]);
      if (b < (k == 1 ? lo : 0x80) || b > (k == 1 ? hi : 0xBF)) len = 0;
    }
    if (len == 0) {
      out += "\xEF\xBF\xBD";
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

bool IsResolvableTag(std::string_view tag) {
  return tag.empty() || tag == "!!str" || tag == "!!bool" || tag == "!!int" || tag == "!!float" ||
         tag == "!!null" || tag == "!!timestamp";
}

}  // namespace

Result<json> ResolveYamlScalar(std::string_view tag, std::string_view text) {
  if (tag == "!!binary") {
    auto decoded = Base64Decode(text);
    if (!decoded) return MakeError(ErrorKind::kInput, "!!binary value contains invalid base64 data");
    // sigs.k8s.io/yaml marshals the bytes to JSON (each invalid UTF-8 byte -> U+FFFD) and
    // decodes that again, so the value is the replaced text.
    return json(ToValidUtf8(*decoded));
  }
  if (!IsResolvableTag(tag)) return json(std::string(text));
  Resolved r = ResolvePlain(tag, text);
  if (tag.empty() || tag == r.tag || tag == "!!str") {
    return std::move(r.value);
  }
  // An explicit !!float accepts an integer and converts it, as goyaml.v2 does.
  // (Only for int64-sized values: the uint64 case is not converted there and fails.)
  if (tag == "!!float" && r.tag == "!!int" && !r.value.is_number_unsigned()) {
    return json(static_cast<double>(r.value.get<int64_t>()));
  }
  return MakeError(ErrorKind::kInput,
                   StrCat("cannot decode ", r.tag, " `", Printable(text), "` as a ", tag));
}

}  // namespace tazuna::util
