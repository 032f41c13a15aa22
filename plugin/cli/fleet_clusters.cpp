#include "cli/fleet_clusters.hpp"

#include <sstream>
#include <utility>

#include "cli/cluster_identity.hpp"
#include "cli/options.hpp"
#include "cli/pipeline.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

util::Error SameCluster(const std::string& a, const std::string& b, const state::ClusterIds& x,
                        const state::ClusterIds& ids) {
  const bool by_kube_system = !x.kube_system_uid.empty() && !ids.kube_system_uid.empty();
  const std::string by = by_kube_system ? "kube-system uid " + ids.kube_system_uid : "kube-root-ca.crt uid " + ids.root_ca_uid;
  auto e = util::MakeError(util::ErrorKind::kUsage,
                           util::StrCat("contexts ", util::Quote(a), " and ", util::Quote(b), " reach the same cluster (",
                                        by, "): a sync over both would undo each other's work"));
  e.hint = "Pick one context per cluster in --contexts.";
  return e;
}

}  // namespace

// Longer than 40 lines on purpose: the probe of each context and the pairwise comparison are one decision
// (known and distinct, or refused), and splitting them hides what refuses.
util::Status CheckDistinctClusters(Context& ctx, const kube::ConfigFlags& flags, const std::vector<std::string>& contexts,
                                   bool skip_identity) {
  std::vector<std::pair<std::string, ClusterIdentity>> seen;
  for (const auto& name : contexts) {
    ConnectionOptions connection;
    connection.kube = flags;
    connection.kube.context = name;
    std::ostringstream quiet;  // this probe's logs; the context's own run reports its problems
    Context probe{ctx.in, quiet, quiet, ctx.env, ctx.clock, ctx.files, ctx.processes, ctx.make_transport};
    probe.exec_pool = ctx.exec_pool;
    auto session = OpenSession(probe, connection);
    ClusterIdentity identity;
    if (session) {
      identity = ReadClusterIdentity(*(*session)->client);
    } else {
      identity.kube_system_problem = identity.root_ca_problem = session.error().message;
      identity.unreachable = true;
    }
    if (!identity.ids.Known()) {
      if (skip_identity) continue;
      return UnknownClusterIdentity(name, identity, "a rollout over contexts");
    }
    for (const auto& [other, known] : seen) {
      switch (state::CompareClusters(known.ids, identity.ids)) {
        case state::Sameness::kSame:
          return SameCluster(other, name, known.ids, identity.ids);
        case state::Sameness::kOther:
          break;
        case state::Sameness::kUnknown:
          if (skip_identity) break;
          {
            auto e = util::MakeError(
                util::ErrorKind::kConflict,
                util::StrCat("cannot tell whether contexts ", util::Quote(other), " and ", util::Quote(name),
                             " reach the same cluster: one could read only namespace kube-system, the other only "
                             "ConfigMap tazuna/kube-root-ca.crt"));
            e.hint = util::StrCat("Grant both users get on namespace kube-system, or pass --", kSkipClusterIdentityFlag,
                                  " to accept the risk.");
            return e;
          }
      }
    }
    seen.emplace_back(name, std::move(identity));
  }
  return util::Ok();
}

}  // namespace tazuna::cli
