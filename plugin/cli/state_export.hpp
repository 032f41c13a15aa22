#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"

namespace tazuna::cli {

/// `kubectl tazuna state export`: flag values, then what Complete resolved.
struct StateExportOptions {
  ConnectionOptions connection;
  std::vector<std::string> manifests;  ///< -m, at least one
  std::string output = "yaml";
  // Completed:
  bool as_json = false;

  /// Checks -o; kUsage error for a format other than yaml or json.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// -m is required; no I/O.
  util::Status Validate() const;
  /// Reads each recorded object and prints the fields tazuna's field manager owns of it; 1 when an object
  /// was left out (gone, or tazuna owns none of its fields).
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
