#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "state/diff/diff.hpp"
#include "state/apply/field_takeover.hpp"
#include "state/apply/ownership.hpp"
#include "util/label_selector.hpp"

namespace tazuna::cli {

/// What `state diff` prints: the changes, and for -o wide the live owners of added objects.
struct StateDiffResult {
  std::vector<state::DiffEntry> entries;
  state::LiveOwners owners;
};

/// `kubectl tazuna state diff`: flag values, then what Complete resolved.
struct StateDiffOptions {
  ConnectionOptions connection;
  bool no_render_cache = false;  ///< --no-render-cache
  bool verify_render_cache = false;  ///< --verify-render-cache (also TAZUNA_VERIFY_RENDER_CACHE=1)
  FleetOptions fleet;  ///< --contexts, --all-contexts, --max-parallel (run by RunFleet)
  FileOptions file;
  std::string output = "table";
  bool no_headers = false;
  bool show_changes = false;
  bool ignore_always_sync = false;  ///< always-sync rows alone exit 0
  std::string out_file;  ///< --out: also write a plan for `state sync --plan`
  std::string plan_file;  ///< --plan: show this plan instead (state plan show)
  bool prune = false;    ///< with --out: the sync the plan is for (also TAZUNA_STATE_SYNC_DELETE=true)
  bool allow_empty = false;
  bool take_ownership = false;
  std::string takeover_managers;  ///< --takeover-managers (what --show-changes shows the sync removing)
  std::string repair = "all";  ///< --repair: all (rows for recorded objects gone or whose fields others took), missing or none
  std::string selector;  ///< -l/--selector: only rows whose rendered object's labels match (every manifest is rendered)
  // Completed:
  print::Format format = print::Format::kTable;
  std::unique_ptr<print::Printer<StateDiffResult>> printer;
  state::TakeoverManagers takeover;
  state::Repair repair_mode = state::Repair::kAll;  ///< parsed --repair
  util::LabelSelector label_selector;  ///< parsed -l

  /// Picks the printer from -o, resolves --takeover-managers, parses --repair and -l; kUsage error for an
  /// unknown format, an invalid manager list, --repair value or label selector.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// The plan's sync flags only with --out, -l not with --out (a plan covers whole manifests), --plan with
  /// neither; no I/O.
  util::Status Validate() const;
  /// Renders, reads the state and prints the changes (and writes the plan to --out); kExitDifferences
  /// when there are any.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
