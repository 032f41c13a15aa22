// What a render reads, named so that an equal digest means an equal render (see input_digest.hpp).
#include "manifest/input_digest.hpp"

#include "manifest/digest_files.hpp"

#include <set>

#include "util/strings.hpp"

namespace tazuna::manifest {

namespace {

InputDigest ManifestFiles(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  const std::string path = util::CleanJoin(file.dir, m.path);
  std::set<std::string> paths;
  if (path.find_first_of("*?[") != std::string::npos) {
    auto matches = ctx.files.Glob(path);
    if (!matches) return DigestOf("", matches.error().message);
    for (const auto& f : *matches) paths.insert(NormalPath(f));
  } else if (ctx.files.IsDirectory(path)) {
    auto all = ctx.files.ListFilesRecursive(path);
    if (!all) return DigestOf("", all.error().message);
    for (const auto& f : *all) paths.insert(NormalPath(f));
  } else {
    paths.insert(NormalPath(path));
  }
  std::string reason;
  std::string text = WithFiles(DigestHeader(m, ctx), paths, NormalPath(file.dir), ctx.files, reason);
  return DigestOf(text, reason);
}

}  // namespace

InputDigest DigestInputs(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx) {
  if (manifest.type == "manifests") return ManifestFiles(manifest, file, ctx);
  if (manifest.type == "kustomize") return DigestKustomize(manifest, file, ctx);
  if (manifest.type == "helmfile") return DigestHelmfile(manifest, file, ctx);
  if (manifest.type == "genesissecret") {
    return DigestOf("", "genesissecret reads its provider's secrets: rendered every time");
  }
  if (manifest.type == "oras") return DigestOf("", "oras pulls from a registry: rendered every time");
  return DigestOf("", "unknown type " + util::Quote(manifest.type));
}

}  // namespace tazuna::manifest
