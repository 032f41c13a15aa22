#pragma once

#include <string>
#include <vector>

#include "cli/context.hpp"
#include "kube/config_flags.hpp"

namespace tazuna::cli {

/// The names of the cluster's namespaces, for completing -n/--namespace as kubectl does: one
/// metadata-only LIST of namespaces through the kubeconfig and connection `flags` the command would use
/// (with a 5s request timeout unless --request-timeout says otherwise). Any error (no kubeconfig, an
/// unreachable server, Forbidden) gives no names and prints nothing: completion never shows an error.
std::vector<std::string> ClusterNamespaces(Context& ctx, kube::ConfigFlags flags);

/// The revision ids of the sync history (`state history REVISION`), newest first, as ClusterNamespaces reads.
std::vector<std::string> ClusterRevisions(Context& ctx, kube::ConfigFlags flags);

/// The keys the states record (`state forget KEY`), of `manifest` only when not empty, as ClusterNamespaces reads.
std::vector<std::string> ClusterStateKeys(Context& ctx, kube::ConfigFlags flags, const std::string& manifest);

}  // namespace tazuna::cli
