#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/model.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"
#include "util/logger.hpp"
#include "util/process.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// Scope of a kind: true namespaced, false cluster-scoped, nullopt unknown. The CLI passes one backed
/// by API discovery when a cluster is reachable.
struct ScopeLookup {
  virtual ~ScopeLookup() = default;
  virtual std::optional<bool> IsNamespaced(const std::string& api_version, const std::string& kind) = 0;
};

/// Everything a renderer may touch. All external tools go through `processes` (with `tool_timeout`),
/// all reads through `files`; tools see `env` as their environment.
/// What a cluster offers a chart: `.Capabilities.KubeVersion` and `.Capabilities.APIVersions`.
struct Capabilities {
  std::string kube_version;               ///< the server's gitVersion, e.g. "v1.33.13"
  std::vector<std::string> api_versions;  ///< "apps/v1" and "apps/v1/Deployment" forms
};

struct RenderContext {
  util::ProcessRunner& processes;
  util::FileReader& files;
  const util::Environment& env;
  util::Logger& log;
  ScopeLookup* scopes = nullptr;  ///< not owned; null: built-in table plus CRDs in the same render
  std::chrono::seconds tool_timeout{300};
  std::string cache_dir;  ///< ${XDG_CACHE_HOME:-~/.cache}/kubectl-tazuna; oras pulls go under oras/
  /// false: leave defaultNamespace to the caller (RenderedManifest::default_namespace), which knows the
  /// CustomResourceDefinitions of every manifest in the run, not just this one's.
  bool apply_default_namespace = true;
  /// The cluster's capabilities for helm charts (helmfile manifests without kubeVersion); unset, or
  /// nullopt when the cluster cannot say: helm's built-in defaults.
  std::function<std::optional<Capabilities>()> capabilities = {};
  /// The Kubernetes version charts render for when neither the manifest (kubeVersion) nor the cluster
  /// (`capabilities`) gives one; empty: helm's own default (v1.20.0 in a helm built without its release
  /// flags, which charts requiring a newer Kubernetes refuse).
  std::string default_kube_version = {};
  /// This plugin's version and commit: part of every render digest (DigestInputs), as a new version may
  /// render the same files differently.
  std::string plugin_version = {};
  /// ORAS artifacts (PullArtifact): only from the cache, a tag by its last resolution (--offline); or fetched
  /// and unpacked again (--no-cache).
  bool oras_offline = false, oras_no_cache = false;
};

/// The objects of one manifest, in apply order.
struct RenderedManifest {
  std::string name;
  std::vector<nlohmann::json> objects;
  bool always_sync = false;  ///< genesissecret: re-applied on every sync
  std::string default_namespace;  ///< DefaultNamespace(manifest)
  std::vector<std::string> sources;  ///< per object: the file it came from, relative to tazuna.yaml's directory
};

/// Renders one manifest to objects: splits documents, skips empty and kind-less ones, expands
/// kind: List, checks every object has apiVersion and metadata.name (DocumentsToObjects; for type
/// manifests per file, so errors name the file, else the manifest's path), sets the manifest's
/// defaultNamespace only on namespaced kinds without a namespace (scopes, else a built-in table of
/// cluster-scoped kinds plus CRDs found in the same render), and orders Namespaces first, then CRDs,
/// then the rest in render order.
/// Errors carry `manifest "NAME": ` in front: kToolMissing when a needed tool is absent (naming it),
/// kInput for bad input or a failing tool (its stderr in detail_lines), kNotFound for missing files.
util::Result<RenderedManifest> Render(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx);

/// The defaultNamespace that applies to `manifest` (per type; oras: its delegate's).
std::string DefaultNamespace(const Manifest& manifest);

/// `${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-tazuna` from an environment snapshot.
std::string DefaultCacheDir(const util::Environment& env);

}  // namespace tazuna::manifest
