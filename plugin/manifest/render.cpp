#include "manifest/render.hpp"

#include "manifest/objects.hpp"
#include "manifest/renderers.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

util::Result<Documents> RenderDocuments(const Manifest& m, const TazunaFile& file, RenderContext& ctx,
                                        std::vector<std::string>* sources) {
  const std::string path = util::CleanJoin(file.dir, m.path);
  if (m.type == "manifests") return RenderManifestFiles(path, ctx, sources);
  if (m.type == "kustomize") return RenderKustomize(path, ctx);
  if (m.type == "helmfile") return RenderHelmfile(path, m.helmfile, file, ctx);
  if (m.type == "genesissecret") return RenderGenesisSecret(path, file, ctx);
  if (m.type == "oras") return RenderOras(m, file, ctx);
  return util::MakeError(util::ErrorKind::kInput, util::StrCat("unknown type ", util::Quote(m.type)));
}

// `path` relative to the directory of tazuna.yaml, for messages (a/objs/x.yaml).
std::string RelativeTo(const std::string& dir, const std::string& path) {
  if (dir.empty() || dir == ".") return util::StartsWith(path, "./") ? path.substr(2) : path;
  return util::StartsWith(path, dir + "/") ? path.substr(dir.size() + 1) : path;
}

}  // namespace

std::string DefaultNamespace(const Manifest& m) {
  if (m.type == "kustomize") return m.kustomize.default_namespace;
  if (m.type == "helmfile") return m.helmfile.default_namespace;
  if (m.type == "manifests") return m.manifests.default_namespace;
  // The Go tool's state commands ignore the delegate's defaultNamespace while its apply uses it; we
  // use it everywhere so diff and sync agree.
  if (m.type == "oras") {
    return m.oras.delegate_type == "helmfile" ? m.oras.helmfile.default_namespace : m.oras.kustomize.default_namespace;
  }
  return "";
}

std::string DefaultCacheDir(const util::Environment& env) {
  const std::string xdg = env.GetOr("XDG_CACHE_HOME", "");
  if (!xdg.empty()) return util::JoinPath(xdg, "kubectl-tazuna");
  return util::JoinPath(util::JoinPath(env.GetOr("HOME", "."), ".cache"), "kubectl-tazuna");
}

util::Result<RenderedManifest> Render(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx) {
  const std::string context = util::StrCat("manifest ", util::Quote(manifest.name));
  ctx.log.Log(2, util::StrCat("rendering ", context, " (", manifest.type, ")"));
  std::vector<std::string> sources;
  util::Result<Documents> docs = RenderDocuments(manifest, file, ctx, &sources);
  if (!docs) return docs.error().WithContext(context);
  util::Result<Documents> objects = DocumentsToObjects(std::move(*docs), util::JoinPath(file.dir, manifest.path));
  if (!objects) return objects.error().WithContext(context);
  if (ctx.apply_default_namespace) SetDefaultNamespace(*objects, DefaultNamespace(manifest), ctx.scopes);
  if (sources.size() != objects->size()) sources.assign(objects->size(), util::JoinPath(file.dir, manifest.path));
  for (auto& s : sources) s = RelativeTo(file.dir, s);
  OrderObjects(*objects, &sources);
  RenderedManifest out;
  out.sources = std::move(sources);
  out.name = manifest.name;
  out.default_namespace = DefaultNamespace(manifest);
  out.objects = std::move(*objects);
  out.always_sync = manifest.type == "genesissecret";
  return out;
}

}  // namespace tazuna::manifest
