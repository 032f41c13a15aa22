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

}  // namespace tazuna::cli
