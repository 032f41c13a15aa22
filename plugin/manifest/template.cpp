#include "manifest/template.hpp"

#include <set>

#include "manifest/gotemplate/exec.hpp"
#include "manifest/gotemplate/parse.hpp"

namespace tazuna::manifest {

util::Result<std::string> RenderTazunaTemplate(std::string_view text, const std::string& file,
                                               const std::string& environment) {
  const gotemplate::Source source{text, file};
  std::set<std::string> functions;
  for (const auto& [name, f] : gotemplate::Builtins()) functions.insert(name);
  auto trees = gotemplate::Parse(source, file, functions);
  if (!trees) return trees.error();
  const util::GoValue data = util::GoValue::Struct({"tmpl.Data", {{"Environment", util::GoValue::String(environment)}}});
  gotemplate::ExecOptions options;
  options.missing_key = gotemplate::MissingKey::kError;
  return gotemplate::Execute(source, *trees, file, data, options);
}

}  // namespace tazuna::manifest
