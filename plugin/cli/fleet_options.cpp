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
  flags.Bool(&o.skip_cluster_identity, "insecure-skip-cluster-identity", 0,
             "Go on where the cluster's identity (the uid of namespace kube-system, or of ConfigMap "
             "tazuna/kube-root-ca.crt) cannot be read: a rollout then cannot tell two contexts of one cluster apart, "
             "nor a plan another cluster at the same URL.");
}

}  // namespace tazuna::cli
