#include "util/yaml_emit.hpp"

#include <cstdint>
#include <string_view>

#include "util/yaml_quote_rules.hpp"
#include "util/yaml_resolve.hpp"

namespace tazuna::util {
namespace {

using nlohmann::json;

constexpr char kHex[] = "0123456789abcdef";

/// True for bytes/code points a YAML reader accepts unescaped (printable set, UTF-8 assumed
/// valid); U+0085, U+2028, U+2029 and U+FEFF are treated as unprintable to keep lines intact.
bool HasUnprintable(std::string_view s, bool allow_newline) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\n' && allow_newline) continue;
    if (c < 0x20 || c == 0x7F) return true;
    if (c == 0xC2 && i + 1 < s.size() && (static_cast<unsigned char>(s[i + 1]) == 0x85 ||
                                          static_cast<unsigned char>(s[i + 1]) < 0xA0)) {
      return true;
    }
    if (s.substr(i, 3) == "\xE2\x80\xA8" || s.substr(i, 3) == "\xE2\x80\xA9" ||
        s.substr(i, 3) == "\xEF\xBB\xBF") {
      return true;
    }
  }
  return false;
}

/// A plain scalar that a YAML 1.1 reader would not type as a string equal to `s`.
bool ChangesType(std::string_view s) {
  if (s == "<<") return true;  // merge key
  // Read back as strings, but goyaml.v2 (kubectl -o yaml) still quotes them: a reader may type them.
  if (IsGoYamlTimestamp(s) || IsGoYamlBase60Float(s)) return true;
  auto resolved = ResolveYamlScalar("", s);
  return !resolved || !resolved->is_string() || resolved->get_ref<const std::string&>() != s;
}

/// Text that cannot be written plain for syntactic reasons.
bool NeedsQuotesForSyntax(std::string_view s) {
  if (s.empty() || s.front() == ' ' || s.back() == ' ' || s.back() == ':') return true;
  if (std::string_view("?:,[]{}#&*!|>'\"%@`").find(s.front()) != std::string_view::npos) return true;
  if (s.front() == '-' && (s.size() == 1 || s[1] == ' ' || s.substr(0, 3) == "---")) return true;
  if (s.substr(0, 3) == "...") return true;
  return s.find(": ") != std::string_view::npos || s.find(" #") != std::string_view::npos ||
         s.find('\t') != std::string_view::npos || s.find('\n') != std::string_view::npos ||
         s.find('\r') != std::string_view::npos;
}

void AppendDoubleQuoted(std::string& out, std::string_view s) {
  out.push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\n': out += "\\n"; continue;
      case '\t': out += "\\t"; continue;
      case '\r': out += "\\r"; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7F) {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xF]);
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      const auto low = static_cast<unsigned char>(s[++i]);  // U+0080..U+009F
      out += "\\x";
      out.push_back(kHex[low >> 4]);
      out.push_back(kHex[low & 0xF]);
    } else if (s.substr(i, 3) == "\xE2\x80\xA8" || s.substr(i, 3) == "\xE2\x80\xA9") {
      out += s[i + 2] == '\xA8' ? "\\L" : "\\P";
      i += 2;
    } else if (s.substr(i, 3) == "\xEF\xBB\xBF") {
      out += "\\ufeff";
      i += 2;
    } else {
      out.push_back(static_cast<char>(c));
    }
  }
  out.push_back('"');
}

void AppendSingleQuoted(std::string& out, std::string_view s) {
  out.push_back('\'');
  for (char c : s) {
    if (c == '\'') out.push_back('\'');
    out.push_back(c);
  }
  out.push_back('\'');
}

/// A `|` block reproduces `s` exactly: more than one line, printable, no carriage returns, the
/// first line not starting with a space and at least one non-empty line.
bool LiteralBlockIsExact(std::string_view s) {
  const size_t first_nl = s.find('\n');
  if (first_nl == std::string_view::npos || first_nl + 1 == s.size()) return false;
  if (s.front() == ' ' || s.front() == '\n' || HasUnprintable(s, true)) return false;
  return s.find_first_not_of('\n') != std::string_view::npos;
}

void AppendLiteralBlock(std::string& out, std::string_view s, int indent) {
  size_t trailing = 0;
  while (trailing < s.size() && s[s.size() - 1 - trailing] == '\n') ++trailing;
  out += trailing == 0 ? "|-" : trailing == 1 ? "|" : "|+";
  std::string_view body = s.substr(0, s.size() - trailing);
  const std::string pad(static_cast<size_t>(indent), ' ');
  while (true) {
    const size_t nl = body.find('\n');
    const std::string_view line = body.substr(0, nl);
    out.push_back('\n');
    if (!line.empty()) out += pad + std::string(line);
    if (nl == std::string_view::npos) break;
    body.remove_prefix(nl + 1);
  }
  for (size_t i = 1; i < trailing; ++i) out.push_back('\n');
}

/// Appends a scalar; `indent` is the indentation for a literal block's lines.
void AppendScalar(std::string& out, const json& value, int indent) {
  if (!value.is_string()) {
    out += value.is_null() ? "null" : value.dump();
    return;
  }
  const std::string& s = value.get_ref<const std::string&>();
  if (s.find('\n') != std::string::npos && LiteralBlockIsExact(s)) {
    AppendLiteralBlock(out, s, indent);
  } else if (HasUnprintable(s, false) || ChangesType(s)) {
    AppendDoubleQuoted(out, s);
  } else if (NeedsQuotesForSyntax(s)) {
    AppendSingleQuoted(out, s);
  } else {
    out += s;
  }
}

bool IsEmptyContainer(const json& v) { return (v.is_object() || v.is_array()) && v.empty(); }

void AppendNode(std::string& out, const json& value, int indent);

/// Appends `value` after "key:" or "- ", choosing inline or nested form.
void AppendAfterIndicator(std::string& out, const json& value, int indent, bool in_sequence) {
  if (IsEmptyContainer(value)) {
    out += value.is_object() ? " {}\n" : " []\n";
  } else if (value.is_object()) {
    if (in_sequence) {
      out.push_back(' ');
      AppendNode(out, value, -(indent + 2));  // first key on the dash line
    } else {
      out.push_back('\n');
      AppendNode(out, value, indent + 2);
    }
  } else if (value.is_array()) {
    if (in_sequence) {
      out.push_back(' ');
      AppendNode(out, value, -(indent + 2));
    } else {
      out.push_back('\n');
      AppendNode(out, value, indent);  // kubectl style: "key:\n- a"
    }
  } else {
    out.push_back(' ');
    AppendScalar(out, value, indent + 2);
    out.push_back('\n');
  }
}

/// Appends a non-empty container at `indent`; a negative indent means the first line
/// continues the current line (after "- ") and later lines use -indent.
void AppendNode(std::string& out, const json& value, int indent) {
  bool first = true;
  const int level = indent < 0 ? -indent : indent;
  auto start_line = [&] {
    if (!(first && indent < 0)) out.append(static_cast<size_t>(level), ' ');
    first = false;
  };
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) {
      start_line();
      AppendScalar(out, json(key), level + 2);
      out.push_back(':');
      AppendAfterIndicator(out, item, level, false);
    }
    return;
  }
  for (const auto& item : value) {
    start_line();
    out.push_back('-');
    AppendAfterIndicator(out, item, level, true);
  }
}

}  // namespace

std::string EmitYaml(const json& value) {
  std::string out;
  if (IsEmptyContainer(value) || !(value.is_object() || value.is_array())) {
    if (IsEmptyContainer(value)) {
      out += value.is_object() ? "{}" : "[]";
    } else {
      AppendScalar(out, value, 2);
    }
    out.push_back('\n');
    return out;
  }
  AppendNode(out, value, 0);
  return out;
}

}  // namespace tazuna::util
