#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "cli/context.hpp"

namespace tazuna::cli {

/// Shell completion for kubectl's plugin protocol (kubectl 1.26+ runs `kubectl_complete-tazuna ARGS...`
/// with the word being completed last, possibly empty). Prints one candidate per line and a final
/// `:<directive>` line as cobra's __complete does: subcommands, flags, manifest names for -m, tags for
/// -t, environments for -e (from -f or ./tazuna.yaml), context names for --context (also --context=),
/// formats for -o; the cluster's namespaces for -n (ClusterNamespaces, with the connection flags typed);
/// file names (directive 0, or 8 with the extensions) for -f, --plan, --out and --kubeconfig. Writes
/// only to ctx.out, never an error. Returns the exit code.
int Complete(Context& ctx, std::vector<std::string> args);

}  // namespace tazuna::cli
