#pragma once

#include <map>
#include <string>
#include <vector>

namespace tazuna::manifest {

/// `kustomize:` block of a manifest.
struct KustomizeOptions {
  std::string default_namespace;  ///< set on namespaced objects that carry no namespace
  bool operator==(const KustomizeOptions&) const = default;
};

/// `manifests:` block of a manifest of type manifests (our addition).
struct ManifestsOptions {
  std::string default_namespace;  ///< set on namespaced objects that carry no namespace
  bool operator==(const ManifestsOptions&) const = default;
};

/// One `helmfile.vars` entry. `from` is env, static or op.
struct HelmfileVar {
  std::string from, env, static_value;
  std::vector<std::string> static_slice;
  std::map<std::string, std::string> static_map;
  std::string op_key, op_vault, op_item, op_field;  ///< from: op (op_key is id or label)
  bool operator==(const HelmfileVar&) const = default;
};

/// `helmfile:` block of a manifest.
struct HelmfileOptions {
  std::map<std::string, HelmfileVar> vars;
  bool include_crds = false;
  std::string default_namespace;
  std::vector<std::string> extra_value_files;  ///< relative to the root tazuna.yaml directory
  std::string kube_version;
  bool wait = false;          ///< wait until the manifest's objects are ready after it is synced
  int timeout_seconds = 300;  ///< for wait; the Go tool's default when timeoutSeconds is absent or 0
  bool operator==(const HelmfileOptions&) const = default;
};

/// `oras:` block: the artifact and the renderer it delegates to.
struct OrasOptions {
  std::string reference, target, delegate_type;
  bool plain_http = false, insecure_skip_verify = false;
  KustomizeOptions kustomize;  ///< oras.delegate.kustomize
  HelmfileOptions helmfile;    ///< oras.delegate.helmfile
  bool operator==(const OrasOptions&) const = default;
};

/// One `yieldFields` rule (ours): fields of the manifest's objects that another writer may own. A sync
/// takes back the fields tazuna applied that others have taken since (state sync --repair), except
/// those a rule yields: every criterion set must match (empty ones match anything).
struct YieldRule {
  std::string group, kind, name, namespace_name;  ///< which objects; the core group is written "core"
  /// Field paths as kubectl explain writes them (`spec.replicas`, `webhooks.clientConfig.caBundle`), each
  /// yielding the field and everything below it; a list's items by name (`containers[name=app].image`)
  /// or any item (`containers.image`, `containers[*].image`).
  std::vector<std::string> paths;
  std::vector<std::string> managers;  ///< field managers (`kube-controller-manager`, `cainjector`)
  bool operator==(const YieldRule&) const = default;
};

/// One entry of spec.manifests after include expansion.
struct Manifest {
  std::string name, type, path, description;
  std::vector<std::string> tags, depends_on;
  KustomizeOptions kustomize;
  HelmfileOptions helmfile;
  OrasOptions oras;
  ManifestsOptions manifests;  ///< `manifests:` block (type manifests)
  /// `statusGraceSeconds` (ours): how long a sync waits for a controller to write its objects' status
  /// before they count as ready with a warning; -1 when unset (state sync --status-grace).
  int status_grace_seconds = -1;
  /// `yieldFields` (ours): fields of its objects other writers may own (YieldRule), besides those every
  /// manifest yields (state/apply/drift_fields.hpp).
  std::vector<YieldRule> yield_fields;
  std::string source_file;  ///< the file that declared it (the root or an include)
  int line = 0;             ///< 1-based line of the entry in source_file
  bool operator==(const Manifest&) const = default;
};

/// One spec.environments entry.
struct EnvironmentSpec {
  std::vector<std::string> context_matches;
  std::string context_match_mode;  ///< empty: the root mode
  bool operator==(const EnvironmentSpec&) const = default;
};

/// One spec.providers entry (only type envfile is supported).
struct Provider {
  std::string name, type, envfile_path;  ///< envfile_path as written (relative to TazunaFile::dir)
  bool operator==(const Provider&) const = default;
};

/// A loaded, validated tazuna.yaml with includes spliced in.
struct TazunaFile {
  std::string path, dir;  ///< the root file and its directory
  std::vector<Manifest> manifests;
  std::vector<std::string> context_matches;
  std::string context_match_mode = "or";
  std::map<std::string, EnvironmentSpec> environments;
  std::vector<Provider> providers;
  std::string minimum_version;
  std::string environment;  ///< the -e value used to load it ("" when none)
  /// Keys of the Go tool's schema that are set but not acted on (spec.tests, spec.requirements,
  /// spec.manifests[].tests), one `<file>:<line>:<col>: <field> ...; ignored` line per occurrence, in
  /// file order, for the command to print as `Warning: ...` on stderr.
  std::vector<std::string> warnings;
  bool operator==(const TazunaFile&) const = default;
};

/// The manifest types Render knows.
inline const std::vector<std::string>& KnownManifestTypes() {
  static const std::vector<std::string> kTypes = {"manifests", "kustomize", "helmfile", "genesissecret",
                                                  "oras"};
  return kTypes;
}

}  // namespace tazuna::manifest
