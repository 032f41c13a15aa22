#include "state/apply/repair.hpp"

#include "state/apply/drift_fields.hpp"
#include "state/diff/diff.hpp"
#include "state/diff/live_compare.hpp"
#include "util/parallel.hpp"
#include "state/readiness/readiness.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

namespace {

// The key `d`'s state records it under: its own, else one of the same group, version, kind and name with
// its hash (Diff pairs keys that differ only in the namespace segment and keeps the stored one). Null
// when none is recorded.
const std::string* StoredKeyOf(const ManifestState& stored, const DesiredObject& d) {
  if (const auto it = stored.entries.find(d.key_string); it != stored.entries.end()) return &it->first;
  for (const auto& [key, hash] : stored.entries) {
    const auto parsed = ParseStateKey(key);
    if (!parsed || hash != d.hash) continue;
    if (parsed->group == d.key.group && parsed->version == d.key.version && parsed->kind == d.key.kind &&
        parsed->name == d.key.name) {
      return &key;
    }
  }
  return nullptr;
}

// Whether a gone object of `in` counts as done rather than missing: one that runs once and ran. A manifest
// not rendered (from its state) has no Pod spec to tell: its Pods count as run once, the sync renders it.
bool RunsOnce(const SyncInput& in, const DesiredObject& d) {
  if (RunsToCompletion(d.key.group, d.key.kind, d.object)) return true;
  return in.desired.from_state && d.key.group.empty() && d.key.kind == "Pod";
}

// Whether the live object `owner` is marked as manifest `name`'s, or carries no manifest mark (a replace from
// the file, or an edit, took tazuna's marks away; the state records it as applied): another manifest's is not
// repaired here.
bool MarkedOurs(const LiveOwner& owner, const std::string& name) { return owner.manifest.empty() || owner.manifest == name; }

// Which rendered objects of `in` a diff row names (the others are unchanged).
std::vector<bool> Touched(const SyncInput& in) {
  std::vector<bool> touched(in.desired.objects.size(), false);
  for (const auto& e : in.diff) {
    if (e.object_index >= 0) touched[static_cast<size_t>(e.object_index)] = true;
  }
  return touched;
}

size_t AddMissing(SyncInput& in, const LiveOwners& live, const std::set<ObjectIdentity>& unchecked) {
  const std::vector<bool> touched = Touched(in);
  size_t added = 0;
  for (size_t i = 0; i < in.desired.objects.size(); ++i) {
    const DesiredObject& d = in.desired.objects[i];
    if (touched[i] || d.hash_state != HashState::kKnown || live.count(d.identity) > 0 ||
        unchecked.count(d.identity) > 0 || RunsOnce(in, d)) {
      continue;
    }
    const std::string* key = StoredKeyOf(in.stored, d);
    if (key == nullptr) continue;  // not recorded: no row can say it was applied
    const auto parsed = ParseStateKey(*key);
    in.diff.push_back({in.desired.name, ChangeType::kMissing, *key, parsed ? *parsed : d.key, "", d.hash, d.hash,
                       static_cast<int>(i), d.identity, true});
    ++added;
  }
  if (added > 0) SortDiff(in.diff);
  return added;
}

size_t AddDrifted(SyncInput& in, const LiveOwners& live, const std::vector<manifest::YieldRule>& yields,
                  std::set<std::string>* needs_render) {
  if (in.desired.always_sync) return 0;  // every object is applied on every sync anyway
  const std::vector<bool> touched = Touched(in);
  size_t added = 0;
  for (size_t i = 0; i < in.desired.objects.size(); ++i) {
    const DesiredObject& d = in.desired.objects[i];
    if (touched[i] || d.hash_state != HashState::kKnown) continue;
    const auto it = live.find(d.identity);
    if (it == live.end() || it->second.fields == nullptr || !MarkedOurs(it->second, in.desired.name)) continue;
    const std::string* key = StoredKeyOf(in.stored, d);
    if (key == nullptr) continue;
    const auto taken = TakenFields(in.desired.from_state ? nullptr : &d.object, d.identity, *it->second.fields, yields);
    if (taken.empty()) continue;
    if (in.desired.from_state) {
      if (needs_render != nullptr) needs_render->insert(in.desired.name);
      return added;
    }
    const auto parsed = ParseStateKey(*key);
    DiffEntry row{in.desired.name, ChangeType::kDrifted, *key, parsed ? *parsed : d.key, "", d.hash, d.hash,
                  static_cast<int>(i), d.identity, true};
    row.note = "fields changed by " + DescribeTaken(taken);
    in.diff.push_back(std::move(row));
    ++added;
  }
  if (added > 0) SortDiff(in.diff);
  return added;
}

}  // namespace

util::Result<Repair> ParseRepair(const std::string& text) {
  if (text == "all") return Repair::kAll;
  if (text == "missing") return Repair::kMissing;
  if (text == "none") return Repair::kNone;
  return util::MakeError(util::ErrorKind::kUsage,
                         "invalid --repair \"" + text + "\": must be \"all\", \"missing\" or \"none\"");
}

size_t AddDriftedRows(std::vector<SyncInput>& inputs, const LiveOwners& live,
                      const std::map<std::string, std::vector<manifest::YieldRule>>& yields,
                      std::set<std::string>* needs_render) {
  static const std::vector<manifest::YieldRule> kNone;
  size_t added = 0;
  for (auto& in : inputs) {
    const auto it = yields.find(in.desired.name);
    added += AddDrifted(in, live, it == yields.end() ? kNone : it->second, needs_render);
  }
  return added;
}

size_t AddMissingRows(std::vector<SyncInput>& inputs, const LiveOwners& live, const std::set<ObjectIdentity>& unchecked) {
  size_t added = 0;
  for (auto& in : inputs) added += AddMissing(in, live, unchecked);
  return added;
}

size_t AddRemovedRows(kube::Client& client, std::vector<SyncInput>& inputs, const LiveOwners& live,
                      const std::map<std::string, std::vector<manifest::YieldRule>>& yields, int concurrency,
                      util::Logger& log) {
  static const std::vector<manifest::YieldRule> kNone;
  struct Candidate {
    SyncInput* in;
    size_t index;
    const LiveOwner* owner;
    std::vector<std::string> removed;  // what the ownership names
    bool changes = false;              // the dry run changes the live object
  };
  std::vector<Candidate> candidates;
  for (auto& in : inputs) {
    if (in.desired.always_sync || in.desired.from_state) continue;
    const std::vector<bool> touched = Touched(in);
    for (size_t i = 0; i < in.desired.objects.size(); ++i) {
      const DesiredObject& d = in.desired.objects[i];
      if (touched[i] || d.hash_state != HashState::kKnown || StoredKeyOf(in.stored, d) == nullptr) continue;
      const auto it = live.find(d.identity);
      if (it == live.end() || it->second.fields == nullptr || !MarkedOurs(it->second, in.desired.name)) continue;
      const auto y = yields.find(in.desired.name);
      std::vector<std::string> removed;
      for (const auto& p : UnownedFields(d.object, d.identity, *it->second.fields, y == yields.end() ? kNone : y->second)) {
        removed.push_back(DescribeFieldPath(p));
      }
      if (!removed.empty()) candidates.push_back({&in, i, &it->second, std::move(removed)});
    }
  }
  std::mutex mu;
  std::string failure;  // the first check that failed
  util::ParallelFor(candidates.size(), concurrency, [&](size_t c) {
    Candidate& cand = candidates[c];
    const DesiredObject& d = cand.in->desired.objects[cand.index];
    auto now = GetLive(client, d.key, d.identity.namespace_name);
    nlohmann::json applied = d.object;
    const auto y = yields.find(cand.in->desired.name);
    StripYielded(applied, d.identity, *cand.owner->fields, y == yields.end() ? kNone : y->second);
    auto merged = now && *now ? DryRunApply(client, applied, Marks{cand.in->desired.name, ""})
                              : util::Result<nlohmann::json>(nlohmann::json());
    std::lock_guard<std::mutex> lock(mu);
    const util::Error* error = !now ? &now.error() : !merged ? &merged.error() : nullptr;
    if (error != nullptr) {
      if (failure.empty()) failure = util::StrCat("cannot check ", d.identity.Describe(), " for removed fields: ", error->message);
      return;
    }
    cand.changes = *now && !SameContent(**now, *merged);
  });
  if (!failure.empty()) log.Warning(failure + " (it stays unchanged)");
  size_t added = 0;
  std::set<SyncInput*> sorted;
  for (const auto& cand : candidates) {
    if (!cand.changes) continue;
    const DesiredObject& d = cand.in->desired.objects[cand.index];
    const std::string* key = StoredKeyOf(cand.in->stored, d);
    const auto parsed = ParseStateKey(*key);
    DiffEntry row{cand.in->desired.name, ChangeType::kDrifted, *key, parsed ? *parsed : d.key, "", d.hash, d.hash,
                  static_cast<int>(cand.index), d.identity, true};
    row.note = util::StrCat("fields removed (", util::Join(cand.removed, ", "), ")");
    cand.in->diff.push_back(std::move(row));
    sorted.insert(cand.in);
    ++added;
  }
  for (SyncInput* in : sorted) SortDiff(in->diff);
  return added;
}

std::string UncheckedWarning(const std::set<ObjectIdentity>& unchecked) {
  if (unchecked.empty()) return "";
  const std::string first = unchecked.begin()->Describe();
  if (unchecked.size() == 1) {
    return util::StrCat("cannot check that unchanged object ", first, " still exists: it is reported unchanged and "
                        "not recreated if missing (grant list on its kind to check it)");
  }
  return util::StrCat("cannot check that ", unchecked.size(), " unchanged objects still exist (first: ", first,
                      "): they are reported unchanged and not recreated if missing (grant list on their kinds to "
                      "check them)");
}

}  // namespace tazuna::state
