// What a render reads, named so that an equal digest means an equal render (see input_digest.hpp).
#include "manifest/input_digest.hpp"

#include "manifest/digest_files.hpp"
#include "manifest/renderers.hpp"

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

// An artifact is its manifest's digest (a tag resolved on each run, or by its last resolution offline): the
// delegate's own digest over the unpacked tree, the tree standing for the repository, plus the artifact.
InputDigest DigestOras(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  util::Result<PulledArtifact> pulled = PullOras(m, ctx);
  if (!pulled) return DigestOf("", "oras: the artifact was not pulled (its render says why)");
  Manifest delegate = m;
  delegate.type = m.oras.delegate_type.empty() ? "kustomize" : m.oras.delegate_type;
  delegate.path = m.oras.target.empty() ? "." : m.oras.target;
  delegate.kustomize = m.oras.kustomize;
  delegate.helmfile = m.oras.helmfile;
  TazunaFile tree = file;
  tree.dir = pulled->tree;
  const InputDigest inner =
      delegate.type == "helmfile" ? DigestHelmfile(delegate, tree, ctx) : DigestKustomize(delegate, tree, ctx);
  if (!inner.cacheable()) return DigestOf("", "oras: " + inner.reason);
  const std::string text = util::StrCat(DigestHeader(m, ctx), "oras.reference ", m.oras.reference, "\noras.target ",
                                        m.oras.target, "\noras.plainHTTP ", m.oras.plain_http, "\noras.insecureSkipVerify ",
                                        m.oras.insecure_skip_verify, "\nartifact ", pulled->digest, "\ndelegate ",
                                        inner.digest, "\n");
  InputDigest out = DigestOf(text, "");
  out.private_inputs = inner.private_inputs;
  out.covered = util::StrCat(out.covered, "; the delegate's: ", inner.covered);
  return out;
}

}  // namespace

InputDigest DigestInputs(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx) {
  if (manifest.type == "manifests") return ManifestFiles(manifest, file, ctx);
  if (manifest.type == "kustomize") return DigestKustomize(manifest, file, ctx);
  if (manifest.type == "helmfile") return DigestHelmfile(manifest, file, ctx);
  if (manifest.type == "genesissecret") {
    return DigestOf("", "genesissecret reads its provider's secrets: rendered every time");
  }
  if (manifest.type == "oras") return DigestOras(manifest, file, ctx);
  return DigestOf("", "unknown type " + util::Quote(manifest.type));
}

}  // namespace tazuna::manifest
