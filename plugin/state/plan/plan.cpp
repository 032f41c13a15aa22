#include "state/plan/plan.hpp"
#include "state/diff/live_compare.hpp"

#include <optional>
#include <set>

#include "util/json_get.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

namespace {

/// States read at once (each holds its answer while it is parsed).
constexpr int kReadersAtOnce = 8;

// The live uid ("" when there is no such object, or when that cannot be known); nullopt when the server
// serves no version of the kind in that group any more (an Ingress under extensions) and no CRD defines
// it: then no object can exist under the old key. A CRD serving none of its versions still stores them.
std::optional<std::string> LiveUid(kube::Client& client, const StateKey& k, const ObjectIdentity& id) {
  if (!client.ResolveGroupKind(k.group, k.kind)) {
    auto crd = DefiningCrd(client, k.group, k.kind);
    return crd && crd->empty() ? std::nullopt : std::optional<std::string>(std::string());
  }
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

namespace {

// The namespace-less keys of namespaced objects in `in`'s state that this run does not apply.
std::vector<StateKey> NamespaceLessUnapplied(const SyncInput& in, IdentityResolver& ids) {
  std::set<std::string> applied;
  for (const auto& e : in.diff) {
    if (e.type != ChangeType::kRemoved) applied.insert(e.key);
  }
  std::vector<StateKey> out;
  for (const auto& [key, hash] : in.stored.entries) {
    auto parsed = ParseStateKey(key);
    if (!parsed || !parsed->namespace_name.empty() || applied.count(key) > 0 || KeyNameProblem(*parsed)) continue;
    if (ids.IsNamespaced(parsed->ApiVersion(), parsed->kind).value_or(true)) out.push_back(*parsed);
  }
  return out;
}

// The first of `keys` whose object is not found in `ns` (or cannot be read), nullopt when all are there.
std::optional<StateKey> FirstNotIn(kube::Client& client, const std::vector<StateKey>& keys, const std::string& ns) {
  std::vector<char> found(keys.size(), 0);
  util::ParallelFor(keys.size(), 8, [&](size_t i) {
    found[i] = client.Get({keys[i].ApiVersion(), keys[i].kind, ns, keys[i].name}) ? 1 : 0;
  });
  for (size_t i = 0; i < keys.size(); ++i) {
    if (!found[i]) return keys[i];
  }
  return std::nullopt;
}

}  // namespace

void ConfirmContextNamespaces(kube::Client& client, IdentityResolver& ids, std::vector<SyncInput>& inputs,
                              util::Logger& log) {
  for (auto& in : inputs) {
    if (!in.stored.metadata.context_namespace.empty() || in.context_namespace.empty()) continue;
    const std::optional<StateKey> missing = FirstNotIn(client, NamespaceLessUnapplied(in, ids), in.context_namespace);
    if (!missing) continue;
    log.Warning(util::StrCat("manifest ", util::Quote(in.desired.name), ": ", missing->kind, " ", missing->name,
                             " is recorded without a namespace and is not in the context namespace ",
                             util::Quote(in.context_namespace), ": where its objects are stays unrecorded; sync with "
                             "-n NAMESPACE where they were synced to record it"));
    in.context_namespace.clear();
  }
}

// The states are read at once (kReadersAtOnce): their round trips overlap.
util::Result<std::map<std::string, ManifestState>> ReadStates(StateStore& store, const std::vector<std::string>& names) {
  std::vector<std::optional<util::Result<ManifestState>>> read(names.size());
  util::ParallelFor(names.size(), kReadersAtOnce, [&](size_t i) { read[i].emplace(store.Read(names[i])); });
  std::map<std::string, ManifestState> out;
  for (size_t i = 0; i < names.size(); ++i) {
    if (!*read[i]) return read[i]->error();  // the first in tazuna.yaml's order, as one reader would meet it
    out.emplace(names[i], std::move(**read[i]));
  }
  return out;
}

util::Result<std::vector<SyncInput>> PlanSync(StateStore& store, kube::Client& client,
                                              std::vector<DesiredManifest> desired, IdentityResolver& ids) {
  std::vector<std::string> names;
  for (const auto& d : desired) names.push_back(d.name);
  auto stored = ReadStates(store, names);
  if (!stored) return stored.error();
  return PlanSyncFrom(client, std::move(desired), std::move(*stored), ids);
}

util::Result<std::vector<SyncInput>> PlanSyncFrom(kube::Client& client, std::vector<DesiredManifest> desired,
                                                  std::map<std::string, ManifestState> stored, IdentityResolver& ids) {
  std::vector<SyncInput> inputs;
  inputs.reserve(desired.size());
  for (auto& d : desired) {
    auto it = stored.find(d.name);
    if (it == stored.end()) {
      return util::MakeError(util::ErrorKind::kInternal, "no state read for manifest " + util::Quote(d.name));
    }
    SyncInput in{std::move(d), std::move(it->second), {}, {}, ids.context_namespace()};
    auto relocations = RelocateStored(in.stored, ids);
    if (!relocations) return relocations.error();
    in.relocations = std::move(*relocations);
    in.diff = Diff(in.desired, in.stored, ids);
    PairGroupMoves(client, in.diff);
    inputs.push_back(std::move(in));
  }
  return inputs;
}

}  // namespace tazuna::state
