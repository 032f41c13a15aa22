#include "state/diff/diff.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "util/strings.hpp"

namespace tazuna::state {

const char* ChangeTypeName(ChangeType type) {
  switch (type) {
    case ChangeType::kAdded: return "added";
    case ChangeType::kModified: return "modified";
    case ChangeType::kRemoved: return "removed";
    case ChangeType::kAlwaysSync: return "always-sync";
    case ChangeType::kMissing: return "missing";
    case ChangeType::kDrifted: return "drifted";
  }
  return "unknown";
}

namespace {

struct StoredKey {
  std::string key;
  std::string hash;
  StateKey parsed;
  ObjectIdentity identity;
  bool valid = false;
  bool claimed = false;
};

// The stored key that stands for `d`: the identical key, else one that differs only in the namespace
// segment (same group and version), else one of another version. Null when none is left.
StoredKey* Partner(const DesiredObject& d, std::vector<StoredKey*>& candidates) {
  StoredKey* best = nullptr;
  int best_rank = 3;
  for (StoredKey* s : candidates) {
    if (s->claimed) continue;
    const int rank = s->key == d.key_string ? 0 : s->parsed.version == d.key.version ? 1 : 2;
    if (rank < best_rank) best = s, best_rank = rank;
  }
  return best;
}

DiffEntry Paired(const DesiredManifest& desired, size_t i, const StoredKey* s) {
  const DesiredObject& d = desired.objects[i];
  DiffEntry e{desired.name, ChangeType::kAdded, d.key_string, d.key, "", "", d.hash, static_cast<int>(i),
              d.identity, true};
  if (s != nullptr && s->parsed.version == d.key.version) {
    e.key = s->key;  // the same object under the stored key string: keep it as written
    e.parsed = s->parsed;
  } else if (s != nullptr) {
    e.old_key = s->key;  // another apiVersion: the rendered key replaces it once applied
  }
  if (s != nullptr) e.old_hash = s->hash;
  if (desired.always_sync || d.hash_state == HashState::kUnreadable) {
    e.type = ChangeType::kAlwaysSync;  // nothing can be concluded without the hash
  } else if (s != nullptr) {
    e.type = ChangeType::kModified;
  }
  return e;
}

}  // namespace

std::vector<DiffEntry> Diff(const DesiredManifest& desired, const ManifestState& stored, IdentityResolver& ids) {
  std::vector<StoredKey> keys;
  keys.reserve(stored.entries.size());
  std::map<ObjectIdentity, std::vector<StoredKey*>> by_identity;
  for (const auto& [key, hash] : stored.entries) {
    StoredKey s{key, hash, {}, {}, false, false};
    if (auto parsed = ParseStateKey(key)) {
      s.parsed = *parsed;
      s.valid = !KeyNameProblem(*parsed);  // a key no request could reach is never resolved nor paired
      // RelocateStored moved every namespace-less key of a namespaced kind recorded elsewhere: the rest are
      // where this run's context namespace says (or cluster-scoped).
      if (s.valid) s.identity = ids.Resolve(*parsed);
    }
    keys.push_back(std::move(s));
  }
  for (auto& s : keys) {
    if (s.valid) by_identity[s.identity].push_back(&s);
  }
  std::vector<DiffEntry> out;
  for (size_t i = 0; i < desired.objects.size(); ++i) {
    StoredKey* partner = nullptr;
    if (auto it = by_identity.find(desired.objects[i].identity); it != by_identity.end()) {
      partner = Partner(desired.objects[i], it->second);
    }
    if (partner != nullptr) partner->claimed = true;
    DiffEntry e = Paired(desired, i, partner);
    const bool unchanged = e.type == ChangeType::kModified && e.old_key.empty() && e.old_hash == e.new_hash &&
                           desired.objects[i].hash_state == HashState::kKnown;
    if (!unchanged) out.push_back(std::move(e));
  }
  for (const auto& s : keys) {
    if (s.claimed) continue;
    out.push_back({desired.name, ChangeType::kRemoved, s.key, s.parsed, "", s.hash, "", -1, s.identity, s.valid});
  }
  SortDiff(out);
  return out;
}

util::Result<std::vector<Relocation>> RelocateStored(ManifestState& stored, IdentityResolver& ids) {
  std::vector<Relocation> out;
  const std::string& recorded = stored.metadata.context_namespace;
  if (recorded.empty() || recorded == ids.context_namespace()) return out;
  for (const auto& [key, hash] : stored.entries) {
    auto parsed = ParseStateKey(key);
    if (!parsed || !parsed->namespace_name.empty() || KeyNameProblem(*parsed)) continue;
    const std::optional<bool> namespaced = ids.IsNamespaced(parsed->ApiVersion(), parsed->kind);
    if (!namespaced) {
      return util::MakeError(
          util::ErrorKind::kInput,
          util::StrCat("manifest ", util::Quote(stored.manifest), ": cannot tell whether ", parsed->kind, " ",
                       parsed->ApiVersion(), " is namespaced (the server does not serve it): its objects without a "
                       "namespace were synced into namespace ", util::Quote(recorded), ", this run's is ",
                       util::Quote(ids.context_namespace()), "; run with -n ", recorded,
                       ", or once its CustomResourceDefinition is served"));
    }
    if (!*namespaced) continue;
    StateKey moved = *parsed;
    moved.namespace_name = recorded;
    out.push_back({key, moved.ToString(), hash});
  }
  for (auto& r : out) {
    auto node = stored.entries.extract(r.from);
    if (auto it = stored.entries.find(r.to); it != stored.entries.end()) {
      r.hash = it->second;  // both forms were stored: the explicit one stands
      continue;
    }
    node.key() = r.to;
    stored.entries.insert(std::move(node));
  }
  return out;
}

void SortDiff(std::vector<DiffEntry>& entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const DiffEntry& a, const DiffEntry& b) {
    return std::tie(a.type, a.key) < std::tie(b.type, b.key);
  });
}

}  // namespace tazuna::state
