#include "manifest/sprig/json.hpp"

#include <cmath>

#include "util/go_json.hpp"
#include "util/go_yaml_marshal.hpp"
#include "util/yaml_json.hpp"

namespace tazuna::manifest::sprig {
namespace {

using json = nlohmann::json;

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

}  // namespace

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

// The Go tool's toYaml: sigs.k8s.io/yaml.Marshal without the final newline, "" on error.
std::string ToYaml(const GoValue& v) {
  auto j = ToJsonValue(v);
  if (!j) return "";
  // sigs.k8s.io/yaml reads the JSON text back with goyaml.v2, which refuses the control characters
  // encoding/json writes as they are (DEL, C1 controls).
  if (!util::ValidateYamlText(util::GoJsonMarshal(*j), util::YamlOptions{})) return "";
  std::string out = util::GoYamlMarshal(*j);
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

}  // namespace tazuna::manifest::sprig
