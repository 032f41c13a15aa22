// helmfile templates as the Go tazuna renders them (renderHelmfileTemplate there): text/template with
// missingkey=zero over a map of Values, StateValues and Environment, with sprig (sprig_functions.cpp).
#include "manifest/helmfile_template.hpp"

#include "manifest/gotemplate/exec.hpp"
#include "manifest/gotemplate/parse.hpp"
#include "manifest/sprig_functions.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

using util::GoValue;

GoValue FromJson(const nlohmann::json& v) {
  if (v.is_object()) {
    util::GoMap m;
    for (const auto& [key, item] : v.items()) m[key] = FromJson(item);
    return GoValue::Map(std::move(m));
  }
  if (v.is_array()) {
    util::GoSlice s;
    for (const auto& item : v) s.push_back(FromJson(item));
    return GoValue::Slice(std::move(s));
  }
  if (v.is_string()) return GoValue::String(v.get<std::string>());
  if (v.is_boolean()) return GoValue::Bool(v.get<bool>());
  if (v.is_number_integer()) return GoValue::Int(v.get<int64_t>());
  if (v.is_number()) return GoValue::Float(v.get<double>());
  return GoValue::Nil();
}

// The function a parse error says is not defined, or "".
std::string UndefinedFunction(const std::string& message) {
  const std::string marker = ": template: function \"";
  const size_t at = message.find(marker);
  if (at == std::string::npos || !util::EndsWith(message, "\" not defined")) return "";
  const size_t begin = at + marker.size();
  return message.substr(begin, message.size() - begin - std::string("\" not defined").size());
}

}  // namespace

util::Result<std::string> RenderHelmfileTemplate(std::string_view text, const HelmfileTemplateData& data,
                                                 const std::string& file) {
  const gotemplate::FunctionMap& functions = SprigFunctions();
  std::set<std::string> names;
  for (const auto& [name, f] : gotemplate::Builtins()) names.insert(name);
  for (const auto& [name, f] : functions) names.insert(name);
  const gotemplate::Source source{text, file};
  auto trees = gotemplate::Parse(source, file, names);
  if (!trees) {
    const std::string& message = trees.error().message;
    const std::string function = UndefinedFunction(message);
    if (function == "env" || function == "expandenv" || function == "requiredEnv") {
      util::Error e = util::MakeError(
          util::ErrorKind::kInput,
          util::StrCat(message, ": a helmfile template does not read the environment (as in the Go tazuna)"));
      e.hint = "Pass the value through helmfile.vars in tazuna.yaml (from: env) and read it as .StateValues.NAME.";
      return e;
    }
    if (!function.empty()) {
      util::Error e = util::MakeError(util::ErrorKind::kToolMissing,
                                      util::StrCat(message, " (this function needs the helmfile binary)"));
      e.hint = "Install helmfile (go install github.com/helmfile/helmfile, see scripts/lib/install-helmfile) and put it on PATH.";
      return e;
    }
    return trees.error();
  }
  const GoValue values = FromJson(data.values);
  const GoValue root = GoValue::Map({{"Environment", GoValue::Map({{"Name", GoValue::String(data.environment_name)}})},
                                     {"StateValues", values},
                                     {"Values", values}});
  gotemplate::ExecOptions options;
  options.missing_key = gotemplate::MissingKey::kZero;
  options.functions = &functions;
  return gotemplate::Execute(source, *trees, file, root, options);
}

}  // namespace tazuna::manifest
