#include "state/plan.hpp"

#include <optional>

#include "util/json_get.hpp"

namespace tazuna::state {

namespace {

// The live uid ("" when there is no such object); nullopt when the server serves no version of the kind
// in that group any more (an Ingress under extensions): then no object can exist under the old key.
std::optional<std::string> LiveUid(kube::Client& client, const StateKey& k, const ObjectIdentity& id) {
  if (!client.ResolveGroupKind(k.group, k.kind)) return std::nullopt;
  auto live = client.Get({k.ApiVersion(), k.kind, id.namespace_name, k.name});
  if (!live) return std::string();
  return util::MetaString(*live, "uid");
}

bool SameObjectOtherGroup(const DiffEntry& removed, const DiffEntry& added) {
  return removed.identity.group != added.identity.group && removed.identity.kind == added.identity.kind &&
         removed.identity.namespace_name == added.identity.namespace_name &&
         removed.identity.name == added.identity.name;
}

}  // namespace

void PairGroupMoves(kube::Client& client, std::vector<DiffEntry>& entries) {
  std::vector<size_t> merged;
  for (size_t r = 0; r < entries.size(); ++r) {
    const DiffEntry& removed = entries[r];
    if (removed.type != ChangeType::kRemoved || !removed.valid_key) continue;
    for (DiffEntry& added : entries) {
      if (added.type != ChangeType::kAdded && added.type != ChangeType::kAlwaysSync) continue;
      if (!added.old_key.empty() || !SameObjectOtherGroup(removed, added)) continue;
      const std::optional<std::string> uid = LiveUid(client, removed.parsed, removed.identity);
      const bool same = !uid || (!uid->empty() && uid == LiveUid(client, added.parsed, added.identity));
      if (!same) continue;
      if (added.type == ChangeType::kAdded) added.type = ChangeType::kModified;
      added.old_key = removed.key;
      added.old_hash = removed.old_hash;
      merged.push_back(r);
      break;
    }
  }
  for (auto it = merged.rbegin(); it != merged.rend(); ++it) entries.erase(entries.begin() + static_cast<long>(*it));
  SortDiff(entries);
}

util::Result<std::vector<SyncInput>> PlanSync(StateStore& store, kube::Client& client,
                                              std::vector<DesiredManifest> desired, IdentityResolver& ids) {
  std::vector<SyncInput> inputs;
  inputs.reserve(desired.size());
  for (auto& d : desired) {
    auto stored = store.Read(d.name);
    if (!stored) return stored.error();
    SyncInput in{std::move(d), std::move(*stored), {}, {}, ids.context_namespace()};
    in.relocations = RelocateStored(in.stored, ids);
    in.diff = Diff(in.desired, in.stored, ids);
    PairGroupMoves(client, in.diff);
    inputs.push_back(std::move(in));
  }
  return inputs;
}

}  // namespace tazuna::state
