#include "state/drift.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "state/live_compare.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

const char* DriftTypeName(DriftType type) { return type == DriftType::kDrifted ? "live-drifted" : "live-missing"; }

namespace {

// nullopt: no drift; otherwise its type. Error for anything but "not found".
util::Result<std::optional<DriftType>> Check(kube::Client& client, const StateKey& k, const std::string& ns,
                                             const json* rendered) {
  auto live = GetLive(client, k, ns);
  if (!live) return live.error();
  if (!*live) return std::optional<DriftType>(DriftType::kMissing);
  if (rendered == nullptr) return std::optional<DriftType>();
  auto merged = DryRunApply(client, *rendered, Marks{k.manifest, ""});  // the origin mark is not content
  if (!merged) return merged.error();
  if (SameContent(**live, *merged)) return std::optional<DriftType>();
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
    if (parsed) {
      if (auto problem = KeyNameProblem(*parsed)) {  // never a request
        return util::MakeError(util::ErrorKind::kInput, util::StrCat("invalid state key ", util::Quote(key), ": ", *problem));
      }
    }
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
