#pragma once

#include <string>
#include <vector>

#include "kube/client.hpp"
#include "state/desired.hpp"
#include "state/identity.hpp"
#include "state/store.hpp"

namespace tazuna::state {

/// How a recorded object differs from the cluster.
enum class DriftType { kDrifted = 0, kMissing = 1 };
/// "live-drifted", "live-missing".
const char* DriftTypeName(DriftType type);

struct DriftEntry {
  std::string manifest;
  DriftType type = DriftType::kDrifted;
  std::string key;
  StateKey parsed;
  std::string stored_hash;
};

/// Checks every object recorded in `stored` against the cluster: missing when GET finds nothing
/// (or its kind is gone); drifted when applying the rendered object (server-side dry run, field
/// manager tazuna) would change the live object — so server defaults and fields owned by others are
/// not drift, unlike the Go tool's hash of the live object. Objects no longer rendered are only
/// checked for presence. A stored key is matched to the rendered object by identity (so the Go tool's
/// 6-part keys of cluster-scoped objects and context-namespace keys find their object) and read where
/// the identity says the object is. Up to `concurrency` requests in flight; sorted by type, then key.
util::Result<std::vector<DriftEntry>> Drift(kube::Client& client, const DesiredManifest& desired,
                                            const ManifestState& stored, IdentityResolver& ids, int concurrency);

}  // namespace tazuna::state
