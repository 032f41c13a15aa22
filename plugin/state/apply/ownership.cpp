#include "state/apply/ownership.hpp"

#include <algorithm>
#include <mutex>
#include <set>
#include <tuple>
#include <vector>

#include "state/apply/drift_fields.hpp"
#include "state/diff/live_compare.hpp"
#include "state/store/lease.hpp"
#include "state/diff/marks.hpp"
#include "state/store/secret_key.hpp"
#include "util/json_get.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

std::string Where(const DesiredObject& d) { return d.source.empty() ? "" : " (" + d.source + ")"; }

}  // namespace

bool IsReserved(const ObjectIdentity& id) {
  if (id.namespace_name != kStateNamespace) return false;
  if (id.group.empty() && id.kind == "ConfigMap") {
    return util::StartsWith(id.name, kConfigMapPrefix) || util::StartsWith(id.name, kRevisionPrefix);
  }
  if (id.group.empty() && id.kind == "Secret") return id.name == kStateKeySecret;
  return id.group == "coordination.k8s.io" && id.kind == "Lease" && id.name == kLeaseName;
}

namespace {

bool Wanted(const DiffEntry& e, OwnerRows rows) {
  if (rows == OwnerRows::kNone) return false;
  if (e.type == ChangeType::kRemoved) return rows == OwnerRows::kChanges && e.valid_key;
  return rows != OwnerRows::kAdded || e.type == ChangeType::kAdded;
}

}  // namespace

util::Status CheckRenderedOnce(const std::vector<DesiredManifest>& manifests) {
  std::map<ObjectIdentity, std::pair<const DesiredManifest*, const DesiredObject*>> seen;
  for (const auto& m : manifests) {
    for (const auto& d : m.objects) {
      const auto [it, fresh] = seen.emplace(d.identity, std::make_pair(&m, &d));
      if (fresh) continue;
      const auto& [first_m, first_d] = it->second;
      const std::string who =
          first_m == &m ? StrCat("twice by manifest ", util::Quote(m.name), " (", first_d->source, " and ", d.source, ")")
                        : StrCat("by manifests ", util::Quote(first_m->name), Where(*first_d), " and ",
                                 util::Quote(m.name), Where(d));
      auto e = util::MakeError(util::ErrorKind::kInput, StrCat(d.identity.Describe(), " is rendered ", who));
      e.hint = "An object can belong to one manifest only: remove it from all but one.";
      return e;
    }
  }
  return util::Ok();
}

util::Status CheckNotReserved(const std::vector<DesiredManifest>& manifests) {
  for (const auto& m : manifests) {
    for (const auto& d : m.objects) {
      if (!IsReserved(d.identity)) continue;
      auto e = util::MakeError(util::ErrorKind::kInput,
                               StrCat("manifest ", util::Quote(m.name), Where(d), " renders ", d.identity.Describe(),
                                      ", which is tazuna's own (sync state, history or lock)"));
      e.hint = "Remove it from the manifest: tazuna writes these objects itself.";
      return e;
    }
  }
  return util::Ok();
}

LiveOwner OwnerOf(const json& live, const TakeoverManagers* takeover, LiveFieldsOf fields) {
  LiveOwner owner;
  const json& meta = util::JsonObject(live, "metadata");
  const json& annotations = util::JsonObject(meta, "annotations");
  owner.manifest = util::JsonString(annotations, kManifestAnnotation);
  owner.origin = util::JsonString(annotations, kOriginAnnotation);
  owner.uid = util::JsonString(meta, "uid");
  for (const auto& f : util::JsonArray(meta, "managedFields")) {
    const std::string manager = util::JsonString(f, "manager");
    owner.tazuna_manager |= manager == "tazuna";
    if (!manager.empty() && std::find(owner.managers.begin(), owner.managers.end(), manager) == owner.managers.end()) {
      owner.managers.push_back(manager);
    }
  }
  if (takeover != nullptr) owner.takeover = FindTakeover(meta, *takeover);
  if (fields != LiveFieldsOf::kNone) owner.fields = ReadLiveFields(meta, fields == LiveFieldsOf::kEvery);
  return owner;
}

std::string DescribeOwner(const LiveOwner& owner) {
  if (!owner.manifest.empty()) return owner.manifest;
  if (owner.managers.empty()) return "<unknown>";
  return util::Join(owner.managers, ",");
}

namespace {

bool NotServed(const util::Error& e) { return e.kind == util::ErrorKind::kNotFound || kube::IsReason(e, "NotFound"); }

// apiVersion, kind, namespace of one LIST.
using ListKey = std::tuple<std::string, std::string, std::string>;
// LISTs in flight at once (so at most this many answers held at once, each freed once read into the owners).
constexpr int kListsAtOnce = 4;

// One metadata-only LIST of `kind` in `ns`: through `api_version`, or, when that version is not served,
// through the version the server serves for the group. nullopt when no version of the kind is served (a
// CRD this run applies): then none of its objects exists.
util::Result<std::optional<std::vector<json>>> ListOwners(kube::Client& client, const std::string& api_version,
                                                          const std::string& kind, const std::string& ns) {
  auto items = client.List(api_version, kind, ns, "", kube::ListDetail::kMetadata);
  if (items) return std::optional<std::vector<json>>(std::move(*items));
  if (!NotServed(items.error())) return items.error();
  const auto slash = api_version.find('/');
  const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
  auto served = client.ResolveGroupKind(group, kind);
  if (!served && !NotServed(served.error())) return served.error();
  if (!served) {
    // Not served is "none exists" only without a CRD: one that serves no version still stores its objects.
    auto crd = DefiningCrd(client, group, kind);
    if (!crd) return crd.error();
    if (!crd->empty()) {
      return util::MakeError(util::ErrorKind::kApi, StrCat("no version of ", kind, " is served, but CustomResourceDefinition ",
                                                           *crd, " still stores its objects"));
    }
    return util::Result<std::optional<std::vector<json>>>(std::nullopt);
  }
  const std::string other = served->group.empty() ? served->version : StrCat(served->group, "/", served->version);
  items = client.List(other, kind, ns, "", kube::ListDetail::kMetadata);
  if (!items) return items.error();
  return std::optional<std::vector<json>>(std::move(*items));
}

// What one LIST is for: the objects of rows whose owner is read, and unchanged objects whose existence is.
struct ListWant {
  std::set<ObjectIdentity> rows;
  std::set<ObjectIdentity> unchanged;
  const ObjectIdentity& any() const { return rows.empty() ? *unchanged.begin() : *rows.begin(); }
  bool Wants(const ObjectIdentity& id) const { return rows.count(id) > 0 || unchanged.count(id) > 0; }
};

// The identities wanted from each LIST: the objects of the `rows` of `inputs`, and with
// UnchangedObjects::kList the rendered objects no diff row names.
std::map<ListKey, ListWant> ListsOf(const std::vector<SyncInput>& inputs, const OwnerQuery& query) {
  std::map<ListKey, ListWant> lists;
  for (const auto& in : inputs) {
    std::vector<bool> touched(in.desired.objects.size(), false);
    for (const auto& e : in.diff) {
      if (e.object_index >= 0) touched[static_cast<size_t>(e.object_index)] = true;
      if (!Wanted(e, query.rows)) continue;
      // A removed row's object is listed through the version its stored key names (ListOwners falls back).
      const bool removed = e.type == ChangeType::kRemoved;
      const StateKey& key = removed ? e.parsed : in.desired.objects[static_cast<size_t>(e.object_index)].key;
      lists[{key.ApiVersion(), key.kind, e.identity.namespace_name}].rows.insert(e.identity);
    }
    if (query.unchanged != UnchangedObjects::kList) continue;
    for (size_t i = 0; i < in.desired.objects.size(); ++i) {
      const DesiredObject& d = in.desired.objects[i];
      if (!touched[i]) lists[{d.key.ApiVersion(), d.key.kind, d.identity.namespace_name}].unchanged.insert(d.identity);
    }
  }
  return lists;
}

// Why a LIST failed, for the one warning: what could not be checked for its objects.
std::string ListFailure(const std::string& kind, const ListWant& want, const util::Error& error) {
  const char* what = want.rows.empty() ? "that unchanged objects still exist (missing ones are not repaired)"
                                       : "who owns existing objects";
  return StrCat("cannot list ", kind, " to check ", what, ": ", error.message);
}

}  // namespace

LiveOwners ReadLiveOwners(kube::Client& client, const std::vector<SyncInput>& inputs, const OwnerQuery& query,
                          util::Logger& log) {
  const std::map<ListKey, ListWant> lists = ListsOf(inputs, query);
  std::vector<const std::pair<const ListKey, ListWant>*> order;
  for (const auto& entry : lists) order.push_back(&entry);
  LiveOwners out;
  std::mutex mu;  // guards out, *query.unknown and *query.unchecked
  std::vector<std::string> failed(order.size());  // why each LIST failed ("" if it did not)
  util::ParallelFor(order.size(), kListsAtOnce, [&](size_t i) {
    const auto& [list, wanted] = *order[i];
    const auto& [api_version, kind, ns] = list;
    auto listed = ListOwners(client, api_version, kind, ns);
    std::lock_guard<std::mutex> lock(mu);
    // Unanswered (RBAC without list, a failing server, for unchanged objects an unserved kind): never taken
    // as "nobody owns them" nor as "gone".
    if ((!listed || !*listed) && query.unchecked != nullptr) {
      query.unchecked->insert(wanted.unchanged.begin(), wanted.unchanged.end());
    }
    if (!listed) {
      if (query.unknown != nullptr) query.unknown->insert(wanted.rows.begin(), wanted.rows.end());
      failed[i] = ListFailure(kind, wanted, listed.error());
      return;
    }
    if (!*listed) return;
    const ObjectIdentity& any = wanted.any();
    for (const auto& item : **listed) {
      ObjectIdentity id{any.group, any.kind, any.namespace_name, util::MetaString(item, "name")};
      if (!wanted.Wants(id)) continue;
      // Only an object a row applies may have fields to take over: an unchanged one's LIST says it exists.
      const TakeoverManagers* takeover = wanted.rows.count(id) > 0 ? query.takeover : nullptr;
      out.emplace(std::move(id), OwnerOf(item, takeover, query.fields));
    }
  });
  // One warning, the first failure in list order, says that owners could not all be read.
  auto first = std::find_if(failed.begin(), failed.end(), [](const std::string& why) { return !why.empty(); });
  if (first != failed.end()) log.Warning(*first);
  return out;
}

std::string ForeignOrigin(const LiveOwner& live, const Origin& ours, const Metadata& state) {
  if (live.origin.empty() || live.origin == ours.Mark()) return "";
  for (const auto& o : state.taken_from) {
    if (live.origin == o.Mark()) return "";
  }
  return live.origin;
}

util::Status ReleaseTaken(StateStore& store, IdentityResolver& ids, const SyncReport& report) {
  std::map<std::pair<std::string, std::string>, std::set<ObjectIdentity>> taken;  // (manifest, origin mark)
  for (const auto& r : report.results) {
    if (r.taken && r.taken->manifest != r.manifest) taken[{r.taken->manifest, r.taken->origin}].insert(r.taken->identity);
  }
  for (const auto& [from, identities] : taken) {
    const auto& [manifest, origin] = from;
    auto state = store.Read(manifest);
    if (!state) return state.error();
    if (state->metadata.origin.Mark() != origin) continue;  // not the state that marked it: not ours to change
    size_t before = state->entries.size();
    for (auto it = state->entries.begin(); it != state->entries.end();) {
      auto key = ParseStateKey(it->first);
      it = key && identities.count(ids.ResolveStored(*key, state->metadata.context_namespace)) > 0 ? state->entries.erase(it) : std::next(it);
    }
    if (state->entries.size() == before || !state->exists()) continue;
    if (auto st = store.Write(*state); !st) return st.error().WithContext("release taken objects of manifest " + util::Quote(manifest));
  }
  return util::Ok();
}

std::string NormalizeRepository(const std::string& url) {
  std::string rest = url;
  const size_t scheme = rest.find("://");
  if (scheme != std::string::npos) {
    rest = rest.substr(scheme + 3);
  } else if (const size_t colon = rest.find(':'); colon != std::string::npos && rest.find('/') > colon) {
    rest[colon] = '/';  // scp-like git@host:org/repo
  }
  const size_t slash = rest.find('/');
  std::string host = rest.substr(0, slash);
  std::string path = slash == std::string::npos ? "" : rest.substr(slash);
  if (const size_t at = host.rfind('@'); at != std::string::npos) host = host.substr(at + 1);  // credentials
  if (const size_t port = host.find(':'); port != std::string::npos) host = host.substr(0, port);
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (util::EndsWith(path, ".git")) path.resize(path.size() - 4);
  return util::ToLower(host) + path;
}

util::Status CheckOrigin(const ManifestState& stored, const Origin& ours) {
  const Origin& theirs = stored.metadata.origin;
  if (theirs.empty() || theirs == ours) return util::Ok();
  auto e = util::MakeError(util::ErrorKind::kConflict, StrCat("manifest ", util::Quote(stored.manifest),
                                                              " is managed from ", theirs.Describe()));
  e.hint = StrCat("To manage it from ", ours.Describe(), " instead, take it over first: kubectl tazuna state takeover -m ",
                  stored.manifest);
  return e;
}

}  // namespace tazuna::state
