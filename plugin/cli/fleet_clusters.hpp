#pragma once

#include <string>
#include <vector>

#include "cli/context.hpp"
#include "kube/config_flags.hpp"
#include "util/result.hpp"

namespace tazuna::cli {

/// Refuses a rollout over two contexts that reach the same cluster (state::CompareClusters of their
/// ClusterIdentity): with --prune each would delete the other's copy of namespace-less objects, and the
/// fleet would ping-pong. Two GETs per context. Identity is known or refused: a context that cannot be
/// reached or identified, or two whose ids cannot be compared, refuse the rollout unless `skip_identity`
/// (--insecure-skip-cluster-identity). kUsage naming both contexts when they are one cluster.
util::Status CheckDistinctClusters(Context& ctx, const kube::ConfigFlags& flags, const std::vector<std::string>& contexts,
                                   bool skip_identity);

}  // namespace tazuna::cli
