#include "state/plan/plan_file.hpp"
#include "state/store/secret_key.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "util/secret_mask.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"
#include "util/url_redact.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

constexpr char kPlanApiVersion[] = "tazuna.pepabo.com/v1";
constexpr char kPlanKind[] = "Plan";

// PlanObject::digest of `d`: "" for a Secret (a plain digest of its values would let them be guessed).
std::string ObjectDigest(const DesiredObject& d) {
  if (util::IsSecret(d.object)) return "";
  return "sha256:" + util::Sha256Hex(d.object.dump());
}

json LiveJson(const PlanLive& l) {
  return {{"exists", l.exists},   {"uid", l.uid},
          {"manifest", l.manifest}, {"origin", l.origin},
          {"tazunaManager", l.tazuna_manager}, {"managers", l.managers}};
}

json TargetJson(const PlanTarget& t) {
  const json flags = {{"prune", t.prune},
                      {"allowEmpty", t.allow_empty},
                      {"takeOwnership", t.take_ownership},
                      {"takeoverManagers", t.takeover_managers},
                      {"repair", t.repair}};
  // A password in the server URL never reaches the file (kubectl's `user:***@host`).
  return {{"server", util::RedactUrlPasswords(t.server)},
          {"clusterUID", t.cluster_uid},
          {"clusterRootCAUID", t.cluster_root_ca_uid},
          {"caDigest", t.ca_digest},
          {"contextNamespace", t.context_namespace},
          {"origin", t.origin},
          {"flags", flags}};
}

json ToJson(const Plan& p) {
  json changes = json::array(), objects = json::array(), states = json::array();
  for (const auto& r : p.changes) {
    changes.push_back({{"manifest", r.manifest}, {"change", r.change}, {"key", r.key}, {"oldKey", r.old_key},
                       {"oldHash", r.old_hash}, {"newHash", r.new_hash}, {"live", LiveJson(r.live)}});
  }
  for (const auto& o : p.objects) {
    objects.push_back({{"manifest", o.manifest}, {"key", o.key}, {"hash", o.hash}, {"digest", o.digest}});
  }
  for (const auto& s : p.states) {
    states.push_back({{"manifest", s.manifest}, {"configMap", s.config_map}, {"resourceVersion", s.resource_version}});
  }
  return {{"apiVersion", kPlanApiVersion},
          {"kind", kPlanKind},
          {"createdAt", p.created_at},
          {"target", TargetJson(p.target)},
          {"selection",
           {{"environment", p.selection.environment}, {"tags", p.selection.tags}, {"manifests", p.selection.manifests}}},
          {"manifests", p.manifests},
          {"changes", changes},
          {"objects", objects},
          {"states", states}};
}

std::string Str(const json& j, const char* key) { return j.at(key).get<std::string>(); }

// A plan that names no target, or pins neither the live objects its rows saw nor --takeover-managers,
// was made by an older version: it cannot vouch for what it did not record.
std::optional<std::string> OlderPlan(const json& j) {
  if (!j.contains("target")) return "it names no target (server, namespace, flags)";
  const json& flags = j.at("target").at("flags");
  bool pinned = flags.is_object() && flags.contains("takeoverManagers");
  for (const auto& r : j.at("changes")) pinned = pinned && r.is_object() && r.contains("live");
  if (!pinned) return "it does not record the live objects it saw (made by an older version of tazuna)";
  if (!j.at("target").contains("origin")) {
    return "it does not record its repository (made by an older version of tazuna)";
  }
  for (const auto& o : j.at("objects")) {
    if (!o.is_object() || !o.contains("digest")) {
      return "it pins only the state's hashes, which leave out status (made by an older version of tazuna)";
    }
  }
  return std::nullopt;
}

PlanTarget TargetFromJson(const json& t) {
  const json& flags = t.at("flags");
  return {Str(t, "server"),
          Str(t, "clusterUID"),
          Str(t, "caDigest"),
          Str(t, "contextNamespace"),
          flags.at("prune").get<bool>(),
          flags.at("allowEmpty").get<bool>(),
          flags.at("takeOwnership").get<bool>(),
          flags.at("takeoverManagers").get<std::vector<std::string>>(),
          Str(t, "origin"),
          flags.contains("repair") ? Str(flags, "repair") : "",
          t.contains("clusterRootCAUID") ? Str(t, "clusterRootCAUID") : ""};
}

PlanRow RowFromJson(const json& r) {
  const json& l = r.at("live");
  const PlanLive live{l.at("exists").get<bool>(), Str(l, "uid"), Str(l, "manifest"), Str(l, "origin"),
                      l.at("tazunaManager").get<bool>(), l.at("managers").get<std::vector<std::string>>()};
  return {Str(r, "manifest"), Str(r, "change"), Str(r, "key"), Str(r, "oldKey"), Str(r, "oldHash"), Str(r, "newHash"),
          live};
}

// nlohmann::json throws on a wrong type; this is the one wrapper that catches it.
util::Result<Plan> FromJson(const json& j) {
  try {
    if (j.at("apiVersion") != kPlanApiVersion || j.at("kind") != kPlanKind) {
      return util::MakeError(util::ErrorKind::kInput, StrCat("invalid plan: not a ", kPlanApiVersion, " ", kPlanKind));
    }
    if (const auto older = OlderPlan(j)) {
      return util::MakeError(util::ErrorKind::kInput,
                             StrCat("invalid plan: ", *older, "; make it again with state diff --out"));
    }
    Plan p;
    p.created_at = j.at("createdAt").get<std::string>();
    p.target = TargetFromJson(j.at("target"));
    const json& sel = j.at("selection");
    p.selection = {sel.at("environment").get<std::string>(), sel.at("tags").get<std::vector<std::string>>(),
                   sel.at("manifests").get<std::vector<std::string>>()};
    p.manifests = j.at("manifests").get<std::vector<std::string>>();
    for (const auto& r : j.at("changes")) p.changes.push_back(RowFromJson(r));
    for (const auto& o : j.at("objects")) {
      p.objects.push_back({Str(o, "manifest"), Str(o, "key"), Str(o, "hash"), Str(o, "digest")});
    }
    for (const auto& s : j.at("states")) {
      p.states.push_back({Str(s, "manifest"), Str(s, "configMap"), Str(s, "resourceVersion")});
    }
    return p;
  } catch (const json::exception& e) {
    return util::MakeError(util::ErrorKind::kInput, StrCat("invalid plan: ", e.what()));
  }
}

// kubectl's `kind.group/name -n namespace`, e.g. `deployment.apps/web -n x`.
std::string Describe(const std::string& key) {
  auto k = ParseStateKey(key);
  if (!k) return key;
  return StrCat(util::ToLower(k->kind), k->group.empty() ? "" : "." + k->group, "/", k->name,
                k->namespace_name.empty() ? "" : " -n " + k->namespace_name);
}

util::Error Stale(const std::string& why) {
  auto e = util::MakeError(util::ErrorKind::kConflict, "plan is stale: " + why);
  e.hint = "Nothing was written. Run `kubectl tazuna state diff --out FILE` again and review the new plan.";
  return e;
}

util::Status CheckStates(const Plan& plan, const std::vector<SyncInput>& inputs, const RevisionOfManifest& revision_of) {
  std::map<std::string, std::vector<PlanState>> planned, now;
  for (const auto& s : plan.states) planned[s.manifest].push_back(s);
  for (const auto& s : MakePlan({}, inputs, "", {}).states) now[s.manifest].push_back(s);
  for (const auto& [manifest, states] : now) {
    if (planned[manifest] == states) continue;
    const std::string revision = revision_of ? revision_of(manifest) : "";
    return Stale(StrCat("manifest ", util::Quote(manifest), " state changed since the plan",
                        revision.empty() ? "" : " (revision " + revision + ")"));
  }
  return util::Ok();
}

util::Status CheckObjects(const Plan& plan, const std::vector<SyncInput>& inputs) {
  std::map<std::pair<std::string, std::string>, const PlanObject*> planned;
  for (const auto& o : plan.objects) planned[{o.manifest, o.key}] = &o;
  for (const auto& in : inputs) {
    for (const auto& d : in.desired.objects) {
      const auto it = planned.find({in.desired.name, d.key_string});
      if (it == planned.end()) return Stale(StrCat("object ", Describe(d.key_string), " is rendered but was not planned"));
      const PlanObject& p = *it->second;
      if (p.hash != d.hash || d.hash_state != HashState::kKnown) {
        if (p.hash.empty() || d.hash_state != HashState::kKnown) {
          return util::MakeError(util::ErrorKind::kInput,
                                 StrCat("a plan cannot vouch for object ", Describe(d.key_string),
                                        ": its hash is unknown (the Secret hash key was missing or unreadable)"));
        }
        return Stale(StrCat("object ", Describe(d.key_string), " renders differently than planned"));
      }
      // The hash leaves status out; the digest does not (status is applied where the CRD has no subresource).
      if (p.digest != ObjectDigest(d)) {
        return Stale(StrCat("object ", Describe(d.key_string),
                            " renders differently than planned (in a field the state's hash leaves out, such as status)"));
      }
      planned.erase(it);
    }
  }
  if (!planned.empty()) {
    return Stale(StrCat("object ", Describe(planned.begin()->first.second), " is no longer rendered"));
  }
  return util::Ok();
}

// What `live` says of the object of row `e` (a removed row whose key names no object is never read).
PlanLive LiveOf(const DiffEntry& e, const LiveOwners& live) {
  const auto it = live.find(e.identity);
  if (it == live.end() || (e.type == ChangeType::kRemoved && !e.valid_key)) return {};
  const LiveOwner& o = it->second;
  std::vector<std::string> managers = o.managers;
  std::sort(managers.begin(), managers.end());
  return {true, o.uid, o.manifest, o.origin, o.tazuna_manager, std::move(managers)};
}

// Who owns a live object, for messages: its marks, then its field managers.
std::string OwnerText(const PlanLive& l) {
  std::string marks;
  if (!l.manifest.empty()) marks = StrCat("manifest ", util::Quote(l.manifest));
  if (!l.origin.empty()) {
    marks += StrCat(marks.empty() ? "" : " ", "of repository ", Origin::FromMark(l.origin).Describe());
  }
  const std::string managers =
      l.managers.empty() ? "no field managers" : "field managers " + util::Join(l.managers, ", ");
  return marks.empty() ? managers : StrCat(marks, ", ", managers);
}

// `l` with only the field managers a sync acts on (those it takes over, `takeover`): a controller that starts
// writing an object's status, or a scale, changes nothing a sync does and does not make a plan stale.
PlanLive ActedOn(PlanLive l, const std::vector<std::string>& takeover) {
  std::erase_if(l.managers, [&](const std::string& m) {
    return std::find(takeover.begin(), takeover.end(), m) == takeover.end();
  });
  return l;
}

// Whether the object of one row is as the plan saw it: absent still, or the same object with the same owner.
util::Status CheckLiveRow(const PlanRow& row, const PlanLive& now, const std::vector<std::string>& takeover) {
  const PlanLive& was = row.live;
  if (ActedOn(was, takeover) == ActedOn(now, takeover)) return util::Ok();
  const std::string object = StrCat("object ", Describe(row.key));
  if (!was.exists) return Stale(StrCat(object, " was created since the plan (now ", OwnerText(now), ")"));
  if (!now.exists) return Stale(StrCat(object, " was deleted since the plan"));
  if (was.uid != now.uid) {
    return Stale(
        StrCat(object, " was deleted and created again since the plan (uid ", was.uid, ", now ", now.uid, ")"));
  }
  return Stale(StrCat(object, " changed owner since the plan (was ", OwnerText(was), "; now ", OwnerText(now), ")"));
}

// A missing row the plan does not show: its object went missing after the plan was made (or the plan was
// made without --repair=missing). It is reported, not recreated: the reviewed plan did not say so.
util::Status CheckNewlyMissing(const Plan& plan, const Plan& now) {
  const std::string missing = ChangeTypeName(ChangeType::kMissing);
  std::set<std::pair<std::string, std::string>> planned;
  for (const auto& r : plan.changes) {
    if (r.change == missing) planned.emplace(r.manifest, r.key);
  }
  for (const auto& r : now.changes) {
    if (r.change == missing && planned.count({r.manifest, r.key}) == 0) {
      return Stale(StrCat("object ", Describe(r.key), " was deleted since the plan (the plan does not recreate it)"));
    }
  }
  return util::Ok();
}

// The rows of `plan` and of `inputs` are the same, in the same order (CheckPlan compared them first).
util::Status CheckLive(const Plan& plan, const std::vector<SyncInput>& inputs, const LiveRead& live) {
  size_t i = 0;
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) {
      const PlanRow& row = plan.changes[i++];
      if (live.unknown.count(e.identity) > 0 && (e.type != ChangeType::kRemoved || e.valid_key)) {
        auto err = util::MakeError(util::ErrorKind::kConflict,
                                   StrCat("plan cannot be checked: who owns object ", Describe(row.key),
                                          " cannot be read (see the warning above)"));
        err.hint = "Nothing was written. Sync with a user that can list it, or without --plan.";
        return err;
      }
      if (auto st = CheckLiveRow(row, LiveOf(e, live.owners), plan.target.takeover_managers); !st) return st;
    }
  }
  return util::Ok();
}

}  // namespace

Plan MakePlan(const RevisionSelection& selection, const std::vector<SyncInput>& inputs, std::string created_at,
              const LiveOwners& live) {
  Plan p;
  p.created_at = std::move(created_at);
  p.selection = selection;
  for (const auto& in : inputs) {
    p.manifests.push_back(in.desired.name);
    for (const auto& e : in.diff) {
      p.changes.push_back({e.manifest, ChangeTypeName(e.type), e.key, e.old_key, ShownHash(e.parsed, e.old_hash),
                           e.new_hash, LiveOf(e, live)});
    }
    for (const auto& d : in.desired.objects) {
      p.objects.push_back({in.desired.name, d.key_string, d.hash_state == HashState::kKnown ? d.hash : "", ObjectDigest(d)});
    }
    if (in.stored.objects.empty()) p.states.push_back({in.desired.name, ConfigMapName(in.desired.name), ""});
    for (const auto& o : in.stored.objects) p.states.push_back({in.desired.name, o.name, o.resource_version});
  }
  return p;
}

std::string EncodePlan(const Plan& plan) { return ToJson(plan).dump(2) + "\n"; }

util::Result<Plan> DecodePlan(const std::string& text) {
  const json j = json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return util::MakeError(util::ErrorKind::kInput, "invalid plan: not a JSON object");
  return FromJson(j);
}

std::string PlanDigest(const Plan& plan) { return "sha256:" + util::Sha256Hex(EncodePlan(plan)); }

namespace {

// Whether two rows make the same change (what their objects are live aside).
bool SameChange(PlanRow a, const PlanRow& b) {
  a.live = b.live;
  return a == b;
}

// --takeover-managers as a set: `default`, `none`, or the names.
std::string TakeoverText(std::vector<std::string> names) {
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  const std::set<std::string>& defaults = DefaultTakeoverManagers().names;
  if (names == std::vector<std::string>(defaults.begin(), defaults.end())) return "default";
  return names.empty() ? "none" : util::Join(names, ",");
}

std::string Flags(const PlanTarget& t) {
  std::vector<std::string> on;
  if (t.prune) on.push_back("--prune");
  if (t.allow_empty) on.push_back("--allow-empty");
  if (t.take_ownership) on.push_back("--take-ownership");
  return on.empty() ? "no flags" : util::Join(on, " ");
}

// "the cluster whose kube-system namespace has uid U" and the like, for a refused plan.
std::string ClusterText(const ClusterIds& c) {
  if (!c.kube_system_uid.empty()) return StrCat("whose kube-system namespace has uid ", c.kube_system_uid);
  if (!c.root_ca_uid.empty()) return StrCat("whose ConfigMap tazuna/kube-root-ca.crt has uid ", c.root_ca_uid);
  return "whose identity could not be read";
}

util::Error OtherTarget(const std::string& what, const std::string& planned, const std::string& now) {
  auto e = util::MakeError(util::ErrorKind::kConflict,
                           StrCat("plan was made for ", what, " ", planned, ", this sync is for ", now));
  e.hint = "Nothing was written. Sync with the target the plan was made for, or make a new plan for this one.";
  return e;
}

}  // namespace

Sameness CompareClusters(const ClusterIds& a, const ClusterIds& b) {
  if (!a.kube_system_uid.empty() && !b.kube_system_uid.empty()) {
    return a.kube_system_uid == b.kube_system_uid ? Sameness::kSame : Sameness::kOther;
  }
  if (!a.root_ca_uid.empty() && !b.root_ca_uid.empty()) {
    return a.root_ca_uid == b.root_ca_uid ? Sameness::kSame : Sameness::kOther;
  }
  return Sameness::kUnknown;
}

util::Status CheckPlanTarget(const Plan& plan, const PlanTarget& now) {
  const PlanTarget& p = plan.target;
  // Compared as written: with any password masked (a plan from an older version may hold it in clear).
  const std::string planned_server = util::RedactUrlPasswords(p.server);
  const std::string server = util::RedactUrlPasswords(now.server);
  if (planned_server != server) return OtherTarget("server", planned_server, server);
  if (p.ca_digest != now.ca_digest) {
    return OtherTarget("the certificate authority", p.ca_digest.empty() ? "of the system store" : p.ca_digest,
                       now.ca_digest.empty() ? "of the system store" : now.ca_digest);
  }
  // Identity is known or refused: a plan made without one (--insecure-skip-cluster-identity) applies only
  // where it cannot be read either, and with that flag again (the sync refuses otherwise).
  const ClusterIds planned_ids{p.cluster_uid, p.cluster_root_ca_uid}, ids{now.cluster_uid, now.cluster_root_ca_uid};
  if (planned_ids.Known() || ids.Known()) {
    if (CompareClusters(planned_ids, ids) != Sameness::kSame) {
      return OtherTarget("the cluster", ClusterText(planned_ids), "the cluster " + ClusterText(ids));
    }
  }
  if (p.context_namespace != now.context_namespace) {
    return OtherTarget("context namespace", util::Quote(p.context_namespace), util::Quote(now.context_namespace));
  }
  if (Flags(p) != Flags(now)) return OtherTarget("a sync with", Flags(p), Flags(now));
  // Which repairs the rows hold (missing, drifted): another --repair would apply other rows.
  if (!p.repair.empty() && p.repair != now.repair) {
    return OtherTarget("a sync with", "--repair=" + p.repair, "--repair=" + now.repair);
  }
  if (TakeoverText(p.takeover_managers) != TakeoverText(now.takeover_managers)) {
    return OtherTarget("a sync with", "--takeover-managers=" + TakeoverText(p.takeover_managers),
                       "--takeover-managers=" + TakeoverText(now.takeover_managers));
  }
  // Another checkout's sync would mark the states and objects as its own: not what was reviewed.
  if (p.origin != now.origin) {
    return OtherTarget("repository", Origin::FromMark(p.origin).Describe(), Origin::FromMark(now.origin).Describe());
  }
  return util::Ok();
}

util::Status CheckPlan(const Plan& plan, const std::vector<SyncInput>& inputs, const LiveRead& live,
                       const RevisionOfManifest& revision_of) {
  std::vector<std::string> manifests;
  for (const auto& in : inputs) manifests.push_back(in.desired.name);
  if (manifests != plan.manifests) {
    return Stale(StrCat("it was made for manifests ", util::Join(plan.manifests, ", "), ", this sync selects ",
                        manifests.empty() ? "none" : util::Join(manifests, ", ")));
  }
  if (auto st = CheckStates(plan, inputs, revision_of); !st) return st;
  if (auto st = CheckObjects(plan, inputs); !st) return st;
  // The rows first, as the diff printed them; then what each row's object is live.
  const Plan now = MakePlan(plan.selection, inputs, plan.created_at, {});
  if (auto st = CheckNewlyMissing(plan, now); !st) return st;
  for (size_t i = 0; i < std::max(now.changes.size(), plan.changes.size()); ++i) {
    if (i < now.changes.size() && i < plan.changes.size() && SameChange(now.changes[i], plan.changes[i])) continue;
    const PlanRow& row = i < now.changes.size() ? now.changes[i] : plan.changes[i];
    return Stale(StrCat("object ", Describe(row.key), " would change differently than planned"));
  }
  return CheckLive(plan, inputs, live);
}

bool StatesRecordPlan(const Plan& plan, const std::vector<SyncInput>& inputs) {
  std::map<std::string, std::map<std::string, std::string>> planned;  // manifest -> key -> hash
  for (const auto& m : plan.manifests) planned[m];
  for (const auto& o : plan.objects) planned[o.manifest][o.key] = o.hash;
  size_t seen = 0;
  for (const auto& in : inputs) {
    const auto it = planned.find(in.desired.name);
    if (it == planned.end()) continue;
    ++seen;
    const ManifestState& st = in.stored;
    if (!st.exists() || st.metadata.origin.Mark() != plan.target.origin || st.entries.size() != it->second.size()) {
      return false;
    }
    for (const auto& [key, hash] : it->second) {
      const auto e = st.entries.find(key);
      if (e == st.entries.end() || (!hash.empty() && e->second != hash)) return false;
    }
  }
  return seen == planned.size();
}

std::map<ObjectIdentity, std::string> PlannedPruneUids(const std::vector<SyncInput>& inputs, const LiveOwners& live) {
  std::map<ObjectIdentity, std::string> uids;
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) {
      if (e.type != ChangeType::kRemoved || !e.valid_key) continue;
      const auto it = live.find(e.identity);
      uids[e.identity] = it == live.end() ? "" : it->second.uid;
    }
  }
  return uids;
}

std::string PlanObjectDigest(const DesiredObject& d) { return ObjectDigest(d); }

}  // namespace tazuna::state
