// sprig v3 for helmfile templates, as the Go tazuna calls it (see sprig_functions.hpp). Each function
// follows its Go definition; tests/compat/helmfile_template_run.sh compares the results with Go's.
//
// Go passes maps by reference: set, unset, merge and mergeOverwrite change the map they are given, and
// a template sees the change through every variable holding it. GoValue containers are shared and
// const, so those functions (only they) write through the shared map, as Go does.
#include "manifest/sprig_functions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <sodium.h>

#include "util/base64.hpp"
#include "util/go_fmt.hpp"
#include "util/go_json.hpp"
#include "util/go_strconv.hpp"
#include "util/go_unicode.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"
#include "util/yaml_quote_rules.hpp"
#include "util/yaml_resolve.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest {
namespace {

using gotemplate::ArgType;
using util::GoKind;
using util::GoMap;
using util::GoSlice;
using util::GoValue;
using util::Result;
using Args = std::vector<GoValue>;
using json = nlohmann::json;

util::Error Fail(std::string message) { return util::MakeError(util::ErrorKind::kInput, std::move(message)); }

GoValue Str(std::string s) { return GoValue::String(std::move(s)); }

// sprig's strval: a string as it is, anything else as %v.
std::string StrVal(const GoValue& v) { return v.kind == GoKind::kString ? v.s : util::GoSprint({v}); }

// sprig's empty: nil, false, 0, "" and empty containers; a struct never is.
bool Empty(const GoValue& v) {
  bool ok = true;
  return !gotemplate::IsTrue(v, &ok);
}

// ---- arguments as Go's call converts them ----

// An `int` parameter: only an int is assignable (a float64 or a string is refused).
Result<int64_t> IntArg(const GoValue& v) {
  if (v.kind == GoKind::kInt) return v.i;
  return Fail("wrong type for value; expected int; got " + (v.kind == GoKind::kNil ? std::string("interface {}") : v.TypeName()));
}

// A `map[string]interface{}` parameter (ArgType::kValue): a map, or a nil map for an untyped nil
// (returned as no value); a nil interface or any other type is refused.
Result<GoValue> MapArg(const GoValue& v) {
  if (v.kind == GoKind::kMap || v.kind == GoKind::kInvalid) return v;
  return Fail("wrong type for value; expected map[string]interface {}; got " +
              (v.kind == GoKind::kNil ? std::string("interface {}") : v.TypeName()));
}

const GoMap& MapOf(const GoValue& v) {
  static const GoMap kEmpty;
  return v.kind == GoKind::kMap ? *v.map : kEmpty;
}

// A map that Go would change in place.
GoMap& MutableMap(const GoValue& v) { return const_cast<GoMap&>(*v.map); }

// The value a function returning a map hands back: a nil map prints as map[] too.
GoValue MapResult(const GoValue& v) { return v.kind == GoKind::kMap ? v : GoValue::Map({}); }

// reflect.TypeOf(v).Kind() must be a slice: nil panics, anything else is refused.
Result<const GoSlice*> SliceArg(const GoValue& v, const std::string& what) {
  if (v.kind == GoKind::kSlice) return v.slice.get();
  if (v.kind == GoKind::kNil || v.kind == GoKind::kInvalid) {
    return Fail("runtime error: invalid memory address or nil pointer dereference");
  }
  return Fail("Cannot " + what + " on type " + (v.kind == GoKind::kMap ? std::string("map") : v.TypeName()));
}

// ---- spf13/cast ----

int64_t FloatToInt64(double f) {
  if (std::isnan(f) || f >= 9223372036854775808.0 || f < -9223372036854775808.0) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(f);
}

// cast's trimZeroDecimal: "12.00" -> "12".
std::string TrimZeroDecimal(const std::string& s) {
  bool found_zero = false;
  for (size_t i = s.size(); i > 0; --i) {
    if (s[i - 1] == '.') {
      if (found_zero) return s.substr(0, i - 1);
    } else if (s[i - 1] == '0') {
      found_zero = true;
    } else {
      return s;
    }
  }
  return s;
}

int64_t ToInt64(const GoValue& v) {
  switch (v.kind) {
    case GoKind::kInt: return v.i;
    case GoKind::kUint8: return static_cast<int64_t>(v.u);
    case GoKind::kFloat64: return FloatToInt64(v.re);
    case GoKind::kBool: return v.b ? 1 : 0;
    case GoKind::kString: return util::GoParseInt(TrimZeroDecimal(v.s)).value_or(0);
    default: return 0;
  }
}

double ToFloat64(const GoValue& v) {
  switch (v.kind) {
    case GoKind::kInt: return static_cast<double>(v.i);
    case GoKind::kUint8: return static_cast<double>(v.u);
    case GoKind::kFloat64: return v.re;
    case GoKind::kBool: return v.b ? 1 : 0;
    case GoKind::kString: return util::GoParseFloat(v.s).value_or(0);
    default: return 0;
  }
}

// ---- reflect.DeepEqual ----

bool DeepEqual(const GoValue& a, const GoValue& b) {
  const auto nil = [](const GoValue& v) { return v.kind == GoKind::kNil || v.kind == GoKind::kInvalid; };
  if (nil(a) || nil(b)) return nil(a) && nil(b);
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case GoKind::kBool: return a.b == b.b;
    case GoKind::kInt: return a.i == b.i;
    case GoKind::kUint8: return a.u == b.u;
    case GoKind::kFloat64: return a.re == b.re;
    case GoKind::kComplex128: return a.re == b.re && a.im == b.im;
    case GoKind::kString: return a.s == b.s;
    case GoKind::kMap:
      if (a.map->size() != b.map->size()) return false;
      for (const auto& [k, v] : *a.map) {
        const auto it = b.map->find(k);
        if (it == b.map->end() || !DeepEqual(v, it->second)) return false;
      }
      return true;
    case GoKind::kSlice:
      if (a.slice->size() != b.slice->size()) return false;
      for (size_t i = 0; i < a.slice->size(); ++i) {
        if (!DeepEqual((*a.slice)[i], (*b.slice)[i])) return false;
      }
      return true;
    case GoKind::kStruct: return a.st == b.st || util::GoSprintf("%#v", {a}) == util::GoSprintf("%#v", {b});
    default: return false;
  }
}

bool InList(const GoSlice& haystack, const GoValue& needle) {
  return std::any_of(haystack.begin(), haystack.end(), [&](const GoValue& h) { return DeepEqual(needle, h); });
}

// ---- JSON and YAML ----

// The JSON value encoding/json marshals `v` as; nullopt for what it refuses (complex, NaN, infinities).
std::optional<json> ToJsonValue(const GoValue& v) {
  switch (v.kind) {
    case GoKind::kInvalid:
    case GoKind::kNil: return json(nullptr);
    case GoKind::kBool: return json(v.b);
    case GoKind::kInt: return json(v.i);
    case GoKind::kUint8: return json(v.u);
    case GoKind::kFloat64:
      if (!std::isfinite(v.re)) return std::nullopt;
      return json(v.re);
    case GoKind::kString: return json(v.s);
    case GoKind::kMap: {
      json out = json::object();
      for (const auto& [k, item] : *v.map) {
        auto j = ToJsonValue(item);
        if (!j) return std::nullopt;
        out[k] = std::move(*j);
      }
      return out;
    }
    case GoKind::kSlice: {
      json out = json::array();
      for (const GoValue& item : *v.slice) {
        auto j = ToJsonValue(item);
        if (!j) return std::nullopt;
        out.push_back(std::move(*j));
      }
      return out;
    }
    case GoKind::kStruct: {
      json out = json::object();
      for (const auto& [k, item] : v.st->fields) {
        auto j = ToJsonValue(item);
        if (!j) return std::nullopt;
        out[k] = std::move(*j);
      }
      return out;
    }
    case GoKind::kComplex128: break;
  }
  return std::nullopt;
}

// A JSON value as json.Unmarshal into interface{} gives it: every number a float64.
GoValue FromJsonValue(const json& v) {
  if (v.is_object()) {
    GoMap m;
    for (const auto& [key, item] : v.items()) m[key] = FromJsonValue(item);
    return GoValue::Map(std::move(m));
  }
  if (v.is_array()) {
    GoSlice s;
    for (const auto& item : v) s.push_back(FromJsonValue(item));
    return GoValue::Slice(std::move(s));
  }
  if (v.is_string()) return Str(v.get<std::string>());
  if (v.is_boolean()) return GoValue::Bool(v.get<bool>());
  if (v.is_number()) return GoValue::Float(v.get<double>());
  return GoValue::Nil();
}

// json.Indent(dst, compact, "", "  ") over compact JSON text.
std::string IndentJson(const std::string& compact) {
  std::string out;
  int depth = 0;
  bool in_string = false;
  const auto newline = [&] { out += '\n' + std::string(2 * static_cast<size_t>(depth), ' '); };
  for (size_t i = 0; i < compact.size(); ++i) {
    const char c = compact[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < compact.size()) {
        out += compact[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        out += c;
        break;
      case '{':
      case '[':
        out += c;
        if (i + 1 < compact.size() && (compact[i + 1] == '}' || compact[i + 1] == ']')) {
          out += compact[++i];
        } else {
          ++depth;
          newline();
        }
        break;
      case '}':
      case ']':
        --depth;
        newline();
        out += c;
        break;
      case ',':
        out += c;
        newline();
        break;
      case ':':
        out += ": ";
        break;
      default: out += c;
    }
  }
  return out;
}

// An Encoder with SetEscapeHTML(false): <, > and & as they are.
std::string UnescapeHtml(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size()) {
      const std::string_view esc = std::string_view(text).substr(i, 6);
      if (esc == "\\u003c" || esc == "\\u003e" || esc == "\\u0026") {
        out += esc == "\\u003c" ? '<' : esc == "\\u003e" ? '>' : '&';
        i += 5;
        continue;
      }
      out += text[i];
      out += text[++i];
      continue;
    }
    out += text[i];
  }
  return out;
}

std::optional<std::string> MarshalJson(const GoValue& v) {
  auto j = ToJsonValue(v);
  if (!j) return std::nullopt;
  return util::GoJsonMarshal(*j);
}

std::string GoYamlMarshal(const json& v);

// The Go tool's toYaml: sigs.k8s.io/yaml.Marshal without the final newline, "" on error.
std::string ToYaml(const GoValue& v) {
  auto j = ToJsonValue(v);
  if (!j) return "";
  // sigs.k8s.io/yaml reads the JSON text back with goyaml.v2, which refuses the control characters
  // encoding/json writes as they are (DEL, C1 controls).
  if (!util::ValidateYamlText(util::GoJsonMarshal(*j), util::YamlOptions{})) return "";
  std::string out = GoYamlMarshal(*j);
  if (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

// The Go tool's fromYaml: a map, or a map holding Error.
GoValue FromYaml(const std::string& text) {
  util::YamlOptions options;
  options.source_name = "yaml";
  auto docs = util::ParseYamlStream(text, options);
  if (!docs) return GoValue::Map({{"Error", Str("error converting YAML to JSON: " + docs.error().message)}});
  const json doc = docs->empty() ? json(nullptr) : docs->front();
  if (doc.is_null()) return GoValue::Map({});
  if (!doc.is_object()) {
    return GoValue::Map({{"Error", Str("error unmarshaling JSON: while decoding JSON: json: cannot unmarshal " +
                                       std::string(doc.is_array() ? "array" : doc.is_string() ? "string" : doc.is_boolean() ? "bool" : "number") +
                                       " into Go value of type map[string]interface {}")}});
  }
  return FromJsonValue(doc);
}

std::optional<json> ParseJson(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

// ---- strings ----

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

std::vector<char32_t> Runes(std::string_view s) {
  std::vector<char32_t> out;
  while (!s.empty()) {
    const util::DecodedRune d = util::DecodeRune(s);
    out.push_back(d.rune);
    s.remove_prefix(d.width);
  }
  return out;
}

// strings.Trim(s, cutset).
std::string TrimCutset(const std::string& s, const std::string& cutset) {
  if (s.empty() || cutset.empty()) return s;
  const std::vector<char32_t> set = Runes(cutset);
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
  for (const char32_t r : Runes(s)) {
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

// sprig's strslice: the elements (nil left out) as strval, or [strval(v)].
std::vector<std::string> StrSlice(const GoValue& v) {
  std::vector<std::string> out;
  if (v.kind == GoKind::kSlice) {
    for (const GoValue& item : *v.slice) {
      if (item.kind != GoKind::kNil && item.kind != GoKind::kInvalid) out.push_back(StrVal(item));
    }
    return out;
  }
  if (v.kind == GoKind::kNil || v.kind == GoKind::kInvalid) return out;
  out.push_back(StrVal(v));
  return out;
}

GoValue StringSlice(const std::vector<std::string>& items) {
  GoSlice out;
  for (const std::string& s : items) out.push_back(Str(s));
  return GoValue::Slice(std::move(out));
}

GoValue StringMap(const std::vector<std::string>& parts) {
  GoMap out;
  for (size_t i = 0; i < parts.size(); ++i) out["_" + std::to_string(i)] = Str(parts[i]);
  return GoValue::Map(std::move(out));
}

// ---- sigs.k8s.io/yaml.Marshal: goyaml.v2's emitter over the JSON value ----
//
// util::EmitYaml writes kubectl-style YAML; the Go tool's toYaml is goyaml.v2's output byte for byte:
// keys in goyaml.v2's natural order, plain scalars folded past column 80, literal blocks for every
// multi-line string that allows one, floats in 'g' form. This follows libyaml's emitter
// (yaml_emitter_analyze_scalar, select_scalar_style and the scalar writers) for block style.

constexpr int kBestWidth = 80;

bool YamlIsBreak(char32_t r) { return r == '\n' || r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029; }
bool YamlIsBlankZ(char32_t r) { return r == ' ' || r == '\t' || r == 0 || YamlIsBreak(r); }
// libyaml's is_printable (unicode output on).
bool YamlIsPrintable(char32_t r) {
  return r == '\n' || (r >= 0x20 && r <= 0x7E) || (r >= 0xA0 && r <= 0xD7FF) || (r >= 0xE000 && r <= 0xFFFD && r != 0xFEFF);
}

struct ScalarAnalysis {
  bool multiline = false, block_plain = true, single_quoted = true, block = true;
};

ScalarAnalysis AnalyzeScalar(const std::vector<char32_t>& v) {
  ScalarAnalysis a;
  if (v.empty()) {
    a.block = false;
    return a;
  }
  bool block_indicators = false, special = false, line_breaks = false;
  bool leading_space = false, leading_break = false, trailing_space = false, trailing_break = false;
  bool break_space = false, space_break = false, previous_space = false, previous_break = false;
  if (v.size() >= 3 && ((v[0] == '-' && v[1] == '-' && v[2] == '-') || (v[0] == '.' && v[1] == '.' && v[2] == '.'))) {
    block_indicators = true;
  }
  bool preceded_by_ws = true;
  for (size_t i = 0; i < v.size(); ++i) {
    const char32_t c = v[i];
    const bool followed_by_ws = i + 1 >= v.size() || YamlIsBlankZ(v[i + 1]);
    if (i == 0) {
      switch (c) {
        case '#': case ',': case '[': case ']': case '{': case '}': case '&': case '*': case '!': case '|':
        case '>': case '\'': case '"': case '%': case '@': case '`': block_indicators = true; break;
        case '?': case ':': case '-':
          if (followed_by_ws) block_indicators = true;
          break;
        default: break;
      }
    } else if ((c == ':' && followed_by_ws) || (c == '#' && preceded_by_ws)) {
      block_indicators = true;
    }
    if (!YamlIsPrintable(c)) special = true;
    if (c == ' ') {
      if (i == 0) leading_space = true;
      if (i + 1 == v.size()) trailing_space = true;
      if (previous_break) break_space = true;
      previous_space = true;
      previous_break = false;
    } else if (YamlIsBreak(c)) {
      line_breaks = true;
      if (i == 0) leading_break = true;
      if (i + 1 == v.size()) trailing_break = true;
      if (previous_space) space_break = true;
      previous_break = true;
      previous_space = false;
    } else {
      previous_space = previous_break = false;
    }
    preceded_by_ws = YamlIsBlankZ(c);
  }
  a.multiline = line_breaks;
  if (leading_space || leading_break || trailing_space || trailing_break) a.block_plain = false;
  if (trailing_space) a.block = false;
  if (break_space) a.block_plain = a.single_quoted = false;
  if (space_break || special) a.block_plain = a.single_quoted = a.block = false;
  if (line_breaks || block_indicators) a.block_plain = false;
  return a;
}

// What the emitter has written, with libyaml's column (in runes).
struct YamlOut {
  std::string text;
  int column = 0;
  void Put(char32_t r) {
    util::AppendRune(text, r);
    ++column;
  }
  void Put(std::string_view s) {
    for (const char c : s) {
      text += c;
      if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++column;
    }
  }
  void Break() {
    text += '\n';
    column = 0;
  }
  void Pad(int indent) {
    while (column < indent) Put(U' ');
  }
};

// yaml.v2's stringv decision: a plain scalar that a reader would type as something else is quoted.
bool CanUsePlain(const std::string& s) {
  if (util::IsGoYamlTimestamp(s) || util::IsGoYamlBase60Float(s)) return false;
  auto resolved = util::ResolveYamlScalar("", s);
  return resolved && resolved->is_string() && resolved->get_ref<const std::string&>() == s;
}

void WriteDoubleQuoted(YamlOut& w, const std::vector<char32_t>& v, int indent, bool allow_breaks) {
  static constexpr char kHexUpper[] = "0123456789ABCDEF";
  w.Put(U'"');
  bool spaces = false;
  for (size_t i = 0; i < v.size(); ++i) {
    const char32_t c = v[i];
    if (!YamlIsPrintable(c) || c == 0xFEFF || YamlIsBreak(c) || c == '"' || c == '\\') {
      w.Put(U'\\');
      switch (c) {
        case 0x00: w.Put(U'0'); break;
        case 0x07: w.Put(U'a'); break;
        case 0x08: w.Put(U'b'); break;
        case 0x09: w.Put(U't'); break;
        case 0x0A: w.Put(U'n'); break;
        case 0x0B: w.Put(U'v'); break;
        case 0x0C: w.Put(U'f'); break;
        case 0x0D: w.Put(U'r'); break;
        case 0x1B: w.Put(U'e'); break;
        case 0x22: w.Put(U'"'); break;
        case 0x5C: w.Put(U'\\'); break;
        case 0x85: w.Put(U'N'); break;
        case 0xA0: w.Put(U'_'); break;
        case 0x2028: w.Put(U'L'); break;
        case 0x2029: w.Put(U'P'); break;
        default: {
          const int digits = c <= 0xFF ? 2 : c <= 0xFFFF ? 4 : 8;
          w.Put(digits == 2 ? U'x' : digits == 4 ? U'u' : U'U');
          for (int k = digits - 1; k >= 0; --k) w.Put(static_cast<char32_t>(kHexUpper[(c >> (4 * k)) & 15]));
        }
      }
      spaces = false;
    } else if (c == ' ') {
      if (allow_breaks && !spaces && w.column > kBestWidth && i != 0 && i + 1 != v.size()) {
        w.Break();
        w.Pad(indent);
        if (i + 1 < v.size() && v[i + 1] == ' ') w.Put(U'\\');
      } else {
        w.Put(c);
      }
      spaces = true;
    } else {
      w.Put(c);
      spaces = false;
    }
  }
  w.Put(U'"');
}

// Plain and single-quoted scalars (neither holds a line break here): folded at a single space past column 80.
void WriteFolding(YamlOut& w, const std::vector<char32_t>& v, int indent, bool allow_breaks, bool quoted) {
  if (quoted) w.Put(U'\'');
  bool spaces = false;
  for (size_t i = 0; i < v.size(); ++i) {
    const char32_t c = v[i];
    if (c == ' ') {
      const bool inner = !quoted || (i != 0 && i + 1 != v.size());
      if (allow_breaks && !spaces && w.column > kBestWidth && inner && !(i + 1 < v.size() && v[i + 1] == ' ')) {
        w.Break();
        w.Pad(indent);
      } else {
        w.Put(c);
      }
      spaces = true;
    } else {
      if (quoted && c == '\'') w.Put(U'\'');
      w.Put(c);
      spaces = false;
    }
  }
  if (quoted) w.Put(U'\'');
}

void WriteLiteral(YamlOut& w, const std::vector<char32_t>& v, int indent) {
  w.Put(U'|');
  if (v.front() == ' ' || YamlIsBreak(v.front())) w.Put(U'2');
  if (!YamlIsBreak(v.back())) {
    w.Put(U'-');
  } else if (v.size() == 1 || YamlIsBreak(v[v.size() - 2])) {
    w.Put(U'+');
  }
  w.Break();
  bool breaks = true;
  for (const char32_t c : v) {
    if (YamlIsBreak(c)) {
      if (c == '\n') {
        w.Break();
      } else {
        w.Put(c);
        w.column = 0;
      }
      breaks = true;
    } else {
      if (breaks) w.Pad(indent);
      breaks = false;
      w.Put(c);
    }
  }
}

// One string scalar; `indent` is where folded lines continue, `simple_key` a mapping key.
void WriteYamlString(YamlOut& w, const std::string& s, int indent, bool simple_key) {
  const std::vector<char32_t> v = Runes(s);
  const ScalarAnalysis a = AnalyzeScalar(v);
  enum class Style { kPlain, kSingle, kDouble, kLiteral } style;
  if (s.find('\n') != std::string::npos) {
    style = Style::kLiteral;
  } else if (CanUsePlain(s)) {
    style = Style::kPlain;
  } else {
    style = Style::kDouble;
  }
  if (style == Style::kPlain) {
    if (!a.block_plain || (v.empty() && simple_key)) style = Style::kSingle;
  }
  if (style == Style::kSingle && !a.single_quoted) style = Style::kDouble;
  if (style == Style::kLiteral && (!a.block || simple_key)) style = Style::kDouble;
  switch (style) {
    case Style::kPlain: WriteFolding(w, v, indent, !simple_key, false); break;
    case Style::kSingle: WriteFolding(w, v, indent, !simple_key, true); break;
    case Style::kDouble: WriteDoubleQuoted(w, v, indent, !simple_key); break;
    case Style::kLiteral: WriteLiteral(w, v, indent); break;
  }
}

// goyaml.v2's keyList.Less: runs of digits compared as numbers, letters after other runes.
bool GoYamlKeyLess(const std::string& a_text, const std::string& b_text) {
  const std::vector<char32_t> a = Runes(a_text), b = Runes(b_text);
  const auto digit = [](char32_t r) { return util::IsGoDigit(r); };
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    const bool al = util::IsGoLetter(a[i]), bl = util::IsGoLetter(b[i]);
    if (al && bl) return a[i] < b[i];
    if (al || bl) return bl;
    int64_t an = 0, bn = 0;
    if (a[i] == '0' || b[i] == '0') {
      for (size_t j = i; j-- > 0 && digit(a[j]);) {
        if (a[j] != '0') {
          an = bn = 1;
          break;
        }
      }
    }
    size_t ai = i, bi = i;
    for (; ai < a.size() && digit(a[ai]); ++ai) an = an * 10 + static_cast<int64_t>(a[ai] - '0');
    for (; bi < b.size() && digit(b[bi]); ++bi) bn = bn * 10 + static_cast<int64_t>(b[bi] - '0');
    if (an != bn) return an < bn;
    if (ai != bi) return ai < bi;
    return a[i] < b[i];
  }
  return a.size() < b.size();
}

// A JSON number as goyaml.v2 reads it back and writes it: integers as they are, floats in 'g' form.
std::string YamlNumber(const json& n) {
  if (n.is_number_integer()) return n.dump();
  const double f = n.get<double>();
  const std::string text = util::FormatGoFloat64(f);
  if (text.find_first_of(".eE") == std::string::npos) {
    if (util::GoParseInt(text) || util::GoParseUint(text)) return text;
  }
  return util::GoFormatFloat(f, 'g', -1);
}

void WriteYamlNode(YamlOut& w, const json& v, int indent, bool in_sequence);

// A value after "key:" or "-": a scalar or an empty container on the same line, else the block.
void WriteYamlChild(YamlOut& w, const json& v, int collection_indent, bool after_key) {
  if (v.is_object() && !v.empty()) {
    if (after_key) {
      WriteYamlNode(w, v, collection_indent + 2, false);
    } else {
      w.Put(U' ');
      WriteYamlNode(w, v, collection_indent + 2, true);
    }
    return;
  }
  if (v.is_array() && !v.empty()) {
    if (after_key) {
      WriteYamlNode(w, v, collection_indent, false);
    } else {
      w.Put(U' ');
      WriteYamlNode(w, v, collection_indent + 2, true);
    }
    return;
  }
  w.Put(U' ');
  WriteYamlNode(w, v, collection_indent + 2, true);
}

// `indent`: a collection's own indent, or where a scalar's folded lines continue. `inline_start`: the
// first line is already begun ("- " written).
void WriteYamlNode(YamlOut& w, const json& v, int indent, bool inline_start) {
  if (v.is_object() && !v.empty()) {
    std::vector<std::string> keys;
    for (const auto& [k, item] : v.items()) keys.push_back(k);
    std::stable_sort(keys.begin(), keys.end(), GoYamlKeyLess);
    bool first = true;
    for (const std::string& k : keys) {
      if (!(first && inline_start)) {
        if (!w.text.empty() && w.column != 0) w.Break();
        w.Pad(indent);
      }
      first = false;
      // libyaml's check_simple_key: a key over 128 bytes or on several lines is written "? key\n: value".
      if (k.size() > 128 || AnalyzeScalar(Runes(k)).multiline) {
        w.Put("? ");
        WriteYamlString(w, k, indent + 2, false);
        w.Break();
        w.Pad(indent);
        w.Put(U':');
        WriteYamlChild(w, v.at(k), indent, false);
        continue;
      }
      WriteYamlString(w, k, indent + 2, true);
      w.Put(U':');
      WriteYamlChild(w, v.at(k), indent, true);
    }
    return;
  }
  if (v.is_array() && !v.empty()) {
    bool first = true;
    for (const json& item : v) {
      if (!(first && inline_start)) {
        if (!w.text.empty() && w.column != 0) w.Break();
        w.Pad(indent);
      }
      first = false;
      w.Put(U'-');
      WriteYamlChild(w, item, indent, false);
    }
    return;
  }
  if (v.is_object()) return w.Put("{}");
  if (v.is_array()) return w.Put("[]");
  if (v.is_null()) return w.Put("null");
  if (v.is_boolean()) return w.Put(v.get<bool>() ? "true" : "false");
  if (v.is_number()) return w.Put(YamlNumber(v));
  WriteYamlString(w, v.get_ref<const std::string&>(), indent, false);
}

// goyaml.v2 reads a raw U+0085 (which encoding/json leaves as it is) in a double-quoted scalar as a line
// break and folds it: the spaces around the breaks go, one break becomes a space, n breaks n-1 newlines.
std::string FoldNel(const std::string& s) {
  if (s.find("\xC2\x85") == std::string::npos) return s;
  std::string out;
  for (size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "\xC2\x85") != 0) {
      out += s[i++];
      continue;
    }
    while (!out.empty() && out.back() == ' ') out.pop_back();
    size_t breaks = 0;
    while (i < s.size()) {
      if (s[i] == ' ') {
        ++i;
      } else if (s.compare(i, 2, "\xC2\x85") == 0) {
        ++breaks;
        i += 2;
      } else {
        break;
      }
    }
    out += breaks == 1 ? std::string(" ") : std::string(breaks - 1, '\n');
  }
  return out;
}

json FoldNelAll(const json& v) {
  if (v.is_string()) return FoldNel(v.get_ref<const std::string&>());
  if (v.is_array()) {
    json out = json::array();
    for (const json& item : v) out.push_back(FoldNelAll(item));
    return out;
  }
  if (v.is_object()) {
    json out = json::object();
    for (const auto& [k, item] : v.items()) out[FoldNel(k)] = FoldNelAll(item);
    return out;
  }
  return v;
}

std::string GoYamlMarshal(const json& value) {
  const json v = FoldNelAll(value);
  YamlOut w;
  WriteYamlNode(w, v, (v.is_object() || v.is_array()) && !v.empty() ? 0 : 2, false);
  if (w.column != 0 || w.text.empty()) w.Break();
  return w.text;
}

// ---- paths (Go's path package) ----

std::string CleanPath(const std::string& path) {
  if (path.empty()) return ".";
  const bool rooted = path[0] == '/';
  const size_t n = path.size();
  std::string out;
  size_t r = 0, dotdot = 0;
  if (rooted) {
    out = "/";
    r = dotdot = 1;
  }
  while (r < n) {
    if (path[r] == '/') {
      ++r;
    } else if (path[r] == '.' && (r + 1 == n || path[r + 1] == '/')) {
      ++r;
    } else if (path[r] == '.' && path[r + 1] == '.' && (r + 2 == n || path[r + 2] == '/')) {
      r += 2;
      if (out.size() > dotdot) {
        size_t w = out.size() - 1;
        while (w > dotdot && out[w] != '/') --w;
        out.resize(w);
      } else if (!rooted) {
        if (!out.empty()) out += '/';
        out += "..";
        dotdot = out.size();
      }
    } else {
      if ((rooted && out.size() != 1) || (!rooted && !out.empty())) out += '/';
      for (; r < n && path[r] != '/'; ++r) out += path[r];
    }
  }
  return out.empty() ? "." : out;
}

std::string BasePath(const std::string& text) {
  std::string path = text;
  if (path.empty()) return ".";
  while (!path.empty() && path.back() == '/') path.pop_back();
  const size_t slash = path.rfind('/');
  if (slash != std::string::npos) path = path.substr(slash + 1);
  return path.empty() ? "/" : path;
}

std::string DirPath(const std::string& path) {
  const size_t slash = path.rfind('/');
  return CleanPath(slash == std::string::npos ? "" : path.substr(0, slash + 1));
}

std::string ExtPath(const std::string& path) {
  for (size_t i = path.size(); i > 0 && path[i - 1] != '/'; --i) {
    if (path[i - 1] == '.') return path.substr(i - 1);
  }
  return "";
}

// ---- hashes and encodings ----

std::string Hex(const unsigned char* data, size_t n) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < n; ++i) {
    out += kDigits[data[i] >> 4];
    out += kDigits[data[i] & 15];
  }
  return out;
}

uint32_t Rotl(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

// SHA-1 (FIPS 180-4), as crypto/sha1.Sum.
std::string Sha1Hex(const std::string& data) {
  uint32_t h[5] = {0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0};
  std::string msg = data;
  msg += '\x80';
  while (msg.size() % 64 != 56) msg += '\0';
  const uint64_t bits = static_cast<uint64_t>(data.size()) * 8;
  for (int i = 7; i >= 0; --i) msg += static_cast<char>((bits >> (8 * i)) & 0xFF);
  for (size_t block = 0; block < msg.size(); block += 64) {
    uint32_t w[80];
    for (int i = 0; i < 16; ++i) {
      w[i] = 0;
      for (int j = 0; j < 4; ++j) w[i] = (w[i] << 8) | static_cast<unsigned char>(msg[block + 4 * i + j]);
    }
    for (int i = 16; i < 80; ++i) w[i] = Rotl(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1);
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4];
    for (int i = 0; i < 80; ++i) {
      uint32_t f, k;
      if (i < 20) {
        f = (b & c) | (~b & d), k = 0x5A827999;
      } else if (i < 40) {
        f = b ^ c ^ d, k = 0x6ED9EBA1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d), k = 0x8F1BBCDC;
      } else {
        f = b ^ c ^ d, k = 0xCA62C1D6;
      }
      const uint32_t t = Rotl(a, 5) + f + e + k + w[i];
      e = d, d = c, c = Rotl(b, 30), b = a, a = t;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e;
  }
  unsigned char out[20];
  for (int i = 0; i < 5; ++i) {
    for (int j = 0; j < 4; ++j) out[4 * i + j] = static_cast<unsigned char>(h[i] >> (24 - 8 * j));
  }
  return Hex(out, sizeof out);
}

std::string Sha512Hex(const std::string& data) {
  unsigned char out[crypto_hash_sha512_BYTES];
  crypto_hash_sha512(out, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  return Hex(out, sizeof out);
}

uint32_t Adler32(const std::string& data) {
  uint32_t a = 1, b = 0;
  for (const char c : data) {
    a = (a + static_cast<unsigned char>(c)) % 65521;
    b = (b + a) % 65521;
  }
  return (b << 16) | a;
}

constexpr char kBase32[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

std::string Base32Encode(const std::string& data) {
  std::string out;
  for (size_t i = 0; i < data.size(); i += 5) {
    uint64_t chunk = 0;
    const size_t n = std::min<size_t>(5, data.size() - i);
    for (size_t j = 0; j < 5; ++j) chunk = (chunk << 8) | (j < n ? static_cast<unsigned char>(data[i + j]) : 0);
    const size_t chars = (n * 8 + 4) / 5;
    for (size_t j = 0; j < 8; ++j) out += j < chars ? kBase32[(chunk >> (35 - 5 * j)) & 31] : '=';
  }
  return out;
}

// base32.StdEncoding.DecodeString; nullopt (Go's "illegal base32 data at input byte N") on bad input.
std::optional<std::string> Base32Decode(const std::string& text) {
  std::string s;
  for (const char c : text) {
    if (c != '\r' && c != '\n') s += c;
  }
  if (s.size() % 8 != 0) return std::nullopt;
  std::string out;
  for (size_t i = 0; i < s.size(); i += 8) {
    uint64_t chunk = 0;
    size_t chars = 8;
    for (size_t j = 0; j < 8; ++j) {
      const char c = s[i + j];
      uint64_t v = 0;
      if (c == '=') {
        if (i + 8 != s.size()) return std::nullopt;
        if (chars == 8) chars = j;
        if (j < 2) return std::nullopt;
      } else {
        if (chars != 8) return std::nullopt;
        const char* p = std::strchr(kBase32, c);
        if (c == '\0' || p == nullptr) return std::nullopt;
        v = static_cast<uint64_t>(p - kBase32);
      }
      chunk = (chunk << 5) | v;
    }
    if (chars != 8 && chars != 2 && chars != 4 && chars != 5 && chars != 7) return std::nullopt;
    const size_t bytes = chars * 5 / 8;
    for (size_t j = 0; j < bytes; ++j) out += static_cast<char>((chunk >> (32 - 8 * j)) & 0xFF);
  }
  return out;
}

// ---- mergo ----

// mergo.Merge (overwrite false) and MergeWithOverwrite of src into dst, both maps; dst and the maps
// nested in it change in place. mergo's isEmptyValue on an element is sprig's empty.
void DeepMerge(GoMap& dst, const GoMap& src, bool overwrite) {
  for (const auto& [key, s] : src) {
    const auto it = dst.find(key);
    const bool has = it != dst.end();
    if (s.kind == GoKind::kNil) {
      if (overwrite) dst[key] = s;
      continue;
    }
    const GoValue d = has ? it->second : GoValue{};
    if (s.kind == GoKind::kMap && d.kind == GoKind::kMap) DeepMerge(MutableMap(d), *s.map, overwrite);
    if (has && !Empty(d)) {
      if (s.kind == GoKind::kSlice) {
        dst[key] = overwrite ? s : d;
        continue;
      }
      if (s.kind == GoKind::kMap && d.kind == GoKind::kMap) continue;
    }
    if (overwrite || !has || Empty(d)) dst[key] = s;
  }
}

Result<GoValue> Merge(Args& a, bool overwrite) {
  GoValue dst = a[0].kind == GoKind::kMap ? a[0] : GoValue::Map({});
  for (size_t i = 1; i < a.size(); ++i) {
    if (a[i].kind == GoKind::kMap) DeepMerge(MutableMap(dst), *a[i].map, overwrite);
  }
  return dst;
}

GoValue DeepCopy(const GoValue& v) {
  if (v.kind == GoKind::kMap) {
    GoMap m;
    for (const auto& [k, item] : *v.map) m[k] = DeepCopy(item);
    return GoValue::Map(std::move(m));
  }
  if (v.kind == GoKind::kSlice) {
    GoSlice s;
    for (const GoValue& item : *v.slice) s.push_back(DeepCopy(item));
    return GoValue::Slice(std::move(s));
  }
  return v;
}

// ---- numbers ----

GoSlice UntilStep(int64_t start, int64_t stop, int64_t step) {
  GoSlice out;
  if (stop < start) {
    if (step >= 0) return out;
    for (int64_t i = start; i > stop; i += step) out.push_back(GoValue::Int(i));
    return out;
  }
  if (step <= 0) return out;
  for (int64_t i = start; i < stop; i += step) out.push_back(GoValue::Int(i));
  return out;
}

std::string JoinInts(const GoSlice& ints) {
  std::vector<std::string> parts;
  for (const GoValue& v : ints) parts.push_back(std::to_string(v.i));
  return util::Join(parts, " ");
}

// ---- the map ----

using Body = std::function<Result<GoValue>(Args&)>;

gotemplate::Signature Sig(std::vector<ArgType> fixed, std::optional<ArgType> variadic = std::nullopt) {
  return gotemplate::Signature{std::move(fixed), variadic};
}

constexpr ArgType kAny = ArgType::kAny;
constexpr ArgType kStr = ArgType::kString;
constexpr ArgType kVal = ArgType::kValue;

// A func(string) string.
Body StringFn(std::string (*f)(const std::string&)) {
  return [f](Args& a) -> Result<GoValue> { return Str(f(a[0].s)); };
}

void AddStrings(gotemplate::FunctionMap& m) {
  m["hello"] = {Sig({}), [](Args&) -> Result<GoValue> { return Str("Hello!"); }};
  m["trim"] = {Sig({kStr}), StringFn([](const std::string& s) { return TrimSpace(s); })};
  m["upper"] = {Sig({kStr}), StringFn([](const std::string& s) { return MapRunes(s, AsciiUpper); })};
  m["lower"] = {Sig({kStr}), StringFn([](const std::string& s) { return MapRunes(s, AsciiLower); })};
  m["title"] = {Sig({kStr}), StringFn(Title)};
  m["untitle"] = {Sig({kStr}), StringFn(Untitle)};
  m["nospace"] = {Sig({kStr}), StringFn(DeleteWhiteSpace)};
  m["abbrev"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto width = IntArg(a[0]);
                   if (!width) return width.error();
                   if (*width < 4) return a[1];
                   return Str(AbbreviateFull(a[1].s, 0, *width).value_or(""));
                 }};
  m["abbrevboth"] = {Sig({kAny, kAny, kStr}), [](Args& a) -> Result<GoValue> {
                       auto left = IntArg(a[0]);
                       if (!left) return left.error();
                       auto right = IntArg(a[1]);
                       if (!right) return right.error();
                       if (*right < 4 || (*left > 0 && *right < 7)) return a[2];
                       return Str(AbbreviateFull(a[2].s, *left, *right).value_or(""));
                     }};
  m["trunc"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                  auto c = IntArg(a[0]);
                  if (!c) return c.error();
                  const auto len = static_cast<int64_t>(a[1].s.size());
                  if (*c < 0 && len + *c > 0) return Str(a[1].s.substr(static_cast<size_t>(len + *c)));
                  if (*c >= 0 && len > *c) return Str(a[1].s.substr(0, static_cast<size_t>(*c)));
                  return a[1];
                }};
  m["substr"] = {Sig({kAny, kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto start = IntArg(a[0]);
                   if (!start) return start.error();
                   auto end = IntArg(a[1]);
                   if (!end) return end.error();
                   const std::string& s = a[2].s;
                   const auto len = static_cast<int64_t>(s.size());
                   const auto bounds = [&](int64_t lo, int64_t hi) -> Result<GoValue> {
                     if (lo < 0 || hi > len || lo > hi) {
                       return Fail("runtime error: slice bounds out of range [" + std::to_string(lo) + ":" + std::to_string(hi) + "]");
                     }
                     return Str(s.substr(static_cast<size_t>(lo), static_cast<size_t>(hi - lo)));
                   };
                   if (*start < 0) return bounds(0, *end);
                   if (*end < 0 || *end > len) return bounds(*start, len);
                   return bounds(*start, *end);
                 }};
  m["repeat"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto count = IntArg(a[0]);
                   if (!count) return count.error();
                   auto out = Repeat(a[1].s, *count);
                   if (!out) return out.error();
                   return Str(*out);
                 }};
  const Body trim_all = [](Args& a) -> Result<GoValue> { return Str(TrimCutset(a[1].s, a[0].s)); };
  m["trimAll"] = {Sig({kStr, kStr}), trim_all};
  m["trimall"] = {Sig({kStr, kStr}), trim_all};
  m["trimSuffix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> {
                       return util::EndsWith(a[1].s, a[0].s) ? Str(a[1].s.substr(0, a[1].s.size() - a[0].s.size())) : a[1];
                     }};
  m["trimPrefix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> {
                       return util::StartsWith(a[1].s, a[0].s) ? Str(a[1].s.substr(a[0].s.size())) : a[1];
                     }};
  m["contains"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> {
                     return GoValue::Bool(a[1].s.find(a[0].s) != std::string::npos);
                   }};
  m["hasPrefix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(util::StartsWith(a[1].s, a[0].s)); }};
  m["hasSuffix"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(util::EndsWith(a[1].s, a[0].s)); }};
  const auto quoted = [](char q) {
    return [q](Args& a) -> Result<GoValue> {
      std::vector<std::string> out;
      for (const GoValue& v : a) {
        if (v.kind == GoKind::kNil) continue;
        out.push_back(q == '"' ? util::GoQuote(StrVal(v), util::QuoteMode::kUnicode) : "'" + StrVal(v) + "'");
      }
      return Str(util::Join(out, " "));
    };
  };
  m["quote"] = {Sig({}, kAny), quoted('"')};
  m["squote"] = {Sig({}, kAny), quoted('\'')};
  m["cat"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                Args kept;
                for (const GoValue& v : a) {
                  if (v.kind != GoKind::kNil) kept.push_back(v);
                }
                std::string format;
                for (size_t i = 0; i < kept.size(); ++i) format += i == 0 ? "%v" : " %v";
                return Str(util::GoSprintf(format, kept));
              }};
  m["indent"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto spaces = IntArg(a[0]);
                   if (!spaces) return spaces.error();
                   auto out = Indent(*spaces, a[1].s);
                   if (!out) return out.error();
                   return Str(*out);
                 }};
  m["nindent"] = {Sig({kAny, kStr}), [](Args& a) -> Result<GoValue> {
                    auto spaces = IntArg(a[0]);
                    if (!spaces) return spaces.error();
                    auto out = Indent(*spaces, a[1].s);
                    if (!out) return out.error();
                    return Str("\n" + *out);
                  }};
  m["replace"] = {Sig({kStr, kStr, kStr}), [](Args& a) -> Result<GoValue> { return Str(ReplaceAll(a[2].s, a[0].s, a[1].s)); }};
  m["plural"] = {Sig({kStr, kStr, kAny}), [](Args& a) -> Result<GoValue> {
                   auto count = IntArg(a[2]);
                   if (!count) return count.error();
                   return *count == 1 ? a[0] : a[1];
                 }};
  m["toString"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(StrVal(a[0])); }};
  m["toStrings"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return StringSlice(StrSlice(a[0])); }};
  m["join"] = {Sig({kStr, kAny}), [](Args& a) -> Result<GoValue> { return Str(util::Join(StrSlice(a[1]), a[0].s)); }};
  m["sortAlpha"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                      if (a[0].kind != GoKind::kSlice) return StringSlice({StrVal(a[0])});
                      std::vector<std::string> items = StrSlice(a[0]);
                      std::sort(items.begin(), items.end());
                      return StringSlice(items);
                    }};
  m["split"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return StringMap(GoSplit(a[1].s, a[0].s, -1)); }};
  m["splitList"] = {Sig({kStr, kStr}), [](Args& a) -> Result<GoValue> { return StringSlice(GoSplit(a[1].s, a[0].s, -1)); }};
  m["splitn"] = {Sig({kStr, kAny, kStr}), [](Args& a) -> Result<GoValue> {
                   auto n = IntArg(a[1]);
                   if (!n) return n.error();
                   return StringMap(GoSplit(a[2].s, a[0].s, *n));
                 }};
  m["fail"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> { return Fail(a[0].s); }};
}

void AddEncodings(gotemplate::FunctionMap& m) {
  m["b64enc"] = {Sig({kStr}), StringFn([](const std::string& s) { return util::Base64Encode(s); })};
  m["b64dec"] = {Sig({kStr}), StringFn([](const std::string& s) {
                   // Go reports the first byte outside the alphabet where it stands.
                   const size_t bad = s.find_first_not_of(
                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=\r\n");
                   if (bad != std::string::npos && s.find('=') > bad) {
                     return "illegal base64 data at input byte " + std::to_string(bad);
                   }
                   auto out = util::Base64Decode(s);
                   return out ? *out : out.error().message;
                 })};
  m["b32enc"] = {Sig({kStr}), StringFn(Base32Encode)};
  m["b32dec"] = {Sig({kStr}), StringFn([](const std::string& s) {
                   return Base32Decode(s).value_or("illegal base32 data at input byte 0");
                 })};
  m["sha1sum"] = {Sig({kStr}), StringFn(Sha1Hex)};
  m["sha256sum"] = {Sig({kStr}), StringFn([](const std::string& s) { return util::Sha256Hex(s); })};
  m["sha512sum"] = {Sig({kStr}), StringFn(Sha512Hex)};
  m["adler32sum"] = {Sig({kStr}), StringFn([](const std::string& s) { return std::to_string(Adler32(s)); })};
  for (const std::string prefix : {"", "os"}) {
    const auto name = [&](std::string base) {
      if (prefix.empty()) return base;
      base[0] = static_cast<char>(base[0] - 'a' + 'A');
      return prefix + base;
    };
    m[name("base")] = {Sig({kStr}), StringFn(BasePath)};
    m[name("dir")] = {Sig({kStr}), StringFn(DirPath)};
    m[name("clean")] = {Sig({kStr}), StringFn(CleanPath)};
    m[name("ext")] = {Sig({kStr}), StringFn(ExtPath)};
    m[name("isAbs")] = {Sig({kStr}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(util::StartsWith(a[0].s, "/")); }};
  }
  // The Go tool's four.
  m["toYaml"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(ToYaml(a[0])); }};
  m["fromYaml"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> { return FromYaml(a[0].s); }};
  m["toJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(MarshalJson(a[0]).value_or("")); }};
  m["fromJson"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> {
                     const auto j = ParseJson(a[0].s);
                     if (!j) return GoValue::Map({{"Error", Str("invalid character in JSON input")}});
                     if (j->is_null()) return GoValue::Map({});
                     if (!j->is_object()) {
                       return GoValue::Map({{"Error", Str("json: cannot unmarshal non-object into Go value of type map[string]interface {}")}});
                     }
                     return FromJsonValue(*j);
                   }};
  // sprig's.
  m["mustToJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                       auto out = MarshalJson(a[0]);
                       if (!out) return Fail("json: unsupported value");
                       return Str(*out);
                     }};
  m["toPrettyJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                         auto out = MarshalJson(a[0]);
                         return Str(out ? IndentJson(*out) : "");
                       }};
  m["mustToPrettyJson"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                             auto out = MarshalJson(a[0]);
                             if (!out) return Fail("json: unsupported value");
                             return Str(IndentJson(*out));
                           }};
  const Body raw = [](Args& a) -> Result<GoValue> {
    auto out = MarshalJson(a[0]);
    if (!out) return Fail("json: unsupported value");
    return Str(UnescapeHtml(*out));
  };
  m["toRawJson"] = {Sig({kAny}), raw};
  m["mustToRawJson"] = {Sig({kAny}), raw};
  m["mustFromJson"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> {
                         const auto j = ParseJson(a[0].s);
                         if (!j) return Fail("invalid JSON");
                         return FromJsonValue(*j);
                       }};
}

void AddNumbers(gotemplate::FunctionMap& m) {
  m["atoi"] = {Sig({kStr}), [](Args& a) -> Result<GoValue> {
                 const std::string& s = a[0].s;
                 size_t i = s.empty() || (s[0] != '+' && s[0] != '-') ? 0 : 1;
                 if (i == s.size()) return GoValue::Int(0);
                 const bool negative = i == 1 && s[0] == '-';
                 uint64_t n = 0;
                 bool overflow = false;
                 for (; i < s.size(); ++i) {
                   if (s[i] < '0' || s[i] > '9') return GoValue::Int(0);
                   if (n > (uint64_t{1} << 63) / 10) overflow = true;
                   n = n * 10 + static_cast<uint64_t>(s[i] - '0');
                   if (n > (uint64_t{1} << 63)) overflow = true;
                 }
                 if (overflow || (!negative && n == (uint64_t{1} << 63))) {
                   return GoValue::Int(negative ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max());
                 }
                 return GoValue::Int(negative ? static_cast<int64_t>(0 - n) : static_cast<int64_t>(n));
               }};
  m["int64"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Int(ToInt64(a[0])); }};
  m["int"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Int(ToInt64(a[0])); }};
  m["float64"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Float(ToFloat64(a[0])); }};
  m["add1"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Int(static_cast<int64_t>(static_cast<uint64_t>(ToInt64(a[0])) + 1)); }};
  m["add"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                uint64_t sum = 0;
                for (const GoValue& v : a) sum += static_cast<uint64_t>(ToInt64(v));
                return GoValue::Int(static_cast<int64_t>(sum));
              }};
  m["sub"] = {Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
                return GoValue::Int(static_cast<int64_t>(static_cast<uint64_t>(ToInt64(a[0])) - static_cast<uint64_t>(ToInt64(a[1]))));
              }};
  m["mul"] = {Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> {
                uint64_t product = static_cast<uint64_t>(ToInt64(a[0]));
                for (size_t i = 1; i < a.size(); ++i) product *= static_cast<uint64_t>(ToInt64(a[i]));
                return GoValue::Int(static_cast<int64_t>(product));
              }};
  const auto divide = [](bool modulo) {
    return [modulo](Args& a) -> Result<GoValue> {
      const int64_t x = ToInt64(a[0]), y = ToInt64(a[1]);
      if (y == 0) return Fail("runtime error: integer divide by zero");
      if (y == -1) return GoValue::Int(modulo ? 0 : static_cast<int64_t>(0 - static_cast<uint64_t>(x)));
      return GoValue::Int(modulo ? x % y : x / y);
    };
  };
  m["div"] = {Sig({kAny, kAny}), divide(false)};
  m["mod"] = {Sig({kAny, kAny}), divide(true)};
  const auto extreme = [](bool biggest) {
    return [biggest](Args& a) -> Result<GoValue> {
      int64_t best = ToInt64(a[0]);
      for (size_t i = 1; i < a.size(); ++i) {
        const int64_t v = ToInt64(a[i]);
        if (biggest ? v > best : v < best) best = v;
      }
      return GoValue::Int(best);
    };
  };
  m["max"] = {Sig({kAny}, kAny), extreme(true)};
  m["biggest"] = {Sig({kAny}, kAny), extreme(true)};
  m["min"] = {Sig({kAny}, kAny), extreme(false)};
  m["floor"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Float(std::floor(ToFloat64(a[0]))); }};
  m["ceil"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Float(std::ceil(ToFloat64(a[0]))); }};
  m["round"] = {Sig({kAny, kAny}, kAny), [](Args& a) -> Result<GoValue> {
                  auto places = IntArg(a[1]);
                  if (!places) return places.error();
                  double round_on = .5;
                  if (a.size() > 2) {
                    if (a[2].kind != GoKind::kFloat64) return Fail("wrong type for value; expected float64; got " + a[2].TypeName());
                    round_on = a[2].re;
                  }
                  const double pow = std::pow(10, static_cast<double>(*places));
                  const double digit = pow * ToFloat64(a[0]);
                  double whole = 0;
                  const double frac = std::modf(digit, &whole);
                  return GoValue::Float((frac >= round_on ? std::ceil(digit) : std::floor(digit)) / pow);
                }};
  m["toDecimal"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                      // strconv.ParseInt(fmt.Sprint(v), 8, 64), 0 on error.
                      const std::string text = util::GoSprint({a[0]});
                      size_t i = !text.empty() && (text[0] == '+' || text[0] == '-') ? 1 : 0;
                      if (i == text.size()) return GoValue::Int(0);
                      uint64_t n = 0;
                      for (; i < text.size(); ++i) {
                        if (text[i] < '0' || text[i] > '7' || n > (uint64_t{1} << 61)) return GoValue::Int(0);
                        n = n * 8 + static_cast<uint64_t>(text[i] - '0');
                      }
                      const bool negative = text[0] == '-';
                      if (n > (uint64_t{1} << 63) - (negative ? 0 : 1)) return GoValue::Int(0);
                      return GoValue::Int(negative ? static_cast<int64_t>(0 - n) : static_cast<int64_t>(n));
                    }};
  m["until"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> {
                  auto count = IntArg(a[0]);
                  if (!count) return count.error();
                  return GoValue::Slice(UntilStep(0, *count, *count < 0 ? -1 : 1));
                }};
  m["untilStep"] = {Sig({kAny, kAny, kAny}), [](Args& a) -> Result<GoValue> {
                      int64_t p[3];
                      for (int i = 0; i < 3; ++i) {
                        auto v = IntArg(a[static_cast<size_t>(i)]);
                        if (!v) return v.error();
                        p[i] = *v;
                      }
                      return GoValue::Slice(UntilStep(p[0], p[1], p[2]));
                    }};
  m["seq"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                std::vector<int64_t> p;
                for (const GoValue& v : a) {
                  auto i = IntArg(v);
                  if (!i) return i.error();
                  p.push_back(*i);
                }
                if (p.size() == 1) {
                  const int64_t inc = p[0] < 1 ? -1 : 1;
                  return Str(JoinInts(UntilStep(1, p[0] + inc, inc)));
                }
                if (p.size() == 2) {
                  const int64_t inc = p[1] < p[0] ? -1 : 1;
                  return Str(JoinInts(UntilStep(p[0], p[1] + inc, inc)));
                }
                if (p.size() == 3) {
                  const int64_t start = p[0], step = p[1], end = p[2];
                  if (end < start) {
                    if (step >= 0) return Str("");
                    return Str(JoinInts(UntilStep(start, end - 1, step)));
                  }
                  if (step <= 0) return Str("");
                  return Str(JoinInts(UntilStep(start, end + 1, step)));
                }
                return Str("");
              }};
}

void AddDefaults(gotemplate::FunctionMap& m) {
  m["default"] = {Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> { return a.size() < 2 || Empty(a[1]) ? a[0] : a[1]; }};
  m["empty"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(Empty(a[0])); }};
  m["coalesce"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                     for (const GoValue& v : a) {
                       if (!Empty(v)) return v;
                     }
                     return GoValue::Nil();
                   }};
  m["all"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                return GoValue::Bool(std::none_of(a.begin(), a.end(), [](const GoValue& v) { return Empty(v); }));
              }};
  m["any"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                return GoValue::Bool(std::any_of(a.begin(), a.end(), [](const GoValue& v) { return !Empty(v); }));
              }};
  m["ternary"] = {Sig({kAny, kAny, kAny}), [](Args& a) -> Result<GoValue> {
                    if (a[2].kind != GoKind::kBool) {
                      return Fail("wrong type for value; expected bool; got " + (a[2].kind == GoKind::kNil ? std::string("interface {}") : a[2].TypeName()));
                    }
                    return a[2].b ? a[0] : a[1];
                  }};
  const Body deep_copy = [](Args& a) -> Result<GoValue> {
    if (a[0].kind == GoKind::kNil) return Fail("deepCopy error: copystructure: nil value");
    return DeepCopy(a[0]);
  };
  m["deepCopy"] = {Sig({kAny}), deep_copy};
  m["mustDeepCopy"] = {Sig({kAny}), deep_copy};
  m["typeOf"] = {Sig({kAny}), [](Args& a) -> Result<GoValue> { return Str(a[0].TypeName()); }};
  m["typeIs"] = {Sig({kStr, kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(a[0].s == a[1].TypeName()); }};
  m["typeIsLike"] = {Sig({kStr, kAny}), [](Args& a) -> Result<GoValue> {
                       const std::string t = a[1].TypeName();
                       return GoValue::Bool(a[0].s == t || "*" + a[0].s == t);
                     }};
  const auto kind_of = [](const GoValue& v) -> std::string {
    switch (v.kind) {
      case GoKind::kNil:
      case GoKind::kInvalid: return "invalid";
      case GoKind::kMap: return "map";
      case GoKind::kSlice: return "slice";
      case GoKind::kStruct: return "struct";
      default: return v.TypeName();
    }
  };
  m["kindOf"] = {Sig({kAny}), [kind_of](Args& a) -> Result<GoValue> { return Str(kind_of(a[0])); }};
  m["kindIs"] = {Sig({kStr, kAny}), [kind_of](Args& a) -> Result<GoValue> { return GoValue::Bool(a[0].s == kind_of(a[1])); }};
  m["deepEqual"] = {Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> { return GoValue::Bool(DeepEqual(a[0], a[1])); }};
}

void AddDicts(gotemplate::FunctionMap& m) {
  m["dict"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                 GoMap out;
                 for (size_t i = 0; i < a.size(); i += 2) out[StrVal(a[i])] = i + 1 < a.size() ? a[i + 1] : Str("");
                 return GoValue::Map(std::move(out));
               }};
  m["get"] = {Sig({kVal, kStr}), [](Args& a) -> Result<GoValue> {
                auto d = MapArg(a[0]);
                if (!d) return d.error();
                const GoMap& map = MapOf(*d);
                const auto it = map.find(a[1].s);
                return it == map.end() ? Str("") : it->second;
              }};
  m["set"] = {Sig({kVal, kStr, kAny}), [](Args& a) -> Result<GoValue> {
                auto d = MapArg(a[0]);
                if (!d) return d.error();
                if (d->kind != GoKind::kMap) return Fail("assignment to entry in nil map");
                MutableMap(*d)[a[1].s] = a[2];
                return *d;
              }};
  m["unset"] = {Sig({kVal, kStr}), [](Args& a) -> Result<GoValue> {
                  auto d = MapArg(a[0]);
                  if (!d) return d.error();
                  if (d->kind == GoKind::kMap) MutableMap(*d).erase(a[1].s);
                  return MapResult(*d);
                }};
  m["hasKey"] = {Sig({kVal, kStr}), [](Args& a) -> Result<GoValue> {
                   auto d = MapArg(a[0]);
                   if (!d) return d.error();
                   return GoValue::Bool(MapOf(*d).count(a[1].s) > 0);
                 }};
  m["pluck"] = {Sig({kStr}, kVal), [](Args& a) -> Result<GoValue> {
                  GoSlice out;
                  for (size_t i = 1; i < a.size(); ++i) {
                    auto d = MapArg(a[i]);
                    if (!d) return d.error();
                    const auto it = MapOf(*d).find(a[0].s);
                    if (it != MapOf(*d).end()) out.push_back(it->second);
                  }
                  return GoValue::Slice(std::move(out));
                }};
  // Go lists the keys and values in its random map order; these give the sorted one.
  m["keys"] = {Sig({}, kVal), [](Args& a) -> Result<GoValue> {
                 std::vector<std::string> out;
                 for (const GoValue& v : a) {
                   auto d = MapArg(v);
                   if (!d) return d.error();
                   for (const auto& [k, item] : MapOf(*d)) out.push_back(k);
                 }
                 return StringSlice(out);
               }};
  m["values"] = {Sig({kVal}), [](Args& a) -> Result<GoValue> {
                   auto d = MapArg(a[0]);
                   if (!d) return d.error();
                   GoSlice out;
                   for (const auto& [k, item] : MapOf(*d)) out.push_back(item);
                   return GoValue::Slice(std::move(out));
                 }};
  m["pick"] = {Sig({kVal}, kStr), [](Args& a) -> Result<GoValue> {
                 auto d = MapArg(a[0]);
                 if (!d) return d.error();
                 GoMap out;
                 for (size_t i = 1; i < a.size(); ++i) {
                   const auto it = MapOf(*d).find(a[i].s);
                   if (it != MapOf(*d).end()) out[it->first] = it->second;
                 }
                 return GoValue::Map(std::move(out));
               }};
  m["omit"] = {Sig({kVal}, kStr), [](Args& a) -> Result<GoValue> {
                 auto d = MapArg(a[0]);
                 if (!d) return d.error();
                 GoMap out = MapOf(*d);
                 for (size_t i = 1; i < a.size(); ++i) out.erase(a[i].s);
                 return GoValue::Map(std::move(out));
               }};
  const auto merge = [](bool overwrite) {
    return [overwrite](Args& a) -> Result<GoValue> {
      for (const GoValue& v : a) {
        if (auto d = MapArg(v); !d) return d.error();
      }
      return Merge(a, overwrite);
    };
  };
  m["merge"] = {Sig({kVal}, kVal), merge(false)};
  m["mustMerge"] = {Sig({kVal}, kVal), merge(false)};
  m["mergeOverwrite"] = {Sig({kVal}, kVal), merge(true)};
  m["mustMergeOverwrite"] = {Sig({kVal}, kVal), merge(true)};
  m["dig"] = {Sig({}, kAny), [](Args& a) -> Result<GoValue> {
                if (a.size() < 3) return Fail("dig needs at least three arguments");
                if (a.back().kind != GoKind::kMap) return Fail("interface conversion: interface {} is " + a.back().TypeName() + ", not map[string]interface {}");
                for (size_t i = 0; i + 2 < a.size(); ++i) {
                  if (a[i].kind != GoKind::kString) return Fail("interface conversion: interface {} is " + a[i].TypeName() + ", not string");
                }
                const GoMap* map = a.back().map.get();
                for (size_t i = 0; i + 2 < a.size(); ++i) {
                  const auto it = map->find(a[i].s);
                  if (it == map->end()) return a[a.size() - 2];
                  if (i + 3 == a.size()) return it->second;
                  if (it->second.kind != GoKind::kMap) {
                    return Fail("interface conversion: interface {} is " + it->second.TypeName() + ", not map[string]interface {}");
                  }
                  map = it->second.map.get();
                }
                return a[a.size() - 2];
              }};
}

// A list function given as both its panicking and its must form (the same result or error here).
void AddListFn(gotemplate::FunctionMap& m, const std::string& name, gotemplate::Signature sig, Body body) {
  std::string must = "must" + name;
  must[4] = static_cast<char>(must[4] - 'a' + 'A');
  m[must] = {sig, body};
  m[name] = {std::move(sig), std::move(body)};
}

void AddLists(gotemplate::FunctionMap& m) {
  const Body list = [](Args& a) -> Result<GoValue> { return GoValue::Slice(a); };
  m["list"] = {Sig({}, kAny), list};
  m["tuple"] = {Sig({}, kAny), list};
  const Body push = [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "push");
    if (!l) return l.error();
    GoSlice out = **l;
    out.push_back(a[1]);
    return GoValue::Slice(std::move(out));
  };
  AddListFn(m, "append", Sig({kAny, kAny}), push);
  AddListFn(m, "push", Sig({kAny, kAny}), push);
  AddListFn(m, "prepend", Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "prepend");
    if (!l) return l.error();
    GoSlice out{a[1]};
    out.insert(out.end(), (*l)->begin(), (*l)->end());
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "first", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find first");
    if (!l) return l.error();
    return (*l)->empty() ? GoValue::Nil() : (*l)->front();
  });
  AddListFn(m, "last", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find last");
    if (!l) return l.error();
    return (*l)->empty() ? GoValue::Nil() : (*l)->back();
  });
  AddListFn(m, "rest", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find rest");
    if (!l) return l.error();
    if ((*l)->empty()) return GoValue::Slice({});
    return GoValue::Slice(GoSlice((*l)->begin() + 1, (*l)->end()));
  });
  AddListFn(m, "initial", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find initial");
    if (!l) return l.error();
    if ((*l)->empty()) return GoValue::Slice({});
    return GoValue::Slice(GoSlice((*l)->begin(), (*l)->end() - 1));
  });
  AddListFn(m, "reverse", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find reverse");
    if (!l) return l.error();
    return GoValue::Slice(GoSlice((*l)->rbegin(), (*l)->rend()));
  });
  AddListFn(m, "compact", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "compact");
    if (!l) return l.error();
    GoSlice out;
    for (const GoValue& v : **l) {
      if (!Empty(v)) out.push_back(v);
    }
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "uniq", Sig({kAny}), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find uniq");
    if (!l) return l.error();
    GoSlice out;
    for (const GoValue& v : **l) {
      if (!InList(out, v)) out.push_back(v);
    }
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "without", Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> {
    auto l = SliceArg(a[0], "find without");
    if (!l) return l.error();
    const GoSlice omit(a.begin() + 1, a.end());
    GoSlice out;
    for (const GoValue& v : **l) {
      if (!InList(omit, v)) out.push_back(v);
    }
    return GoValue::Slice(std::move(out));
  });
  AddListFn(m, "has", Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
    if (a[1].kind == GoKind::kNil) return GoValue::Bool(false);
    auto l = SliceArg(a[1], "find has");
    if (!l) return l.error();
    return GoValue::Bool(InList(**l, a[0]));
  });
  AddListFn(m, "concat", Sig({}, kAny), [](Args& a) -> Result<GoValue> {
    GoSlice out;
    for (const GoValue& v : a) {
      if (v.kind != GoKind::kSlice) {
        if (v.kind == GoKind::kNil) return Fail("runtime error: invalid memory address or nil pointer dereference");
        return Fail("Cannot concat type " + (v.kind == GoKind::kMap ? std::string("map") : v.TypeName()) + " as list");
      }
      out.insert(out.end(), v.slice->begin(), v.slice->end());
    }
    return GoValue::Slice(std::move(out));
  });
  m.erase("mustConcat");
  AddListFn(m, "slice", Sig({kAny}, kAny), [](Args& a) -> Result<GoValue> {
    if (a[0].kind != GoKind::kSlice) {
      if (a[0].kind == GoKind::kNil) return Fail("runtime error: invalid memory address or nil pointer dereference");
      return Fail("list should be type of slice or array but " + (a[0].kind == GoKind::kMap ? std::string("map") : a[0].TypeName()));
    }
    const GoSlice& l = *a[0].slice;
    if (l.empty()) return GoValue::Nil();
    const auto len = static_cast<int64_t>(l.size());
    const int64_t start = a.size() > 1 ? ToInt64(a[1]) : 0;
    const int64_t end = a.size() > 2 ? ToInt64(a[2]) : len;
    if (start < 0 || end > len || start > end) return Fail("reflect: slice index out of range");
    return GoValue::Slice(GoSlice(l.begin() + start, l.begin() + end));
  });
  AddListFn(m, "chunk", Sig({kAny, kAny}), [](Args& a) -> Result<GoValue> {
    auto size = IntArg(a[0]);
    if (!size) return size.error();
    auto l = SliceArg(a[1], "chunk");
    if (!l) return l.error();
    const auto len = static_cast<int64_t>((*l)->size());
    const double chunks = std::floor(static_cast<double>(len - 1) / static_cast<double>(*size)) + 1;
    if (!std::isfinite(chunks) || chunks < 0) return Fail("runtime error: makeslice: len out of range");
    const auto cs = static_cast<int64_t>(chunks);
    GoSlice out;
    for (int64_t i = 0; i < cs; ++i) {
      int64_t clen = *size;
      if (i == cs - 1) {
        clen = static_cast<int64_t>(std::floor(std::fmod(static_cast<double>(len), static_cast<double>(*size))));
        if (clen == 0) clen = *size;
      }
      if (clen < 0) return Fail("runtime error: makeslice: len out of range");
      GoSlice part;
      for (int64_t j = 0; j < clen; ++j) {
        const int64_t ix = i * *size + j;
        if (ix < 0 || ix >= len) return Fail("reflect: slice index out of range");
        part.push_back((**l)[static_cast<size_t>(ix)]);
      }
      out.push_back(GoValue::Slice(std::move(part)));
    }
    return GoValue::Slice(std::move(out));
  });
}

gotemplate::FunctionMap MakeSprigFunctions() {
  gotemplate::FunctionMap m;
  AddStrings(m);
  AddEncodings(m);
  AddNumbers(m);
  AddDefaults(m);
  AddDicts(m);
  AddLists(m);
  return m;
}

}  // namespace

const gotemplate::FunctionMap& SprigFunctions() {
  static const gotemplate::FunctionMap kFunctions = MakeSprigFunctions();
  return kFunctions;
}

const std::set<std::string>& SprigFunctionsLeftOut() {
  static const std::set<std::string> kLeftOut = {
      "ago", "date", "date_in_zone", "date_modify", "dateInZone", "dateModify", "htmlDate", "htmlDateInZone",
      "must_date_modify", "mustDateModify", "mustToDate", "now", "toDate", "unixEpoch", "randAlphaNum", "randAlpha",
      "randAscii", "randNumeric", "randInt", "randBytes", "shuffle", "uuidv4", "bcrypt", "htpasswd", "genPrivateKey",
      "buildCustomCert", "genCA", "genCAWithKey", "genSelfSignedCert", "genSelfSignedCertWithKey", "genSignedCert",
      "genSignedCertWithKey", "encryptAES", "getHostByName"};
  return kLeftOut;
}

}  // namespace tazuna::manifest
