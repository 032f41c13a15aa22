#pragma once

#include <string>
#include <vector>

#include "cli/context.hpp"
#include "kube/config_flags.hpp"
#include "util/result.hpp"

namespace tazuna::cli {

/// Refuses a sync over two contexts that reach the same cluster (the same kube-system Namespace uid):
/// with --prune each would delete the other's copy of namespace-less objects, and the fleet would
/// ping-pong. One GET per context; a context that cannot be reached is not judged here (its own run
/// reports it). kUsage error naming both contexts.
util::Status CheckDistinctClusters(Context& ctx, const kube::ConfigFlags& flags,
                                   const std::vector<std::string>& contexts);

}  // namespace tazuna::cli
