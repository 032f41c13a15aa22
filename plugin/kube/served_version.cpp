#include "kube/served_version.hpp"

#include "util/api_version.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {

// From discovery as the server answers now (Served refreshes it at least once per process), never from the
// disk cache: a version served when the cache was written may be gone, and another served instead.
ServedVersion ServedVersionOf(Client& client, const std::string& group, const std::string& version,
                              const std::string& kind) {
  auto served = client.Served();
  if (!served) return {"", false, served.error().message};
  std::string preferred;
  for (const auto& r : served->resources) {  // the first (preferred) version of each resource
    if (r.group != group || r.kind != kind) continue;
    if (r.version == version) return {version, false, ""};
    if (preferred.empty()) preferred = r.version;
  }
  // Served() lists one version per resource: the recorded one may be served too, behind the preferred one.
  if (!preferred.empty()) {
    auto exact = client.Resolve(group.empty() ? version : group + "/" + version, kind);
    return {exact ? version : preferred, false, ""};
  }
  for (const auto& gv : served->stale) {
    if (util::SplitApiVersion(gv).group == group) return {"", false, util::StrCat("API group ", gv, " is unavailable")};
  }
  if (group.empty()) return {"", true, ""};
  // A CRD whose versions are all unserved keeps its custom resources stored: they exist, unreadable.
  auto crds = client.List("apiextensions.k8s.io/v1", "CustomResourceDefinition", "");
  if (!crds) return {"", false, util::StrCat("cannot list CustomResourceDefinitions: ", crds.error().message)};
  for (const auto& crd : *crds) {
    const auto& spec = crd.value("spec", nlohmann::json::object());
    if (spec.value("group", "") == group && spec.value("names", nlohmann::json::object()).value("kind", "") == kind) {
      return {"", false, util::StrCat("CustomResourceDefinition ", crd.value("metadata", nlohmann::json::object()).value("name", ""),
                                      " serves no version of ", kind)};
    }
  }
  return {"", true, ""};
}

}  // namespace tazuna::kube
