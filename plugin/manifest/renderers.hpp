#pragma once

// The per-type renderers behind Render (render.cpp). Each returns parsed documents (not yet
// filtered or ordered) and errors without the `manifest "NAME": ` prefix, which Render adds.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/oras_pull.hpp"
#include "manifest/render.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

using Documents = std::vector<nlohmann::json>;

/// type manifests: `path` is a file, a directory (recursive; .yaml/.yml/.json sorted by path) or a glob.
/// `sources`, when given, receives the file each returned object came from.
util::Result<Documents> RenderManifestFiles(const std::string& path, RenderContext& ctx,
                                            std::vector<std::string>* sources = nullptr);

/// type kustomize: `kustomize build PATH`, or `kubectl kustomize PATH` when kustomize is not on PATH.
util::Result<Documents> RenderKustomize(const std::string& path, RenderContext& ctx);

/// type helmfile: `helmfile template`, or `helm template` per release of the supported subset.
util::Result<Documents> RenderHelmfile(const std::string& path, const HelmfileOptions& options,
                                       const TazunaFile& file, RenderContext& ctx);

/// type genesissecret: v1 Secrets built from a GenesisSecret file and its provider.
util::Result<Documents> RenderGenesisSecret(const std::string& path, const TazunaFile& file, RenderContext& ctx);

/// type oras: `oras pull` into the cache, then the delegate renderer on the pulled directory.
util::Result<Documents> RenderOras(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx);
/// The artifact of an oras manifest, pulled (PullArtifact) once oras.target is checked.
util::Result<PulledArtifact> PullOras(const Manifest& manifest, RenderContext& ctx);

/// Resolves helmfile vars (env, static, op) to a JSON object of values.
util::Result<nlohmann::json> ResolveHelmfileVars(const std::map<std::string, HelmfileVar>& vars, RenderContext& ctx);

/// How fetched 1Password fields are keyed.
enum class OpFieldKey { kId, kLabel };

/// Fetches a 1Password item with `op --format json item get --vault VAULT ITEM`; returns its fields
/// keyed by `key`. kToolMissing when op is absent; kInput on failure (op's stderr in detail_lines).
util::Result<std::map<std::string, std::string>> FetchOpItem(const std::string& vault, const std::string& item,
                                                             OpFieldKey key, RenderContext& ctx);

}  // namespace tazuna::manifest
