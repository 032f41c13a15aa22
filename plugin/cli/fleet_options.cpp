#include "cli/fleet_options.hpp"

namespace tazuna::cli {

void AddFleetFlags(FlagSet& flags, FleetOptions& o) {
  flags.StringSlice(&o.contexts, "contexts", 0,
                    "Run over the kubeconfig contexts matching these globs (comma-separated, e.g. 'prod-*,staging'), "
                    "one table with a CONTEXT column.");
  flags.Bool(&o.all_contexts, "all-contexts", 0, "Run over every context of the kubeconfig.");
  flags.Int(&o.max_parallel, "max-parallel", 0,
            "With --contexts: contexts run at once (default 4; state sync: 1, a rollout that stops at the first "
            "failure).");
}

}  // namespace tazuna::cli
