#include "state/prune/namespace_contents.hpp"

#include <algorithm>
#include <map>

#include "state/store/state_key.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// Made in every namespace by kube-controller-manager (root CA publisher, service account controller).
bool IsAutomatic(const Occupant& o) {
  if (!o.group.empty()) return false;
  return (o.kind == "ConfigMap" && o.name == "kube-root-ca.crt") || (o.kind == "ServiceAccount" && o.name == "default");
}

// Events are records about objects, not objects of anyone's; they go with their namespace.
bool IsEvent(const kube::ResourceInfo& r) {
  return r.kind == "Event" && (r.group.empty() || r.group == "events.k8s.io");
}

std::string Describe(const Occupant& o) {
  return StrCat(util::ToLower(o.kind), o.group.empty() ? "" : "." + o.group, "/", o.name);
}

std::string StringOr(const json& object, const char* field) {
  const auto it = object.is_object() ? object.find(field) : object.end();
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

Occupant ReadOccupant(const kube::ResourceInfo& r, const json& item) {
  const auto meta_it = item.is_object() ? item.find("metadata") : item.end();
  const json meta = meta_it != item.end() && meta_it->is_object() ? *meta_it : json::object();
  Occupant o{r.group, r.kind, StringOr(meta, "name"), StringOr(meta, "uid"), {}, meta.contains("deletionTimestamp")};
  const auto owners = meta.find("ownerReferences");
  if (owners != meta.end() && owners->is_array()) {
    for (const auto& ref : *owners) o.owner_uids.push_back(StringOr(ref, "uid"));
  }
  return o;
}

// An aggregated API that does not answer may serve objects in the namespace that discovery cannot show
// (the namespace controller stalls on it too).
util::Status CheckApiServices(kube::Client& client) {
  auto services = client.List("apiregistration.k8s.io/v1", "APIService", "");
  if (!services) return services.error().WithContext("list apiservices");
  for (const auto& svc : *services) {
    const auto status = svc.is_object() ? svc.find("status") : svc.end();
    const auto conditions = status != svc.end() && status->is_object() ? status->find("conditions") : status;
    bool available = false;
    if (status != svc.end() && conditions != status->end() && conditions->is_array()) {
      for (const auto& c : *conditions) available = available || (StringOr(c, "type") == "Available" && StringOr(c, "status") == "True");
    }
    const auto meta = svc.is_object() ? svc.find("metadata") : svc.end();
    const std::string name = meta != svc.end() ? StringOr(*meta, "name") : "";
    if (!available) return util::MakeError(util::ErrorKind::kApi, StrCat("APIService ", name, " is not available"));
  }
  return util::Ok();
}

// A kind whose LIST answers 404 while discovery still names it: its CRD was deleted moments ago (by this run,
// or anyone), and discovery has not caught up. Its custom resources went with the CRD, so there is nothing of
// it to find, but only when the CRD is really gone: any other answer keeps the LIST's error.
bool CrdGone(kube::Client& client, const kube::ResourceInfo& r) {
  if (BuiltinGroup(r.group)) return false;
  auto crd = client.Get({"apiextensions.k8s.io/v1", "CustomResourceDefinition", "", StrCat(r.resource, ".", r.group)});
  return !crd && kube::IsReason(crd.error(), "NotFound");
}

}  // namespace

bool IsProtectedNamespace(const std::string& name) {
  return name == "tazuna" || name == "default" || name == "kube-system" || name == "kube-public" ||
         name == "kube-node-lease";
}

std::vector<std::string> Unaccounted(const std::vector<Occupant>& occupants, const std::set<std::string>& deleted_uids) {
  // Owners whose dependents go with them: what this run deleted, and transitively what that owned. An
  // object on its way out for another reason, or one Kubernetes made, does not vouch for what it owns
  // (an orphaning delete leaves its dependents behind).
  std::set<std::string> owners = deleted_uids;
  std::vector<bool> done(occupants.size(), false);
  for (size_t i = 0; i < occupants.size(); ++i) done[i] = occupants[i].deleting || IsAutomatic(occupants[i]);
  for (bool grew = true; grew;) {  // until no more owners become accounted (ownership chains are short)
    grew = false;
    for (size_t i = 0; i < occupants.size(); ++i) {
      const Occupant& o = occupants[i];
      if (owners.count(o.uid) > 0 && !done[i]) done[i] = grew = true;
      if (done[i]) continue;
      const bool owned = !o.owner_uids.empty() && std::all_of(o.owner_uids.begin(), o.owner_uids.end(), [&](const auto& u) {
        return owners.count(u) > 0;
      });
      if (owned) {
        done[i] = grew = true;
        if (!o.uid.empty()) owners.insert(o.uid);
      }
    }
  }
  std::set<std::string> services;  // names of accounted Services: their Endpoints go with them
  for (size_t i = 0; i < occupants.size(); ++i) {
    if (done[i] && occupants[i].group.empty() && occupants[i].kind == "Service") services.insert(occupants[i].name);
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < occupants.size(); ++i) {
    const Occupant& o = occupants[i];
    if (done[i] || (o.group.empty() && o.kind == "Endpoints" && services.count(o.name) > 0)) continue;
    out.push_back(Describe(o));
  }
  return out;
}

bool OnlyDependentsLeft(const std::vector<Occupant>& occupants, const std::vector<std::string>& left) {
  const std::set<std::string> names(left.begin(), left.end());
  return !left.empty() && std::all_of(occupants.begin(), occupants.end(), [&](const Occupant& o) {
    return names.count(Describe(o)) == 0 || !o.owner_uids.empty();
  });
}

util::Result<std::vector<Occupant>> ListOccupants(kube::Client& client, const std::string& ns) {
  auto served = client.Served();
  if (!served) return served.error().WithContext("discovery");
  if (!served->stale.empty()) {
    return util::MakeError(util::ErrorKind::kApi, StrCat("discovery of ", served->stale.front(),
                                                         " is stale (its APIService does not answer)"));
  }
  if (auto st = CheckApiServices(client); !st) return st.error();
  std::vector<Occupant> out;
  for (const auto& r : served->resources) {
    if (!r.namespaced || !r.deletable || IsEvent(r)) continue;
    if (!r.listable) {  // deleting the namespace would delete these, and nothing can see them first
      return util::MakeError(util::ErrorKind::kApi, StrCat(r.resource, r.group.empty() ? "" : "." + r.group,
                                                           " can be deleted but not listed"));
    }
    const std::string api_version = r.group.empty() ? r.version : StrCat(r.group, "/", r.version);
    auto items = client.List(api_version, r.kind, ns, "", kube::ListDetail::kMetadataQuiet);
    if (!items && kube::IsReason(items.error(), "NotFound") && CrdGone(client, r)) continue;
    if (!items) return items.error().WithContext(StrCat("list ", r.resource, r.group.empty() ? "" : "." + r.group));
    for (const auto& item : *items) out.push_back(ReadOccupant(r, item));
  }
  return out;
}

}  // namespace tazuna::state
