#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "state/plan/history.hpp"
#include "state/plan/plan_file.hpp"
#include "state/apply/sync_engine.hpp"

namespace tazuna::cli {

/// `kubectl tazuna state sync`: flag values, then what Complete resolved.
struct StateSyncOptions {
  ConnectionOptions connection;
  bool no_render_cache = false;  ///< --no-render-cache
  FleetOptions fleet;  ///< --contexts, --all-contexts, --max-parallel (run by RunFleet)
  FileOptions file;
  bool prune = false;  ///< also set by TAZUNA_STATE_SYNC_DELETE=true (Complete)
  bool allow_empty = false;
  bool take_ownership = false;
  std::string dry_run = "none";
  int concurrency = 32;
  std::string output = "table";
  std::string lock_timeout = "60s";
  std::string plan_file;  ///< --plan
  int history_limit = state::kDefaultHistoryLimit;
  std::optional<bool> wait;     ///< unset: wait only before dependsOn layers and for helmfile `wait: true`
  std::string timeout = "5m";   ///< --timeout of --wait (Go duration or seconds)
  std::string status_grace = "30s";  ///< --status-grace (WaitPolicy::status_grace)
  std::string takeover_managers;  ///< --takeover-managers (empty: TAZUNA_TAKEOVER_MANAGERS or the default)
  std::string repair = "all";  ///< --repair: all (missing objects and taken fields), missing or none
  // Completed:
  std::chrono::milliseconds lock_wait{60000};
  std::chrono::seconds wait_timeout{300};
  std::chrono::seconds status_grace_period{30};
  std::optional<state::Plan> plan;          ///< read from --plan
  state::RevisionSelection given_selection;  ///< -e/-t/-m as given (the plan's replace them)
  std::unique_ptr<print::Printer<state::SyncReport>> printer;
  state::TakeoverManagers takeover;  ///< resolved --takeover-managers
  state::Repair repair_mode = state::Repair::kAll;  ///< parsed --repair

  /// Reads TAZUNA_STATE_SYNC_DELETE and --takeover-managers, parses --lock-timeout (seconds, at most a
  /// day), --timeout (a duration of at least a second), --status-grace (up to a day) and --repair, reads the --plan
  /// file (its selection replaces -e/-t/-m) and picks the printer from -o; kUsage errors naming the flag,
  /// the file's read or parse error.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// --dry-run is none or server (hinting at server for client/true), --concurrency 1..512,
  /// --history-limit 1..1000, -e/-t/-m with --plan only when they agree with the plan's (-t, -m as sets),
  /// --repair=none only with a plan that recreates no missing object; no I/O.
  util::Status Validate() const;
  /// Renders, takes the sync lock and applies; kExitError when an object failed or a prune was refused.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
