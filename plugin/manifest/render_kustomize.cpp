// type kustomize: shells out, as the Go tool's in-process krusty run is not available to us.
#include "manifest/objects.hpp"
#include "manifest/renderers.hpp"
#include "manifest/tool.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {

util::Result<Documents> RenderKustomize(const std::string& path, RenderContext& ctx) {
  if (!ctx.files.IsDirectory(path)) {
    return util::MakeError(util::ErrorKind::kNotFound,
                           util::StrCat("kustomize: directory ", util::Quote(path), " does not exist"));
  }
  // A standalone kustomize is preferred (usually newer than the one built into kubectl).
  util::Result<std::string> out = RunTool({{"kustomize", "build", path}, "", "", {}}, ctx);
  if (!out && out.error().kind == util::ErrorKind::kToolMissing) {
    out = RunTool({{"kubectl", "kustomize", path}, "", "", {}}, ctx);
    if (!out && out.error().kind == util::ErrorKind::kToolMissing) {
      return util::MakeError(util::ErrorKind::kToolMissing,
                             "kustomize: neither \"kustomize\" nor \"kubectl\" found on PATH");
    }
  }
  if (!out) return out.error();
  return ParseDocuments(*out, util::StrCat("kustomize output of ", path));
}

}  // namespace tazuna::manifest
