#pragma once

#include <string>
#include <vector>

#include "state/store/desired.hpp"
#include "state/store/identity.hpp"
#include "state/store/store.hpp"

namespace tazuna::state {

/// Change types, in their sort order. kMissing is no difference of hashes: an object the state records
/// as applied, rendered unchanged, whose live object is gone (AddMissingRows, state/apply/repair.hpp).
/// kDrifted neither: such an object whose fields tazuna applied another writer has taken since
/// (AddDriftedRows), applied again to take them back.
enum class ChangeType { kAdded = 0, kModified = 1, kRemoved = 2, kAlwaysSync = 3, kMissing = 4, kDrifted = 5 };

/// "added", "modified", "removed", "always-sync", "missing", "drifted".
const char* ChangeTypeName(ChangeType type);

/// One difference between the state and the render.
struct DiffEntry {
  std::string manifest;
  ChangeType type = ChangeType::kAdded;
  std::string key;       ///< the state key to write (for removed: the stored one)
  StateKey parsed;       ///< `key` parsed
  std::string old_key;   ///< a stored key of the same object that `key` replaces (apiVersion or group moved)
  std::string old_hash;  ///< modified, removed, missing
  std::string new_hash;  ///< added, modified, always-sync, missing (then equal to old_hash)
  int object_index = -1; ///< index into DesiredManifest::objects (not for removed)
  ObjectIdentity identity;  ///< where the object is; for removed: where the stored key says it is
  bool valid_key = true;    ///< false: a stored key that does not parse or names no reachable object (never pruned)
  std::string note = {};    ///< drifted: "fields changed by WRITER (PATHS)" (DescribeTaken), "fields removed (PATHS)"
};

/// The differences of one manifest. Stored and rendered keys that resolve to one identity are one
/// object, never an added plus a removed row:
///  - keys that differ only in the namespace segment (the Go tool's 6-part keys of cluster-scoped
///    objects, a namespace that came from the context) pair and keep the stored key string, which the
///    Go tool reads literally;
///  - keys that differ in the apiVersion pair as one modified row with `old_key` (the new key replaces
///    the old one once applied).
/// Further stored keys of a rendered identity are removed rows (prune keeps the object). Objects that
/// moved to another group are paired by PairGroupMoves. Sorted by type, then key.
std::vector<DiffEntry> Diff(const DesiredManifest& desired, const ManifestState& stored, IdentityResolver& ids);

/// A stored entry moved to another key (RelocateStored).
struct Relocation {
  std::string from;  ///< the key as stored (no namespace segment)
  std::string to;    ///< the same object's key with its namespace segment
  std::string hash;  ///< the entry's value under `to`
};

/// Keys without a namespace segment of namespaced objects went to the context namespace the state
/// recorded (Metadata::context_namespace). When this run's context namespace is another one, each such
/// entry moves, in `stored`, to the key naming its recorded namespace (the Go tool's 6-part form, which
/// it reads literally), so that it stays the object it was: Diff then shows the object moving (added in
/// the new namespace, removed from the old one, pruned only with --prune). A key already stored in that
/// form keeps its own entry. Returns the moves for the sync to record; none when the state recorded no
/// namespace (the Go tool's) or the same one. Only kinds known to be namespaced move (cluster-scoped ones
/// never do): a namespace-less key of a kind whose scope nobody knows (not served, no CRD in the render)
/// fails closed with kInput naming it and both namespaces, as where its object is cannot be told.
util::Result<std::vector<Relocation>> RelocateStored(ManifestState& stored, IdentityResolver& ids);

/// Sorts entries of several manifests by type, then key (the Go tool's order).
void SortDiff(std::vector<DiffEntry>& entries);

}  // namespace tazuna::state
