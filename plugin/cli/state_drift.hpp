#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "state/plan/drift.hpp"
#include "util/label_selector.hpp"

namespace tazuna::cli {

/// `kubectl tazuna state drift`: flag values, then what Complete resolved.
struct StateDriftOptions {
  FileOptions file;
  int concurrency = 16;
  std::string takeover_managers;  ///< --takeover-managers: whose leftover fields are drift
  std::string output = "table";
  bool no_headers = false;
  bool show_changes = false;  ///< --show-changes
  bool no_render_cache = false;  ///< --no-render-cache
  std::string selector;  ///< -l/--selector: only rows whose rendered object's labels match
  ConnectionOptions connection;
  FleetOptions fleet;  ///< --contexts, --all-contexts, --max-parallel (run by RunFleet)
  // Completed:
  std::unique_ptr<print::Printer<std::vector<state::DriftEntry>>> printer;
  state::TakeoverManagers takeover;
  util::LabelSelector label_selector;  ///< parsed -l

  /// Picks the printer from -o, resolves --takeover-managers, parses -l; kUsage error for an unknown format,
  /// an invalid manager list or label selector.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// Flag combinations (none conflict today); no I/O.
  util::Status Validate() const;
  /// Compares every recorded object with the cluster; kExitDifferences when any drifted.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
