#include "manifest/helmfile_template.hpp"

#include "manifest/template.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

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


}  // namespace

util::Result<std::string> RenderHelmfileTemplate(std::string_view text, const json& values,
                                                 const std::string& environment_name, const std::string& file) {
  return ExpandActions(text, file, [&](std::string_view expr) -> util::Result<std::string> {
    std::string why;
    std::optional<std::string> value = Evaluate(expr, values, environment_name, why);
    if (!value) return util::MakeError(util::ErrorKind::kInput, why);
    return std::move(*value);
  });
}

}  // namespace tazuna::manifest
