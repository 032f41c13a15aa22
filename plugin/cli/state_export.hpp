#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "state/apply/field_takeover.hpp"

namespace tazuna::cli {

/// `kubectl tazuna state export`: flag values, then what Complete resolved.
struct StateExportOptions {
  ConnectionOptions connection;
  std::vector<std::string> manifests;  ///< -m, at least one (or --live)
  bool live = false;                   ///< --live TYPE/NAME...: objects tazuna does not manage yet
  std::vector<std::string> objects;    ///< positional TYPE/NAME, with --live
  std::string takeover_managers;       ///< --takeover-managers: the appliers whose fields --live exports
  std::string output = "yaml";
  // Completed:
  bool as_json = false;
  state::TakeoverManagers appliers;

  /// Checks -o and --takeover-managers, takes the TYPE/NAME arguments; kUsage error for a format other than
  /// yaml or json.
  util::Status Complete(Context& ctx, const FlagSet& flags, const std::vector<std::string>& args);
  /// -m, or --live with TYPE/NAME arguments (not both); no I/O.
  util::Status Validate() const;
  /// Reads each recorded object and prints the fields tazuna's field manager owns of it (with --live: the
  /// fields appliers set of the named objects); 1 when an object was left out (gone, a Secret, or no fields
  /// to export).
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
