#include "state/diff/live_compare.hpp"

#include "state/diff/marks.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;

namespace {

// Fields the server changes on every write or that say nothing about content.
json Normalized(json object) {
  if (!object.is_object()) return object;  // a server answer of another shape: compared as it is
  object.erase("status");
  if (object.contains("metadata") && object["metadata"].is_object()) {
    json& meta = object["metadata"];
    for (const char* field : {"managedFields", "resourceVersion", "generation", "creationTimestamp", "uid"}) {
      meta.erase(field);
    }
    if (meta.contains("annotations") && meta["annotations"].is_object()) {
      meta["annotations"].erase(kOriginAnnotation);
      if (meta["annotations"].empty()) meta.erase("annotations");
    }
  }
  return object;
}

bool IsGone(const util::Error& e) { return kube::IsReason(e, "NotFound") || e.kind == util::ErrorKind::kNotFound; }

}  // namespace

namespace {

using CrdsByGroupKind = std::map<std::pair<std::string, std::string>, std::string>;

util::Result<CrdsByGroupKind> ListCrds(kube::Client& client) {
  auto crds = client.List("apiextensions.k8s.io/v1", "CustomResourceDefinition", "");
  if (!crds) return IsGone(crds.error()) ? util::Result<CrdsByGroupKind>(CrdsByGroupKind{}) : crds.error();
  CrdsByGroupKind out;
  for (const auto& crd : *crds) {
    const json& spec = util::JsonObject(crd, "spec");
    out[{util::JsonString(spec, "group"), util::JsonString(util::JsonObject(spec, "names"), "kind")}] =
        util::MetaString(crd, "name");
  }
  return out;
}

std::string Lookup(const CrdsByGroupKind& crds, const std::string& group, const std::string& kind) {
  const auto it = crds.find({group, kind});
  return it == crds.end() ? "" : it->second;
}

}  // namespace

util::Result<std::string> DefiningCrd(kube::Client& client, const std::string& group, const std::string& kind) {
  auto crds = ListCrds(client);
  if (!crds) return crds.error();
  return Lookup(*crds, group, kind);
}

util::Result<std::string> CrdIndex::Find(kube::Client& client, const std::string& group, const std::string& kind) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!by_group_kind_) {
    auto crds = ListCrds(client);
    if (!crds) return crds.error();  // not kept: the next lookup lists again
    by_group_kind_ = std::move(*crds);
  }
  return Lookup(*by_group_kind_, group, kind);
}

namespace {

// No version of `k`'s kind is served: gone, unless a CRD still defines it (kConflict: its objects stay stored).
util::Result<Live> Unserved(kube::Client& client, const StateKey& k, const std::string& ns, CrdIndex* crds) {
  auto crd = crds != nullptr ? crds->Find(client, k.group, k.kind) : DefiningCrd(client, k.group, k.kind);
  if (!crd) return crd.error();
  if (crd->empty()) return Live{{k.ApiVersion(), k.kind, ns, k.name}, std::nullopt};
  const std::string kind = util::StrCat(k.kind, ".", k.group);
  return util::MakeError(util::ErrorKind::kConflict,
                         util::StrCat("no version of ", kind, " is served, but CustomResourceDefinition ", *crd,
                                      " still stores its objects: serve a version of it to reach this one"));
}

}  // namespace

util::Result<kube::ObjectRef> ServedRef(kube::Client& client, const StateKey& k, const std::string& ns) {
  kube::ObjectRef ref{k.ApiVersion(), k.kind, ns, k.name};
  if (client.Resolve(ref.api_version, ref.kind)) return ref;
  auto served = client.ResolveGroupKind(k.group, k.kind);
  if (!served) return served.error();
  ref.api_version = served->group.empty() ? served->version : served->group + "/" + served->version;
  return ref;
}

std::string StaleVersionOf(const std::vector<std::string>& stale, const std::string& group) {
  for (const auto& gv : stale) {
    const size_t slash = gv.find('/');
    if ((slash == std::string::npos ? "" : gv.substr(0, slash)) == group) return gv;
  }
  return "";
}

util::Result<Live> ReadLive(kube::Client& client, const StateKey& k, const std::string& ns, CrdIndex* crds) {
  bool fresh = false;  // discovery read from the server in this call
  std::vector<std::string> stale;
  for (;;) {
    auto ref = ServedRef(client, k, ns);
    if (!ref && IsGone(ref.error()) && !fresh) {  // nothing serves it, as far as the discovery cache knows
      auto served = client.Served();
      if (!served) return served.error();
      stale = served->stale;
      fresh = true;
      continue;
    }
    if (!ref && IsGone(ref.error())) {
      // Not listed because its API server does not answer is not "not served": its objects may exist.
      if (const std::string gv = StaleVersionOf(stale, k.group); !gv.empty()) {
        return util::MakeError(util::ErrorKind::kApi,
                               util::StrCat("API ", gv, " is unavailable (its APIService does not answer): cannot tell "
                                            "whether ", k.kind, " ", k.name, " exists"));
      }
    }
    if (!ref) return IsGone(ref.error()) ? Unserved(client, k, ns, crds) : ref.error();
    auto live = client.Get(*ref);
    if (live) return Live{*ref, std::move(*live)};
    if (!IsGone(live.error())) return live.error();
    // NotFound through a version the disk cache still lists may mean the version is no longer served (a
    // CRD that moved to v2): read discovery from the server once and look again.
    if (fresh) return Live{*ref, std::nullopt};
    auto served = client.Served();
    if (!served) return served.error();
    fresh = true;
    auto again = ServedRef(client, k, ns);
    if (again && again->api_version == ref->api_version) return Live{*ref, std::nullopt};
  }
}

util::Result<std::optional<json>> GetLive(kube::Client& client, const StateKey& k, const std::string& ns,
                                          CrdIndex* crds) {
  auto live = ReadLive(client, k, ns, crds);
  if (!live) return live.error();
  return std::move(live->object);
}

util::Result<json> DryRunApply(kube::Client& client, const json& rendered, const Marks& marks) {
  kube::ApplyOptions dry;
  dry.dry_run = kube::DryRun::kAll;
  return client.Apply(WithOwnershipMarks(rendered, marks), dry);
}

bool SameContent(const json& live, const json& merged) { return Normalized(live) == Normalized(merged); }

}  // namespace tazuna::state
