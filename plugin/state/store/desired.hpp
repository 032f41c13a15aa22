#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/render.hpp"
#include "state/store/identity.hpp"
#include "state/store/state_key.hpp"

namespace tazuna::state {

/// Whether an object's hash could be computed: a Secret's needs the cluster's state key.
enum class HashState {
  kKnown,       ///< `hash` is the content hash
  kNoKey,       ///< a Secret before the first sync made the key: it will be (re)written
  kUnreadable,  ///< a Secret whose key this user cannot read: nothing can be concluded (always-sync)
};

/// One rendered object with its state key, identity and content hash.
struct DesiredObject {
  StateKey key;
  std::string key_string;   ///< key.ToString()
  ObjectIdentity identity;  ///< where it is applied
  std::string hash;         ///< ContentHash of the rendered object (keyed for Secrets; empty unless kKnown)
  HashState hash_state = HashState::kKnown;
  std::string source;  ///< the file it came from (relative to tazuna.yaml), for messages
  nlohmann::json object;
};

/// A manifest as rendered now, in apply order (Namespaces, CRDs, then the rest).
struct DesiredManifest {
  std::string name;
  bool always_sync = false;  ///< genesissecret: every object is re-applied on every sync
  std::vector<DesiredObject> objects;
  /// The digest of the render's inputs and the context namespace (render_record.hpp); empty when the
  /// inputs cannot all be named. A sync records it in the state it leaves exactly equal to this render.
  std::string input_digest = {};
  /// The scopes its CustomResourceDefinitions declare (manifest::CrdScopes), recorded with the render.
  std::map<std::string, bool> crd_scopes = {};
  /// The scopes the kinds of its custom resources resolved to (KindScopes in render_record.hpp), recorded with
  /// the render; set once every manifest's CRDs are known.
  std::map<std::string, std::string> kind_scopes = {};
  /// Not rendered: its inputs are those of the render the state records, so `objects` stand for the state's
  /// entries (key, identity and hash; the object holds only apiVersion, kind and metadata name/namespace).
  bool from_state = false;
  /// Not rendered: read back from the local render cache (manifest::RenderCache) under its inputs' digest.
  bool from_render_cache = false;
};

/// Keys, identities and hashes the rendered objects of `rendered`.
DesiredManifest Desire(manifest::RenderedManifest rendered, IdentityResolver& ids);

/// kubectl's enforceNamespace: with -n `flag_namespace` given (non-empty), a namespaced object whose
/// metadata.namespace names another namespace is refused (kInput, kubectl's message, after the manifest
/// and the object). Objects without metadata.namespace go to -n; cluster-scoped objects are not checked.
util::Status CheckNamespaceFlag(const std::vector<DesiredManifest>& manifests, const std::string& flag_namespace);

}  // namespace tazuna::state
