#pragma once

#include <string>

#include "manifest/model.hpp"
#include "manifest/render.hpp"

namespace tazuna::manifest {

/// What a manifest's render depends on, as one digest, or why that cannot be proven.
struct InputDigest {
  std::string digest;  ///< 64 hex digits; empty when the render's inputs cannot all be named
  std::string reason;  ///< why not (for -v 2), when `digest` is empty
  /// Values of the environment (variables a template reads, vars from the environment) went into the digest:
  /// it keys the user's own render cache but is not recorded in the cluster, where a reader of the state could
  /// test guesses of a value against it.
  bool private_inputs = false;
  bool cacheable() const { return !digest.empty(); }
};

/// The digest of everything Render(manifest, file, ctx) can read, such that an equal digest means an equal
/// render: this plugin's version (RenderContext::plugin_version), the manifest's entry as loaded (after
/// includes and -e), the renderer (the kustomize or kubectl binary it would run: path, size, modification
/// time) and every file it can read, by content:
///  - manifests: the files its path (a file, a directory, a glob) names;
///  - kustomize: every file under the kustomization's directory and under each local directory or file a
///    kustomization (or a generator, transformer or validator file it names) refers to, followed to the end.
/// Not provable, so always rendered (`reason` says why): a kustomize remote resource not pinned to a
/// commit (`?ref=` of 40 hex digits), kustomize helmCharts (fetched charts), a path that leaves the
/// repository (the git work tree of tazuna.yaml, else its directory), and the types that read more than
/// files: helmfile (charts, repositories, environment), genesissecret (a provider's secrets), oras (a
/// registry).
InputDigest DigestInputs(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx);

}  // namespace tazuna::manifest
