// sigs.k8s.io/yaml.Marshal: goyaml.v2's emitter over the JSON value.
//
// util::EmitYaml writes kubectl-style YAML; the Go tool's toYaml is goyaml.v2's output byte for byte:
// keys in goyaml.v2's natural order, plain scalars folded past column 80, literal blocks for every
// multi-line string that allows one, floats in 'g' form. This follows libyaml's emitter
// (yaml_emitter_analyze_scalar, select_scalar_style and the scalar writers) for block style.
#include "util/go_yaml_marshal.hpp"

#include <algorithm>
#include <cstdint>
#include <string_view>
#include <vector>

#include "util/go_json.hpp"
#include "util/go_strconv.hpp"
#include "util/go_unicode.hpp"
#include "util/yaml_quote_rules.hpp"
#include "util/yaml_resolve.hpp"

namespace tazuna::util {
namespace {

using json = nlohmann::json;

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
    AppendRune(text, r);
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
  if (IsGoYamlTimestamp(s) || IsGoYamlBase60Float(s)) return false;
  auto resolved = ResolveYamlScalar("", s);
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
  const auto digit = [](char32_t r) { return IsGoDigit(r); };
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    if (a[i] == b[i]) continue;
    const bool al = IsGoLetter(a[i]), bl = IsGoLetter(b[i]);
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
  const std::string text = FormatGoFloat64(f);
  if (text.find_first_of(".eE") == std::string::npos) {
    if (GoParseInt(text) || GoParseUint(text)) return text;
  }
  return GoFormatFloat(f, 'g', -1);
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

}  // namespace

std::string GoYamlMarshal(const json& value) {
  const json v = FoldNelAll(value);
  YamlOut w;
  WriteYamlNode(w, v, (v.is_object() || v.is_array()) && !v.empty() ? 0 : 2, false);
  if (w.column != 0 || w.text.empty()) w.Break();
  return w.text;
}

}  // namespace tazuna::util
