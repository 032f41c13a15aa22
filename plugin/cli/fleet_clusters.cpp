#include "cli/fleet_clusters.hpp"

#include <map>
#include <sstream>

#include "cli/options.hpp"
#include "cli/pipeline.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

util::Status CheckDistinctClusters(Context& ctx, const kube::ConfigFlags& flags,
                                   const std::vector<std::string>& contexts) {
  std::map<std::string, std::string> context_of_uid;
  for (const auto& name : contexts) {
    ConnectionOptions connection;
    connection.kube = flags;
    connection.kube.context = name;
    std::ostringstream quiet;  // this probe's logs; the context's own run reports its problems
    Context probe{ctx.in, quiet, quiet, ctx.env, ctx.clock, ctx.files, ctx.processes, ctx.make_transport};
    probe.exec_pool = ctx.exec_pool;
    auto session = OpenSession(probe, connection);
    if (!session) continue;
    const std::string uid = ClusterUid(*(*session)->client);
    if (uid.empty()) continue;
    auto [it, inserted] = context_of_uid.emplace(uid, name);
    if (inserted) continue;
    auto e = util::MakeError(util::ErrorKind::kUsage,
                             util::StrCat("contexts ", util::Quote(it->second), " and ", util::Quote(name),
                                          " reach the same cluster (kube-system uid ", uid,
                                          "): a sync over both would undo each other's work"));
    e.hint = "Pick one context per cluster in --contexts.";
    return e;
  }
  return util::Ok();
}

}  // namespace tazuna::cli
