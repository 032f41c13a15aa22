#pragma once

#include <map>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "state/diff/diff.hpp"
#include "state/store/identity.hpp"
#include "state/store/store.hpp"
#include "state/apply/sync_engine.hpp"

namespace tazuna::state {

/// Reads each manifest's state (one GET per state ConfigMap) and diffs it against its render with one
/// identity for stored and rendered keys (see Diff). Then PairGroupMoves on each manifest's rows.
/// Errors: the store's read errors.
util::Result<std::vector<SyncInput>> PlanSync(StateStore& store, kube::Client& client,
                                              std::vector<DesiredManifest> desired, IdentityResolver& ids);

/// The states of `names` (one GET per state ConfigMap, as StateStore::Read), by name.
util::Result<std::map<std::string, ManifestState>> ReadStates(StateStore& store, const std::vector<std::string>& names);

/// PlanSync with the states already read (ReadStates); kInternal when one of `desired` has none.
util::Result<std::vector<SyncInput>> PlanSyncFrom(kube::Client& client, std::vector<DesiredManifest> desired,
                                                  std::map<std::string, ManifestState> stored, IdentityResolver& ids);

/// A state that recorded no context namespace (the Go tool's, or an earlier version's) gets this run's
/// recorded by the sync (SyncInput::context_namespace) only where that is known to be true: every object it
/// holds under a namespace-less key of a namespaced kind, and that this run does not apply, is found there
/// (one GET each, once per state). Otherwise the state keeps recording none, and `log` warns naming the
/// first object not found (sync with -n where it was synced to record it).
void ConfirmContextNamespaces(kube::Client& client, IdentityResolver& ids, std::vector<SyncInput>& inputs,
                              util::Logger& log);

/// A removed row and an added row of one manifest with the same kind, namespace and name in another
/// group (an Event moving from v1 to events.k8s.io/v1) are one object when both GETs find the same
/// live uid, or when the old group serves the kind no more (no object can be there): they become one
/// modified row whose key replaces the old one. Two GETs per such pair only.
void PairGroupMoves(kube::Client& client, std::vector<DiffEntry>& entries);

}  // namespace tazuna::state
