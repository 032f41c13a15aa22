#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"

namespace tazuna::cli {

/// `kubectl tazuna version`: flag values, then what Complete resolved.
struct VersionOptions {
  ConnectionOptions connection;
  std::string output;
  bool client_only = false;
  // Completed:
  std::unique_ptr<print::Printer<nlohmann::json>> printer;  ///< prints {"clientVersion":…,"serverVersion":…}

  /// Picks the printer from -o ("" for text, json, yaml); kUsage error for another format.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// Flag combinations (none conflict today); no I/O.
  util::Status Validate() const;
  /// Prints the versions; an unreachable server is a note on stderr, not an error.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
