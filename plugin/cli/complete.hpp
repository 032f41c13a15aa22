#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "util/environment.hpp"
#include "util/file_reader.hpp"

namespace tazuna::cli {

/// Shell completion for kubectl's plugin protocol (kubectl 1.26+ runs `kubectl_complete-tazuna ARGS...`
/// with the word being completed last, possibly empty). Prints one candidate per line and a final
/// `:<directive>` line as cobra's __complete does: subcommands, flags, manifest names for -m, tags for
/// -t, environments for -e (from -f or ./tazuna.yaml), context names for --context (also --context=),
/// formats for -o; file names (directive 0, or 8 with the extensions) for -f, --plan, --out and
/// --kubeconfig. Namespaces (-n) would need the cluster and are not completed. Returns the exit code.
int Complete(std::ostream& out, const util::Environment& env, util::FileReader& files,
             std::vector<std::string> args);

}  // namespace tazuna::cli
