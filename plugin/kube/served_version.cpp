#include "kube/served_version.hpp"

#include "util/api_version.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {

ServedVersion ServedVersionOf(Client& client, const std::string& group, const std::string& version,
                              const std::string& kind) {
  auto exact = client.Resolve(group.empty() ? version : group + "/" + version, kind);
  if (exact) return {version, false, ""};
  if (exact.error().kind != util::ErrorKind::kNotFound) return {"", false, exact.error().message};
  auto any = client.ResolveGroupKind(group, kind);
  if (any) return {any->version, false, ""};
  if (any.error().kind != util::ErrorKind::kNotFound) return {"", false, any.error().message};
  auto served = client.Served();
  if (!served) return {"", false, served.error().message};
  for (const auto& gv : served->stale) {
    if (util::SplitApiVersion(gv).group == group) return {"", false, util::StrCat("API group ", gv, " is unavailable")};
  }
  return {"", true, ""};
}

}  // namespace tazuna::kube
