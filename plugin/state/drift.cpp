#include "state/drift.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "state/marks.hpp"
#include "util/parallel.hpp"

namespace tazuna::state {

using nlohmann::json;

const char* DriftTypeName(DriftType type) { return type == DriftType::kDrifted ? "live-drifted" : "live-missing"; }

namespace {

// Fields the server changes on every write or that say nothing about content.
json Normalized(json object) {
  object.erase("status");
  if (object.contains("metadata") && object["metadata"].is_object()) {
    for (const char* field : {"managedFields", "resourceVersion", "generation", "creationTimestamp", "uid"}) {
      object["metadata"].erase(field);
    }
  }
  return object;
}

bool IsGone(const util::Error& e) { return kube::IsReason(e, "NotFound") || e.kind == util::ErrorKind::kNotFound; }

// nullopt: no drift; otherwise its type. Error for anything but "not found".
util::Result<std::optional<DriftType>> Check(kube::Client& client, const StateKey& k, const std::string& ns,
                                             const json* rendered) {
  auto live = client.Get({k.ApiVersion(), k.kind, ns, k.name});
  if (!live) {
    if (IsGone(live.error())) return std::optional<DriftType>(DriftType::kMissing);
    return live.error();
  }
  if (rendered == nullptr) return std::optional<DriftType>();
  kube::ApplyOptions dry;
  dry.dry_run = kube::DryRun::kAll;
  auto merged = client.Apply(WithOwnershipMarks(*rendered, k.manifest), dry);  // as sync applies it
  if (!merged) return merged.error();
  if (Normalized(*live) == Normalized(*merged)) return std::optional<DriftType>();
  return std::optional<DriftType>(DriftType::kDrifted);
}

}  // namespace

util::Result<std::vector<DriftEntry>> Drift(kube::Client& client, const DesiredManifest& desired,
                                            const ManifestState& stored, IdentityResolver& ids, int concurrency) {
  std::map<ObjectIdentity, const json*> rendered;
  for (const auto& d : desired.objects) rendered.emplace(d.identity, &d.object);
  const std::vector<std::pair<std::string, std::string>> entries(stored.entries.begin(), stored.entries.end());
  std::vector<std::optional<ObjectIdentity>> identities;
  for (const auto& [key, hash] : entries) {
    auto parsed = ParseStateKey(key);
    identities.push_back(parsed ? std::optional<ObjectIdentity>(ids.Resolve(*parsed)) : std::nullopt);
  }
  std::vector<DriftEntry> out;
  std::optional<util::Error> failure;
  std::mutex mu;
  util::ParallelFor(entries.size(), concurrency, [&](size_t i) {
    auto parsed = ParseStateKey(entries[i].first);
    if (!parsed || !identities[i]) return;  // unreadable keys are reported by `state list`
    const auto it = rendered.find(*identities[i]);
    auto result = Check(client, *parsed, identities[i]->namespace_name, it == rendered.end() ? nullptr : it->second);
    std::lock_guard<std::mutex> lock(mu);
    if (!result) {
      if (!failure) failure = result.error();
    } else if (*result) {
      out.push_back({desired.name, **result, entries[i].first, *parsed, entries[i].second});
    }
  });
  if (failure) return *failure;
  std::sort(out.begin(), out.end(), [](const DriftEntry& a, const DriftEntry& b) {
    return std::tie(a.type, a.key) < std::tie(b.type, b.key);
  });
  return out;
}

}  // namespace tazuna::state
