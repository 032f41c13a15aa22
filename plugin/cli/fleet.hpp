#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/fleet_options.hpp"

namespace tazuna::cli {

/// Runs `cmd` once per selected context with `args` (its own flags and arguments, as given) plus
/// `--context NAME`, each with its own connection, lock, state and selection and its output captured;
/// then prints one table (CONTEXT first) or one List, and a line per context on stderr. Returns the
/// fleet's exit code (FleetExitCode), or a kUsage error for a bad selection or flag combination.
util::Result<int> RunFleet(Context& ctx, const Command& cmd, const FleetRequest& request,
                           const std::vector<std::string>& args);

}  // namespace tazuna::cli
