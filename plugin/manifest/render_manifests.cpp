// type manifests (our addition): plain YAML/JSON files, no external tool.
#include "manifest/renderers.hpp"
#include "manifest/objects.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

bool IsManifestFile(const std::string& path) {
  return util::EndsWith(path, ".yaml") || util::EndsWith(path, ".yml") || util::EndsWith(path, ".json");
}

util::Result<std::vector<std::string>> ListInputs(const std::string& path, RenderContext& ctx) {
  if (path.find_first_of("*?[") != std::string::npos) {
    util::Result<std::vector<std::string>> matches = ctx.files.Glob(path);
    if (!matches) return matches.error();
    if (matches->empty()) {
      return util::MakeError(util::ErrorKind::kNotFound, util::StrCat("no files match ", util::Quote(path)));
    }
    return matches;
  }
  if (ctx.files.IsDirectory(path)) {
    util::Result<std::vector<std::string>> all = ctx.files.ListFilesRecursive(path);
    if (!all) return all.error();
    std::vector<std::string> out;
    for (const std::string& f : *all) {
      if (IsManifestFile(f)) out.push_back(f);
    }
    return out;
  }
  if (!ctx.files.Exists(path)) {
    return util::MakeError(util::ErrorKind::kNotFound, util::StrCat("path ", util::Quote(path), " does not exist"));
  }
  return std::vector<std::string>{path};
}

}  // namespace

util::Result<Documents> RenderManifestFiles(const std::string& path, RenderContext& ctx,
                                            std::vector<std::string>* sources) {
  util::Result<std::vector<std::string>> inputs = ListInputs(path, ctx);
  if (!inputs) return inputs.error();
  Documents out;
  for (const std::string& input : *inputs) {
    util::Result<std::string> text = ctx.files.ReadFile(input);
    if (!text) return text.error();
    util::Result<Documents> docs = ParseDocuments(*text, input);
    if (!docs) return docs.error();
    // Checked per file so an error names the file it comes from.
    util::Result<Documents> objects = DocumentsToObjects(std::move(*docs), input);
    if (!objects) return objects.error();
    for (nlohmann::json& doc : *objects) {
      out.push_back(std::move(doc));
      if (sources != nullptr) sources->push_back(input);
    }
  }
  return out;
}

}  // namespace tazuna::manifest
