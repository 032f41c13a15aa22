#pragma once

#include "state/diff/diff.hpp"
#include "state/store/state_key.hpp"

namespace tazuna::state {

/// Where an object goes within a dependsOn layer: Namespaces first, then CRDs, then the rest. Deletes
/// (prune, uninstall) go in the reverse order.
enum class Phase { kNamespace = 0, kCrd = 1, kRest = 2 };

/// The phase of the object `k` names.
inline Phase PhaseOf(const StateKey& k) {
  if (k.group.empty() && k.kind == "Namespace") return Phase::kNamespace;
  if (k.group == "apiextensions.k8s.io" && k.kind == "CustomResourceDefinition") return Phase::kCrd;
  return Phase::kRest;
}

/// A row the sync applies (everything but a removal).
inline bool IsApply(const DiffEntry& e) { return e.type != ChangeType::kRemoved; }

}  // namespace tazuna::state
