// type oras: the artifact pulled and unpacked (PullArtifact), then the delegate renderer on its tree.
#include "manifest/oras_pull.hpp"
#include "manifest/renderers.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

util::Status CheckTarget(const std::string& target) {
  if (!target.empty() && target.front() == '/') {
    return util::MakeError(util::ErrorKind::kInput,
                           util::StrCat("oras.target ", util::Quote(target), " must be relative"));
  }
  for (const std::string& part : util::Split(target, '/')) {
    if (part == "..") {
      return util::MakeError(util::ErrorKind::kInput,
                             util::StrCat("oras.target ", util::Quote(target), " must stay inside the artifact"));
    }
  }
  return util::Ok();
}

}  // namespace

util::Result<PulledArtifact> PullOras(const Manifest& manifest, RenderContext& ctx) {
  if (util::Status s = CheckTarget(manifest.oras.target); !s) return s.error();
  return PullArtifact(manifest.oras, ctx);
}

util::Result<Documents> RenderOras(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx) {
  const OrasOptions& o = manifest.oras;
  util::Result<PulledArtifact> pulled = PullOras(manifest, ctx);
  if (!pulled) return pulled.error();
  if (o.delegate_type == "helmfile") return RenderHelmfile(pulled->path, o.helmfile, file, ctx);
  return RenderKustomize(pulled->path, ctx);
}

}  // namespace tazuna::manifest
