#include "manifest/helmfile_template.hpp"

#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

util::Error TemplateError(const std::string& file, std::string_view text, size_t offset, const std::string& message) {
  int line = 1, col = 1;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    col = text[i] == '\n' ? 1 : col + 1;
    if (text[i] == '\n') ++line;
  }
  return util::MakeError(util::ErrorKind::kInput, util::StrCat(file, ":", line, ":", col, ": template: ", message));
}

// Go's fmt %v for the JSON shapes vars can take.
std::string GoPrint(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_array()) {
    std::vector<std::string> parts;
    for (const json& item : v) parts.push_back(GoPrint(item));
    return "[" + util::Join(parts, " ") + "]";
  }
  if (v.is_object()) {
    std::vector<std::string> parts;
    for (const auto& [k, item] : v.items()) parts.push_back(k + ":" + GoPrint(item));
    return "map[" + util::Join(parts, " ") + "]";
  }
  if (v.is_null()) return "<nil>";
  return v.dump();
}

// Evaluates one action body (trim markers removed); nullopt when unsupported or unset, with `why`.
std::optional<std::string> Evaluate(std::string_view body, const json& values, const std::string& env_name,
                                    std::string& why) {
  const std::string expr(util::Trim(body));
  if (expr == ".Environment.Name") return env_name;
  std::string rest;
  if (util::StartsWith(expr, ".Values.")) rest = expr.substr(8);
  if (util::StartsWith(expr, ".StateValues.")) rest = expr.substr(13);
  if (rest.empty() || rest.find_first_of(" |()\"") != std::string::npos) {
    why = util::StrCat("unsupported action ", util::Quote("{{ " + expr + " }}"),
                       " (supported: .Values.NAME, .StateValues.NAME, .Environment.Name)");
    return std::nullopt;
  }
  const json* cur = &values;
  for (const std::string& key : util::Split(rest, '.')) {
    if (!cur->is_object() || !cur->contains(key)) {
      why = util::StrCat(expr, " is not set (declare it in the manifest's helmfile.vars)");
      return std::nullopt;
    }
    cur = &(*cur)[key];
  }
  return GoPrint(*cur);
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

}  // namespace

util::Result<std::string> RenderHelmfileTemplate(std::string_view text, const json& values,
                                                 const std::string& environment_name, const std::string& file) {
  std::string out;
  size_t i = 0;
  while (i < text.size()) {
    const size_t open = text.find("{{", i);
    if (open == std::string_view::npos) {
      out.append(text.substr(i));
      break;
    }
    out.append(text.substr(i, open - i));
    const size_t close = text.find("}}", open + 2);
    if (close == std::string_view::npos) return TemplateError(file, text, open, "unclosed action \"{{\"");
    std::string_view body = text.substr(open + 2, close - open - 2);
    const bool trim_left = util::StartsWith(body, "- "), trim_right = util::EndsWith(body, " -");
    if (trim_left) body.remove_prefix(1);
    if (trim_right) body.remove_suffix(1);
    std::string why;
    const std::optional<std::string> value = Evaluate(body, values, environment_name, why);
    if (!value) return TemplateError(file, text, open, why);
    if (trim_left) {
      while (!out.empty() && IsSpace(out.back())) out.pop_back();
    }
    out += *value;
    i = close + 2;
    while (trim_right && i < text.size() && IsSpace(text[i])) ++i;
  }
  return out;
}

}  // namespace tazuna::manifest
