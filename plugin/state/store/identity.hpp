#pragma once

#include <compare>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/render.hpp"
#include "state/store/state_key.hpp"

namespace tazuna::state {

/// Where one object really is: group, kind, effective namespace and name. The version is not part of
/// it (one object is served under every version of its group), and neither is the manifest. The
/// namespace is empty for cluster-scoped kinds, whatever a key says.
struct ObjectIdentity {
  std::string group;
  std::string kind;
  std::string namespace_name;
  std::string name;
  auto operator<=>(const ObjectIdentity&) const = default;
  /// For messages: `ConfigMap default/x`, `ClusterRole.rbac.authorization.k8s.io admin`.
  std::string Describe() const;
};

/// Resolves state keys (stored or rendered) to identities exactly where the object is applied:
///  - scope from `discovery` (any served version of the group/kind when the key's own version is not
///    served), else from the CustomResourceDefinitions of this run (AddCrds), else the built-in table
///    of cluster-scoped kinds; a kind nobody knows counts as namespaced, as rendering does;
///  - a cluster-scoped kind has no namespace (the Go tool's 6-part keys of ClusterRoles resolve like
///    our 5-part ones);
///  - a namespaced kind is in the key's namespace, else the context's (-n or kubeconfig), where the
///    client sends an object that names none.
/// Also a manifest::ScopeLookup (for defaultNamespace) with the same answers. Thread-safe.
class IdentityResolver : public manifest::ScopeLookup {
 public:
  /// `discovery` may be null (no cluster); not owned.
  IdentityResolver(manifest::ScopeLookup* discovery, std::string context_namespace)
      : discovery_(discovery), context_namespace_(std::move(context_namespace)) {}

  /// Learns the scopes declared by CustomResourceDefinitions among `objects`.
  void AddCrds(const std::vector<nlohmann::json>& objects);
  /// Learns scopes ("group/Kind" -> namespaced) as CustomResourceDefinitions declared them (a render's record).
  void AddCrdScopes(const std::map<std::string, bool>& scopes);
  /// The identity of `key` (its manifest is ignored).
  ObjectIdentity Resolve(const StateKey& key) { return Resolve(key, context_namespace_); }
  /// The identity of a stored `key` of a state whose `_metadata` recorded `recorded_namespace` as the
  /// namespace its namespace-less objects went to (Metadata::context_namespace); empty: the context's.
  ObjectIdentity ResolveStored(const StateKey& key, const std::string& recorded_namespace) {
    return Resolve(key, recorded_namespace.empty() ? context_namespace_ : recorded_namespace);
  }
  /// true namespaced, false cluster-scoped, nullopt when no source knows the kind.
  std::optional<bool> IsNamespaced(const std::string& api_version, const std::string& kind) override;
  const std::string& context_namespace() const { return context_namespace_; }

 private:
  ObjectIdentity Resolve(const StateKey& key, const std::string& default_namespace);

  manifest::ScopeLookup* discovery_;
  std::string context_namespace_;
  std::mutex mu_;
  std::map<std::string, bool> crds_;                   ///< "group/Kind" -> namespaced
  std::map<std::string, std::optional<bool>> cache_;   ///< "apiVersion/Kind" -> answer
};

}  // namespace tazuna::state
