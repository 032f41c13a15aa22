#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "manifest/model.hpp"
#include "state/apply/sync_engine.hpp"
#include "state/plan/history.hpp"

namespace tazuna::cli {

/// `kubectl tazuna state delete`: flag values, then what Complete resolved.
struct StateDeleteOptions {
  ConnectionOptions connection;
  FleetOptions fleet;  ///< --contexts, --all-contexts, --max-parallel (run by RunFleet)
  FileOptions file;
  bool orphaned = false;          ///< every state of this repository that tazuna.yaml no longer names
  bool ignore_not_found = false;  ///< -m naming no state is no error
  std::string dry_run = "none";
  int concurrency = 32;
  std::string timeout = "5m";  ///< how long deleted custom resources are waited for until gone
  std::string lock_timeout = "60s";
  int history_limit = state::kDefaultHistoryLimit;
  std::string output = "table";
  // Completed:
  bool read_file = false;  ///< tazuna.yaml is read (-f given, or ./tazuna.yaml exists)
  std::chrono::milliseconds lock_wait{60000};
  std::chrono::seconds wait_timeout{300};
  std::unique_ptr<print::Printer<state::SyncReport>> printer;

  /// Parses --timeout and --lock-timeout, picks the printer from -o; kUsage naming the flag otherwise.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// -m or --orphaned (one of them), --dry-run none|server, --concurrency 1..512, --history-limit 1..1000;
  /// --orphaned needs tazuna.yaml; no I/O.
  util::Status Validate() const;
  /// Under the sync lock, deletes every object the named states record (as a sync's prune, in uninstall
  /// order) and each state once it records nothing; kExitError when an object failed or was refused.
  util::Result<int> Run(Context& ctx);
};

/// The order an uninstall of `names` (each once) goes in, a layer at a time: the reverse of the dependsOn layers
/// of every manifest of `file` (null: no tazuna.yaml), keeping those in `names`; names `file` does not list
/// join the first layer. Never empty.
std::vector<std::vector<std::string>> UninstallLayers(const std::vector<std::string>& names,
                                                      const manifest::TazunaFile* file);

}  // namespace tazuna::cli
