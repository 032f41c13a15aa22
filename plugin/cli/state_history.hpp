#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "state/plan/history.hpp"

namespace tazuna::cli {

/// What `state history` prints: the revisions (newest first, statuses as they read now), or one of them.
struct StateHistoryResult {
  std::vector<state::Revision> revisions;
  std::optional<state::Revision> revision;  ///< `state history REVISION`
};

/// `kubectl tazuna state history [REVISION]`: flag values, then what Complete resolved.
struct StateHistoryOptions {
  ConnectionOptions connection;
  FleetOptions fleet;  ///< --contexts, --all-contexts, --max-parallel (run by RunFleet)
  std::vector<std::string> manifests;  ///< -m: only revisions that synced one of these (objects of them)
  std::string origin;                  ///< --origin: only revisions of this repository (or repository:path)
  std::string object;                  ///< --object TYPE/NAME: only revisions that changed it (and only it)
  std::string output = "table";
  bool no_headers = false;
  // Completed:
  std::vector<std::string> args;
  std::string revision;  ///< a ULID or a prefix of one; empty: list
  std::unique_ptr<print::Printer<StateHistoryResult>> printer;

  /// Takes the optional REVISION argument and picks the printer from -o (kUsage for an unknown format).
  util::Status Complete(Context& ctx, const FlagSet& flags, const std::vector<std::string>& args);
  /// At most one REVISION, made of ULID characters (at most 26); no I/O.
  util::Status Validate() const;
  /// Reads the revision records (one LIST) and the sync Lease, and prints them.
  util::Result<int> Run(Context& ctx);
};

/// A duration as `state history` shows it: 850ms, 4.2s, 45s, 3m12s, 2h5m.
std::string FormatDuration(std::chrono::milliseconds d);

}  // namespace tazuna::cli
