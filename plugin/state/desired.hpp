#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/render.hpp"
#include "state/identity.hpp"
#include "state/state_key.hpp"

namespace tazuna::state {

/// One rendered object with its state key, identity and content hash.
struct DesiredObject {
  StateKey key;
  std::string key_string;   ///< key.ToString()
  ObjectIdentity identity;  ///< where it is applied
  std::string hash;         ///< ContentHash of the rendered object
  nlohmann::json object;
};

/// A manifest as rendered now, in apply order (Namespaces, CRDs, then the rest).
struct DesiredManifest {
  std::string name;
  bool always_sync = false;  ///< genesissecret: every object is re-applied on every sync
  std::vector<DesiredObject> objects;
};

/// Keys, identities and hashes the rendered objects of `rendered`.
DesiredManifest Desire(manifest::RenderedManifest rendered, IdentityResolver& ids);

}  // namespace tazuna::state
