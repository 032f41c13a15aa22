#pragma once

#include <string>
#include <vector>

#include "state/desired.hpp"
#include "state/store.hpp"

namespace tazuna::state {

/// Change types, in their sort order.
enum class ChangeType { kAdded = 0, kModified = 1, kRemoved = 2, kAlwaysSync = 3 };

/// "added", "modified", "removed", "always-sync".
const char* ChangeTypeName(ChangeType type);

/// One difference between the state and the render.
struct DiffEntry {
  std::string manifest;
  ChangeType type = ChangeType::kAdded;
  std::string key;       ///< state key (the new one for modified; the stored one for removed)
  StateKey parsed;       ///< `key` parsed
  std::string old_key;   ///< for an apiVersion change: the stored key it replaces; else empty
  std::string old_hash;  ///< modified, removed
  std::string new_hash;  ///< added, modified, always-sync
  int object_index = -1; ///< index into DesiredManifest::objects (not for removed)
};

/// The differences of one manifest. An object whose apiVersion changed but whose group, kind,
/// namespace and name did not is one `modified` row carrying `old_key`. Sorted by type, then key.
std::vector<DiffEntry> Diff(const DesiredManifest& desired, const ManifestState& stored);

/// Sorts entries of several manifests by type, then key (the Go tool's order).
void SortDiff(std::vector<DiffEntry>& entries);

}  // namespace tazuna::state
