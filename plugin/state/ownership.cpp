#include "state/ownership.hpp"

#include <algorithm>
#include <set>
#include <tuple>

#include "state/marks.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

std::string Where(const DesiredObject& d) { return d.source.empty() ? "" : " (" + d.source + ")"; }

bool Wanted(const DiffEntry& e, OwnerRows rows) {
  if (e.type == ChangeType::kRemoved) return false;
  return rows == OwnerRows::kApplies || e.type == ChangeType::kAdded;
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

LiveOwner OwnerOf(const json& live, const TakeoverManagers* takeover) {
  LiveOwner owner;
  const json meta = live.value("metadata", json::object());
  const json annotations = meta.value("annotations", json::object());
  if (annotations.is_object()) owner.manifest = annotations.value(kManifestAnnotation, "");
  for (const auto& f : meta.value("managedFields", json::array())) {
    if (!f.is_object()) continue;
    const std::string manager = f.value("manager", "");
    owner.tazuna_manager |= manager == "tazuna";
    if (!manager.empty() && std::find(owner.managers.begin(), owner.managers.end(), manager) == owner.managers.end()) {
      owner.managers.push_back(manager);
    }
  }
  if (takeover != nullptr) owner.takeover = FindTakeover(meta, *takeover);
  return owner;
}

std::string DescribeOwner(const LiveOwner& owner) {
  if (!owner.manifest.empty()) return owner.manifest;
  if (owner.managers.empty()) return "<unknown>";
  return util::Join(owner.managers, ",");
}

LiveOwners ReadLiveOwners(kube::Client& client, const std::vector<SyncInput>& inputs, const OwnerQuery& query,
                          util::Logger& log) {
  // apiVersion, kind, namespace -> the identities wanted from that list
  std::map<std::tuple<std::string, std::string, std::string>, std::set<ObjectIdentity>> lists;
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) {
      if (!Wanted(e, query.rows)) continue;
      const DesiredObject& d = in.desired.objects[static_cast<size_t>(e.object_index)];
      lists[{d.key.ApiVersion(), d.key.kind, d.identity.namespace_name}].insert(d.identity);
    }
  }
  LiveOwners out;
  bool warned = false;
  for (const auto& [list, wanted] : lists) {
    const auto& [api_version, kind, ns] = list;
    auto items = client.List(api_version, kind, ns, "", kube::ListDetail::kMetadata);
    if (!items) {
      // Not served yet (a CRD of this run): nothing of it exists. Anything else: unknown, say so once.
      if (items.error().kind != util::ErrorKind::kNotFound && !kube::IsReason(items.error(), "NotFound") && !warned) {
        log.Warning(StrCat("cannot list ", kind, " to check who owns existing objects: ", items.error().message));
        warned = true;
      }
      continue;
    }
    const ObjectIdentity& any = *wanted.begin();
    for (const auto& item : *items) {
      const json meta = item.value("metadata", json::object());
      ObjectIdentity id{any.group, any.kind, any.namespace_name, meta.value("name", "")};
      if (wanted.count(id) > 0) out.emplace(std::move(id), OwnerOf(item, query.takeover));
    }
  }
  return out;
}

util::Status ReleaseTaken(StateStore& store, IdentityResolver& ids, const SyncReport& report) {
  std::map<std::string, std::set<ObjectIdentity>> taken;
  for (const auto& r : report.results) {
    if (r.taken) taken[r.taken->manifest].insert(r.taken->identity);
  }
  for (const auto& [manifest, identities] : taken) {
    auto state = store.Read(manifest);
    if (!state) return state.error();
    size_t before = state->entries.size();
    for (auto it = state->entries.begin(); it != state->entries.end();) {
      auto key = ParseStateKey(it->first);
      it = key && identities.count(ids.Resolve(*key)) > 0 ? state->entries.erase(it) : std::next(it);
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

util::Status CheckOrigin(const ManifestState& stored, const Origin& ours, bool take_ownership) {
  const Origin& theirs = stored.metadata.origin;
  if (theirs.empty() || theirs == ours || take_ownership) return util::Ok();
  auto e = util::MakeError(util::ErrorKind::kConflict,
                           StrCat("manifest ", util::Quote(stored.manifest), " is managed from ", theirs.repository, " (",
                                  theirs.path, "); pass --take-ownership to take it over"));
  return e;
}

}  // namespace tazuna::state
