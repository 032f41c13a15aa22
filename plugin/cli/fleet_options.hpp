#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cli/flags.hpp"
#include "kube/config_flags.hpp"

namespace tazuna::cli {

/// How the per-context lines name a command's rows: "change" gives "3 changes" / "no changes".
struct FleetWords {
  std::string noun = "object";
  bool lines_are_rows = false;  ///< sync: its result lines are rows; else such lines are "nothing found" text
};

/// How a command runs over several contexts: kParallel (diff, drift, list, history: up to --max-parallel
/// at once, default 4) or kRollout (sync: one at a time in the order given unless --max-parallel widens
/// it; no context starts after one failed).
enum class FleetMode { kParallel, kRollout };

/// --contexts, --all-contexts and --max-parallel.
struct FleetOptions {
  std::vector<std::string> contexts;
  bool all_contexts = false;
  int max_parallel = 0;  ///< 0: the mode's default
  /// --insecure-skip-cluster-identity: a rollout, or a plan, goes on where the cluster's identity cannot be read
  bool skip_cluster_identity = false;
  /// True when the run is over a fleet (a pattern or --all-contexts was given).
  bool Requested() const { return !contexts.empty() || all_contexts; }
};

/// Declares the fleet flags on a command.
void AddFleetFlags(FlagSet& flags, FleetOptions& options);

/// What a fleet-capable command tells the runner once its flags are parsed.
struct FleetRequest {
  FleetMode mode = FleetMode::kParallel;
  FleetOptions fleet;
  kube::ConfigFlags kube;  ///< the connection flags given (--kubeconfig names the contexts' file)
  std::string output;      ///< -o as given
  bool no_headers = false;
  std::string refused;     ///< a flag given that cannot run over a fleet, or ""
  /// "--out" (state diff) or "--plan" (state sync) when given, with its value: one plan over the fleet
  /// (FleetPlanFiles), each context's part made or applied in that context.
  std::string plan_flag, plan_path;
  FleetWords words;
  std::string empty_message;  ///< printed once when no context has a row ("No changes detected."), or ""
};

/// The request of a command whose options hold `fleet`, `connection` and `output` (and `no_headers`, when
/// the command has --no-headers), run in `mode`; the caller adds what is particular to it.
template <class Options>
FleetRequest FleetRequestOf(const Options& o, FleetMode mode, FleetWords words) {
  FleetRequest r;
  r.mode = mode;
  r.fleet = o.fleet;
  r.kube = o.connection.kube;
  r.output = o.output;
  if constexpr (requires { o.no_headers; }) r.no_headers = o.no_headers;
  r.words = std::move(words);
  return r;
}

}  // namespace tazuna::cli
