#include "state/plan/drift.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

#include "state/apply/drift_fields.hpp"
#include "state/diff/live_compare.hpp"
#include "state/apply/takeover_apply.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

const char* DriftTypeName(DriftType type) {
  switch (type) {
    case DriftType::kDrifted: return "live-drifted";
    case DriftType::kMissing: return "live-missing";
    case DriftType::kLeftover: return "live-leftover";
  }
  return "unknown";
}

namespace {

struct Found {
  DriftType type = DriftType::kDrifted;
  std::vector<std::string> fields;
};

std::vector<std::string> Described(const std::vector<FieldPath>& paths) {
  std::vector<std::string> out;
  for (const auto& p : paths) out.push_back(DescribeFieldPath(p));
  return out;
}

// Drift of the take-over: fields a sync removes (drifted), or that earlier tools left (leftover).
std::optional<Found> TakeoverDrift(kube::Client& client, const json& live, json merged, const DriftOptions& o) {
  if (o.takeover == nullptr || o.log == nullptr) return std::nullopt;
  const TakeoverContext c{client, *o.log, *o.takeover};
  const TakeoverPreview preview = PreviewTakeover(c, live, std::move(merged), PreviewScope::kLeftovers);
  if (!preview.warning.empty()) o.log->Warning(preview.warning);
  if (!preview.removed.empty()) return Found{DriftType::kDrifted, Described(preview.removed)};
  if (!preview.leftovers.empty()) return Found{DriftType::kLeftover, Described(preview.leftovers)};
  return std::nullopt;
}

const std::vector<manifest::YieldRule>& YieldsOf(const DriftOptions& o) {
  static const std::vector<manifest::YieldRule> kNone;
  return o.yields != nullptr ? *o.yields : kNone;
}

// One object checked with requests of its own: read live, and (when rendered) a dry-run apply of the render
// without the fields a sync would leave to other writers (`owner`'s, when listed). `hint`: what its ownership
// named, for the FIELDS of a drifted row. nullopt: no drift; otherwise what it is. Error for anything but
// "not found".
util::Result<std::optional<Found>> Check(kube::Client& client, const StateKey& k, const std::string& ns,
                                         const json* rendered, const LiveOwner* owner, std::vector<std::string> hint,
                                         const DriftOptions& o, CrdIndex& crds) {
  auto live = GetLive(client, k, ns, &crds);
  if (!live) return live.error();
  if (!*live) return std::optional<Found>(Found{DriftType::kMissing, {}});
  if (rendered == nullptr) return std::optional<Found>();
  json applied = *rendered;
  if (owner != nullptr && owner->fields != nullptr) {
    StripYielded(applied, {k.group, k.kind, ns, k.name}, *owner->fields, YieldsOf(o));
  }
  auto merged = DryRunApply(client, applied, Marks{k.manifest, ""});  // the origin mark is not content
  if (!merged && merged.error().kind != util::ErrorKind::kInput && !kube::IsReason(merged.error(), "Invalid")) {
    return merged.error();
  }
  if (!merged) {  // the server refuses the render as it stands (a field that cannot change changed): it differs
    if (o.log != nullptr) {
      std::string why = util::Split(merged.error().message, '\n').front();
      if (why.size() > 240) why = why.substr(0, 120) + " ... " + why.substr(why.size() - 100);  // a Go struct dump
      o.log->Warning(util::StrCat(k.kind, " ", ns.empty() ? "" : ns + "/", k.name,
                                  ": the server refuses applying its render (", why, ")"));
    }
    return std::optional<Found>(Found{DriftType::kDrifted, {"(applying the render is refused)"}});
  }
  const bool same = SameContent(**live, *merged);
  std::optional<Found> taken = TakeoverDrift(client, **live, std::move(*merged), o);
  if (same) return taken;
  Found drifted{DriftType::kDrifted, taken ? std::move(taken->fields) : std::move(hint)};
  return std::optional<Found>(std::move(drifted));
}

}  // namespace

bool NeedsDryRun(const json& rendered, const std::string& hash, const std::string& stored_hash, const ObjectIdentity& id,
                 const LiveOwner& live, const DriftOptions& options, std::vector<std::string>* fields) {
  if (live.fields == nullptr) return true;
  std::vector<std::string> named;
  for (const auto& t : TakenFields(&rendered, id, *live.fields, YieldsOf(options))) named.push_back(DescribeFieldPath(t.path));
  for (const auto& p : UnownedFields(rendered, id, *live.fields, YieldsOf(options))) named.push_back(DescribeFieldPath(p));
  const bool changed = hash.empty() || hash != stored_hash || !named.empty();
  if (fields != nullptr) *fields = std::move(named);
  if (changed || options.takeover == nullptr) return changed;
  // Leftovers of an earlier tool are looked for (TakeoverDrift) wherever such a tool owns fields.
  // tazuna's own Apply entry is not one (the Go tazuna's Update entries are).
  return std::any_of(live.managers.begin(), live.managers.end(), [&](const std::string& m) {
    return options.takeover->names.count(m) > 0 && (m != kTazunaManager || live.fields->tazuna_update);
  });
}

util::Result<std::vector<DriftEntry>> Drift(kube::Client& client, const DesiredManifest& desired,
                                            const ManifestState& stored, IdentityResolver& ids,
                                            const DriftOptions& options) {
  std::map<ObjectIdentity, const DesiredObject*> rendered;
  for (const auto& d : desired.objects) rendered.emplace(d.identity, &d);
  const std::vector<std::pair<std::string, std::string>> entries(stored.entries.begin(), stored.entries.end());
  std::vector<std::optional<ObjectIdentity>> identities;
  for (const auto& [key, hash] : entries) {
    auto parsed = ParseStateKey(key);
    if (parsed) {
      if (auto problem = KeyNameProblem(*parsed)) {  // never a request
        return util::MakeError(util::ErrorKind::kInput, util::StrCat("invalid state key ", util::Quote(key), ": ", *problem));
      }
    }
    identities.push_back(parsed ? std::optional<ObjectIdentity>(ids.ResolveStored(*parsed, stored.metadata.context_namespace))
                                : std::nullopt);
  }
  std::vector<DriftEntry> out;
  std::optional<util::Error> failure;
  std::mutex mu;
  CrdIndex crds;  // for objects of kinds nothing serves: the CRDs listed once
  util::ParallelFor(entries.size(), options.concurrency, [&](size_t i) {
    auto parsed = ParseStateKey(entries[i].first);
    if (!parsed || !identities[i]) return;  // unreadable keys are reported by `state list`
    const auto it = rendered.find(*identities[i]);
    const DesiredObject* d = it == rendered.end() ? nullptr : it->second;
    const json* object = d == nullptr ? nullptr : &d->object;
    // An object the LISTs found that is no longer rendered, or is unchanged in content and ownership, takes no
    // request. One they did not find is read (ReadLive tells a kind no longer served from a gone object).
    const LiveOwner* owner = nullptr;
    std::vector<std::string> hint;
    const auto found = options.listed != nullptr ? options.listed->find(*identities[i]) : LiveOwners::const_iterator();
    if (options.listed != nullptr && found != options.listed->end()) {
      owner = &found->second;
      if (d == nullptr) return;  // no longer rendered: only its presence is checked
      if (!NeedsDryRun(d->object, d->hash_state == HashState::kKnown ? d->hash : "", entries[i].second, d->identity,
                       *owner, options, &hint)) {
        return;
      }
    }
    auto result = Check(client, *parsed, identities[i]->namespace_name, object, owner, std::move(hint), options, crds);
    std::lock_guard<std::mutex> lock(mu);
    if (!result) {
      if (!failure) failure = result.error();
    } else if (*result) {
      out.push_back({desired.name, (*result)->type, entries[i].first, *parsed, identities[i]->namespace_name,
                     entries[i].second, std::move((*result)->fields)});
    }
  });
  if (failure) return *failure;
  std::sort(out.begin(), out.end(), [](const DriftEntry& a, const DriftEntry& b) {
    return std::tie(a.type, a.key) < std::tie(b.type, b.key);
  });
  return out;
}

}  // namespace tazuna::state
