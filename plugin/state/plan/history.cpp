#include "state/plan/history.hpp"

#include <algorithm>

#include "kube/settled_write.hpp"
#include "state/diff/marks.hpp"
#include "state/store/lease.hpp"
#include "state/store/secret_key.hpp"
#include "state/store/store.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

constexpr RevisionStatus kStatuses[] = {RevisionStatus::kInProgress, RevisionStatus::kSucceeded,
                                        RevisionStatus::kFailed, RevisionStatus::kInterrupted};
// kubectl's verbs in the order a summary lists them; unchanged is no change.
constexpr Verb kSummaryVerbs[] = {Verb::kCreated, Verb::kConfigured, Verb::kAdopted, Verb::kDeleted,
                                  Verb::kKept,    Verb::kConflict,   Verb::kSkipped, Verb::kFailed};

std::string Upper(std::string text) {
  for (char& c : text) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return text;
}

std::string ConfigMapNameOf(const std::string& id) { return kRevisionPrefix + util::ToLower(id); }

util::Error BadField(const std::string& field) {
  return util::MakeError(util::ErrorKind::kInput, StrCat("revision record: field ", util::Quote(field), " has the wrong type"));
}

json ObjectJson(const RevisionObject& o) {
  json j = {{"manifest", o.manifest}, {"key", o.key}, {"verb", o.verb}};
  if (!o.old_hash.empty()) j["oldHash"] = o.old_hash;
  if (!o.new_hash.empty()) j["newHash"] = o.new_hash;
  if (!o.namespace_name.empty()) j["namespace"] = o.namespace_name;
  return j;
}

// nlohmann::json::get throws on a wrong type; this is the one wrapper that catches it.
util::Result<Revision> ParseRevision(const json& j) {
  try {
    Revision r;
    r.id = j.at("id").get<std::string>();
    r.started_at = j.value("startedAt", "");
    r.finished_at = j.value("finishedAt", "");
    const std::string status = j.value("status", "");
    auto it = std::find_if(std::begin(kStatuses), std::end(kStatuses),
                           [&](RevisionStatus s) { return status == RevisionStatusName(s); });
    if (it == std::end(kStatuses)) {
      return util::MakeError(util::ErrorKind::kInput, StrCat("revision record: unknown status ", util::Quote(status)));
    }
    r.status = *it;
    r.user = j.value("user", "");
    r.git_commit = j.value("gitCommit", "");
    r.git_dirty = j.value("gitDirty", false);
    r.version = j.value("version", "");
    const json sel = j.value("selection", json::object());
    r.selection = {sel.value("environment", ""), sel.value("tags", std::vector<std::string>{}),
                   sel.value("manifests", std::vector<std::string>{})};
    r.manifests = j.value("manifests", std::vector<std::string>{});
    r.counts = j.value("counts", std::map<std::string, std::map<std::string, int>>{});
    for (const auto& o : j.value("objects", json::array())) {
      // A record an older version wrote may hold a Secret's plain hash as its old one: never shown.
      const std::string key = o.at("key").get<std::string>();
      r.objects.push_back({o.at("manifest").get<std::string>(), key, o.at("verb").get<std::string>(),
                           ShownHash(key, o.value("oldHash", "")), o.value("newHash", ""), o.value("namespace", "")});
    }
    r.objects_omitted = j.value("objectsOmitted", size_t{0});
    r.plan_digest = j.value("planDigest", "");
    r.lock_holder = j.value("lockHolder", "");
    r.origin = j.value("origin", "");
    return r;
  } catch (const json::exception& e) {
    return BadField(e.what());
  }
}

// Old hashes by manifest and key, as the diff rows recorded them before the sync.
std::map<std::pair<std::string, std::string>, std::string> OldHashes(const std::vector<SyncInput>& inputs) {
  std::map<std::pair<std::string, std::string>, std::string> out;
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) out[{e.manifest, e.key}] = ShownHash(e.parsed, e.old_hash);
  }
  return out;
}

bool Applied(Verb v) { return v == Verb::kCreated || v == Verb::kConfigured || v == Verb::kAdopted; }

}  // namespace

const char* RevisionStatusName(RevisionStatus status) {
  switch (status) {
    case RevisionStatus::kInProgress: return "in-progress";
    case RevisionStatus::kSucceeded: return "succeeded";
    case RevisionStatus::kFailed: return "failed";
    case RevisionStatus::kInterrupted: return "interrupted";
  }
  return "unknown";
}

std::string SelectionFlags(const RevisionSelection& s) {
  std::vector<std::string> parts;
  if (!s.environment.empty()) parts.push_back("-e " + s.environment);
  if (!s.tags.empty()) parts.push_back("-t " + util::Join(s.tags, ","));
  for (const auto& m : s.manifests) parts.push_back("-m " + m);
  return util::Join(parts, " ");
}

namespace {

// The same names, in any order and repeated or not.
bool SameNames(std::vector<std::string> a, std::vector<std::string> b) {
  for (auto* v : {&a, &b}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  return a == b;
}

}  // namespace

bool SelectionAgrees(const RevisionSelection& given, const RevisionSelection& planned) {
  return (given.environment.empty() || given.environment == planned.environment) &&
         (given.tags.empty() || SameNames(given.tags, planned.tags)) &&
         (given.manifests.empty() || SameNames(given.manifests, planned.manifests));
}

json RevisionToJson(const Revision& r) {
  json objects = json::array();
  for (const auto& o : r.objects) objects.push_back(ObjectJson(o));
  return {{"id", r.id},
          {"startedAt", r.started_at},
          {"finishedAt", r.finished_at},
          {"status", RevisionStatusName(r.status)},
          {"user", r.user},
          {"gitCommit", r.git_commit},
          {"gitDirty", r.git_dirty},
          {"version", r.version},
          {"selection",
           {{"environment", r.selection.environment}, {"tags", r.selection.tags}, {"manifests", r.selection.manifests}}},
          {"manifests", r.manifests},
          {"counts", r.counts},
          {"objects", objects},
          {"objectsOmitted", r.objects_omitted},
          {"planDigest", r.plan_digest},
          {"lockHolder", r.lock_holder},
          {"origin", r.origin}};
}

util::Result<Revision> RevisionFromJson(const json& j) {
  if (!j.is_object()) return util::MakeError(util::ErrorKind::kInput, "revision record: not a JSON object");
  return ParseRevision(j);
}

void RecordOutcome(Revision& r, const SyncReport& report, const std::vector<SyncInput>& inputs) {
  const auto old_hashes = OldHashes(inputs);
  r.counts.clear();
  r.objects.clear();
  r.objects_omitted = 0;
  for (const auto& in : inputs) r.counts[in.desired.name];  // a manifest with nothing to do still shows
  for (const auto& row : report.results) {
    ++r.counts[row.manifest][VerbName(row.verb)];
    if (row.verb == Verb::kUnchanged) continue;
    const auto old = old_hashes.find({row.manifest, row.key});
    const auto parsed = ParseStateKey(row.key);
    const bool key_names_it = !parsed || parsed->namespace_name == row.namespace_name;
    r.objects.push_back({row.manifest, row.key, VerbName(row.verb), old == old_hashes.end() ? "" : old->second,
                         Applied(row.verb) ? row.hash : "", key_names_it ? "" : row.namespace_name});
  }
  const bool too_many = r.objects.size() > kMaxRecordedObjects;
  if (too_many || RevisionToJson(r).dump().size() > kMaxRecordBytes) {
    r.objects_omitted = r.objects.size();
    r.objects.clear();
  }
}

std::string ChangeSummary(const Revision& r) {
  std::map<std::string, int> totals;
  for (const auto& [manifest, verbs] : r.counts) {
    for (const auto& [verb, n] : verbs) totals[verb] += n;
  }
  std::vector<std::string> parts;
  for (Verb v : kSummaryVerbs) {
    const auto it = totals.find(VerbName(v));
    if (it != totals.end() && it->second > 0) parts.push_back(StrCat(it->second, " ", it->first));
  }
  return parts.empty() ? "none" : util::Join(parts, ", ");
}

RevisionStatus EffectiveStatus(const Revision& r, const json& lease, std::chrono::system_clock::time_point now) {
  if (r.status != RevisionStatus::kInProgress) return r.status;
  if (!lease.is_object()) return RevisionStatus::kInterrupted;
  const json& spec = util::JsonObject(lease, "spec");
  if (util::JsonString(spec, "holderIdentity") != r.lock_holder || r.lock_holder.empty()) {
    return RevisionStatus::kInterrupted;
  }
  std::chrono::system_clock::time_point renewed;
  if (!util::ParseRfc3339(util::JsonString(spec, "renewTime"), &renewed)) return RevisionStatus::kInProgress;
  // Clamped to a year: a server's number must not overflow the time arithmetic.
  const auto duration =
      std::chrono::seconds(std::clamp<int64_t>(util::JsonInt(spec, "leaseDurationSeconds"), 0, int64_t{366} * 86400));
  return renewed + duration < now ? RevisionStatus::kInterrupted : RevisionStatus::kInProgress;
}

util::Result<Revision> FindRevision(const std::vector<Revision>& revisions, const std::string& id_or_prefix) {
  const std::string want = Upper(id_or_prefix);
  std::vector<const Revision*> hits;
  for (const auto& r : revisions) {
    if (r.id == want) return r;
    if (!want.empty() && util::StartsWith(r.id, want)) hits.push_back(&r);
  }
  if (hits.size() == 1) return *hits[0];
  if (hits.empty()) {
    return util::MakeError(util::ErrorKind::kNotFound, StrCat("revision ", util::Quote(id_or_prefix), " not found"));
  }
  return util::MakeError(util::ErrorKind::kUsage, StrCat("revision prefix ", util::Quote(id_or_prefix), " is ambiguous: it matches ",
                                                         hits.size(), " revisions"));
}

namespace {

// The ConfigMap that records `r` (conditional on r.resource_version when set).
json RevisionConfigMap(const Revision& r) {
  json cm = {{"apiVersion", "v1"},
             {"kind", "ConfigMap"},
             {"metadata",
              {{"name", ConfigMapNameOf(r.id)},
               {"namespace", kStateNamespace},
               {"labels", {{kRevisionLabel, "true"}, {"app.kubernetes.io/managed-by", "tazuna"}}},
               {"annotations", {{kOriginAnnotation, r.origin}}}}},
             {"data", {{"revision", RevisionToJson(r).dump()}}}};
  if (!r.resource_version.empty()) cm["metadata"]["resourceVersion"] = r.resource_version;
  return cm;
}

}  // namespace

util::Status HistoryStore::Create(Revision& r) {
  r.resource_version.clear();
  const json cm = RevisionConfigMap(r);
  // The name is this sync's own (a ULID): a record with our data there is ours, whatever the answer said.
  auto created = kube::WriteSettled(client_, cm, kube::SameData(cm));
  if (!created) return created.error().WithContext("recording revision " + r.id);
  r.resource_version = util::MetaString(*created, "resourceVersion");
  return util::Ok();
}

// Replaces the record Create made, conditional on the version it left: a change by anyone else since is a
// conflict, never overwritten. Without that version (none was read) the record's live one is read first.
util::Status HistoryStore::Update(Revision& r) {
  if (r.resource_version.empty()) {
    auto live = client_.Get({"v1", "ConfigMap", kStateNamespace, ConfigMapNameOf(r.id)});
    if (!live) return live.error().WithContext("recording revision " + r.id);
    r.resource_version = util::MetaString(*live, "resourceVersion");
  }
  const json cm = RevisionConfigMap(r);
  auto updated = kube::WriteSettled(client_, cm, kube::SameData(cm));
  if (!updated) return updated.error().WithContext("recording revision " + r.id);
  r.resource_version = util::MetaString(*updated, "resourceVersion");
  return util::Ok();
}

util::Result<std::vector<Revision>> HistoryStore::List(util::Logger& log) {
  auto items = client_.List("v1", "ConfigMap", kStateNamespace, kRevisionLabel);
  if (!items) return items.error();
  std::vector<Revision> out;
  for (const auto& cm : *items) {
    const std::string name = util::MetaString(cm, "name");
    const json parsed = json::parse(util::JsonString(util::JsonObject(cm, "data"), "revision"), nullptr, false);
    auto r = RevisionFromJson(parsed);
    if (!r) {
      log.Warning(StrCat("skipped ConfigMap ", kStateNamespace, "/", name, ": ", r.error().message));
      continue;
    }
    r->resource_version = util::MetaString(cm, "resourceVersion");
    r->created_at = util::MetaString(cm, "creationTimestamp");
    out.push_back(std::move(*r));
  }
  std::sort(out.begin(), out.end(), [](const Revision& a, const Revision& b) {
    return std::tie(a.created_at, a.id) > std::tie(b.created_at, b.id);
  });
  return out;
}

util::Result<int> HistoryStore::Trim(int limit, const std::string& keep_id, const std::string& origin) {
  if (origin.empty()) return 0;
  auto items = client_.List("v1", "ConfigMap", kStateNamespace, kRevisionLabel, kube::ListDetail::kMetadata);
  if (!items) return items.error();
  // Newest first by the server's clock (creationTimestamp; the ULID, which is the writer's clock, only
  // orders records of the same second): a client whose clock is off neither keeps its records forever
  // nor loses them at once.
  std::vector<std::pair<std::string, std::string>> records;  // creationTimestamp, name
  for (const auto& cm : *items) {
    // A nameless item of a wrong answer must never become a DELETE of the whole collection.
    std::string name = util::MetaString(cm, "name");
    const std::string mark =
        util::JsonString(util::JsonObject(util::JsonObject(cm, "metadata"), "annotations"), kOriginAnnotation);
    if (mark != origin) continue;  // another repository's history is not this sync's to trim
    if (!name.empty()) records.emplace_back(util::MetaString(cm, "creationTimestamp"), std::move(name));
  }
  std::sort(records.rbegin(), records.rend());
  const std::string own = ConfigMapNameOf(keep_id);
  size_t kept = keep_id.empty() ? 0 : 1;  // the trimming sync's own record always stays, and counts
  int deleted = 0;
  for (const auto& [created, name] : records) {
    if (name == own) continue;
    if (kept < static_cast<size_t>(std::max(limit, 1))) {
      ++kept;
      continue;
    }
    auto st = client_.Delete({"v1", "ConfigMap", kStateNamespace, name});
    if (!st && !kube::IsReason(st.error(), "NotFound")) return st.error();
    ++deleted;
  }
  return deleted;
}

util::Result<json> HistoryStore::ReadLease() {
  auto lease = client_.Get({"coordination.k8s.io/v1", "Lease", kStateNamespace, kLeaseName});
  if (!lease && kube::IsReason(lease.error(), "NotFound")) return json();
  return lease;
}

std::string WhoAmI(kube::Client& client) {
  const json review = {{"apiVersion", "authentication.k8s.io/v1"}, {"kind", "SelfSubjectReview"}};
  auto answer = client.Create(review);
  if (answer && answer->is_object()) {
    const std::string user =
        util::JsonString(util::JsonObject(util::JsonObject(*answer, "status"), "userInfo"), "username");
    if (!user.empty()) return user;
  }
  const std::string& name = client.config().user_name;
  return name.empty() ? "unknown" : name;
}

}  // namespace tazuna::state
