#pragma once

// The two ways a helmfile manifest renders (render_helmfile.cpp): the real `helmfile template`, or the
// subset of helmfile.yaml this project renders itself with `helm template` (helmfile_subset.cpp).

#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/renderers.hpp"

namespace tazuna::manifest {

/// One helmfile manifest being rendered.
struct HelmfileRun {
  std::string file;  ///< the helmfile (a file, found in the manifest's path)
  std::string dir;   ///< its directory
  const HelmfileOptions& options;
  const TazunaFile& tazuna;
  nlohmann::json vars = nlohmann::json::object();  ///< resolved helmfile.vars, tazuna.hint.yaml applied
  std::vector<std::string> extra_values;           ///< helmfile.extraValueFiles, as paths (PrepareHelmfile)
};

/// The run of a manifest's helmfile: the file (FindHelmfile), its vars resolved (ResolveHelmfileVars) and
/// checked against the tazuna.hint.yaml beside it (ParseHint, CheckVarKinds, ApplyHint), and its
/// extraValueFiles read from the helmfile's directory, as the Go tool reads them. A file found only
/// relative to tazuna.yaml's directory (where the previous version of this tool read it) is still read,
/// with a warning when `warn` is set.
util::Result<HelmfileRun> PrepareHelmfile(const std::string& path, const HelmfileOptions& options,
                                          const TazunaFile& file, RenderContext& ctx, bool warn);

/// The helmfile a manifest's `path` names: the file itself, or in a directory helmfile.yaml.gotmpl,
/// helmfile.yaml, helmfile.yml.gotmpl or helmfile.yml (the first found); kNotFound otherwise.
util::Result<std::string> FindHelmfile(const std::string& path, RenderContext& ctx);

/// helm's --namespace for a release: its own, else helmfile.defaultNamespace, else "default".
std::string ReleaseNamespace(const std::string& release_namespace, const HelmfileOptions& options);

/// Sets `ns` (when not empty) on the namespaced objects of `docs` that name none, as `helm install
/// --namespace` places them; Lists are expanded and kind-less documents dropped (DocumentsToObjects).
util::Result<Documents> TargetNamespace(Documents docs, const std::string& ns, const std::string& source,
                                        RenderContext& ctx);

/// The helmfile's YAML documents as the Go tazuna reads them: the file rendered as a template first when it
/// holds `{{` (RenderHelmfileTemplate, whatever its name), then parsed. kToolMissing for a template only
/// helmfile renders (helper templates, helmfile's own functions).
util::Result<std::vector<nlohmann::json>> HelmfileDocuments(const HelmfileRun& run, RenderContext& ctx);

/// The string value of `obj[key]` as helmfile reads it ("" when absent or null; numbers as Go prints them).
std::string StringOf(const nlohmann::json& obj, const char* key);

/// Whether the helm-template subset (RenderHelmfileSubset) reads this key of a release.
bool IsSubsetReleaseKey(const std::string& key);

/// Renders with `helm template` per release of the helmfile.yaml subset: releases (name, namespace,
/// chart, version, values files and maps, set, installed, labels, createNamespace, wait, timeout) and
/// repositories; a helmfile.yaml.gotmpl is rendered first (RenderHelmfileTemplate). Anything else is
/// kToolMissing naming what needs the helmfile binary.
util::Result<Documents> RenderHelmfileSubset(const HelmfileRun& run, RenderContext& ctx);

}  // namespace tazuna::manifest
