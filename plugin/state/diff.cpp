#include "state/diff.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace tazuna::state {

const char* ChangeTypeName(ChangeType type) {
  switch (type) {
    case ChangeType::kAdded: return "added";
    case ChangeType::kModified: return "modified";
    case ChangeType::kRemoved: return "removed";
    case ChangeType::kAlwaysSync: return "always-sync";
  }
  return "unknown";
}

namespace {

// Identity that survives an apiVersion change: group, kind, namespace, name.
std::string Identity(const StateKey& k) {
  return k.group + '\x1f' + k.kind + '\x1f' + k.namespace_name + '\x1f' + k.name;
}

}  // namespace

std::vector<DiffEntry> Diff(const DesiredManifest& desired, const ManifestState& stored) {
  std::vector<DiffEntry> out;
  std::set<std::string> rendered_keys;
  std::map<std::string, int> added_by_identity;  // identity -> index in `out`
  for (size_t i = 0; i < desired.objects.size(); ++i) {
    const DesiredObject& d = desired.objects[i];
    rendered_keys.insert(d.key_string);
    DiffEntry e{desired.name, ChangeType::kAdded, d.key_string, d.key, "", "", d.hash, static_cast<int>(i)};
    const auto it = stored.entries.find(d.key_string);
    if (desired.always_sync) {
      e.type = ChangeType::kAlwaysSync;
      if (it != stored.entries.end()) e.old_hash = it->second;
    } else if (it == stored.entries.end()) {
      added_by_identity[Identity(d.key)] = static_cast<int>(out.size());
    } else if (it->second != d.hash) {
      e.type = ChangeType::kModified;
      e.old_hash = it->second;
    } else {
      continue;
    }
    out.push_back(std::move(e));
  }
  for (const auto& [key, hash] : stored.entries) {
    if (rendered_keys.count(key) > 0) continue;
    auto parsed = ParseStateKey(key);
    StateKey k = parsed ? *parsed : StateKey{};
    const auto moved = added_by_identity.find(Identity(k));
    if (parsed && moved != added_by_identity.end() && out[moved->second].old_key.empty()) {
      DiffEntry& e = out[moved->second];  // same object under a new apiVersion
      e.type = desired.always_sync ? ChangeType::kAlwaysSync : ChangeType::kModified;
      e.old_key = key;
      e.old_hash = hash;
      continue;
    }
    out.push_back({desired.name, ChangeType::kRemoved, key, k, "", hash, "", -1});
  }
  SortDiff(out);
  return out;
}

void SortDiff(std::vector<DiffEntry>& entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const DiffEntry& a, const DiffEntry& b) {
    return std::tie(a.type, a.key) < std::tie(b.type, b.key);
  });
}

}  // namespace tazuna::state
