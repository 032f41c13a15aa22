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
  std::string covered = {};  ///< what the digest covers, for -v 2: renderers, options and files, without hashes or values
  bool cacheable() const { return !digest.empty(); }
};

/// The digest of everything Render(manifest, file, ctx) can read, such that an equal digest means an equal
/// render, or none (`reason`) unless every input is accounted for: an allowlist, never a list of dangers. It
/// covers this plugin's version (RenderContext::plugin_version), the manifest's entry as loaded (after includes
/// and -e), what the renderer binary is (ToolStamp: its content) and every file the render can read, by
/// content, with paths resolved as the renderers resolve them (RealPath: lexically, then symlinks):
///  - manifests: the files its path (a file, a directory, a glob) names;
///  - kustomize (DigestKustomize): every kustomization and configuration file read field by field against the
///    fields kustomize knows; the files and directories they name, followed to the end;
///  - helmfile (DigestHelmfile): the subset of helmfile this project reads itself, local charts whose
///    templates call only pure functions (ImpureRenderReason), pinned remote charts.
///  - oras: the artifact's manifest digest (a tag resolved on each run) and the delegate's digest over the
///    unpacked tree (PullArtifact; a content-addressed directory standing for the repository).
/// genesissecret (a provider's secrets) is always rendered.
InputDigest DigestInputs(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx);

}  // namespace tazuna::manifest
