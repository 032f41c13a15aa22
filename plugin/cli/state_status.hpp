#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "state/store/state_key.hpp"
#include "util/label_selector.hpp"

namespace tazuna::cli {

/// One recorded object and how it stands now, as `state status` prints it.
struct StatusRow {
  std::string manifest;
  state::StateKey key;         ///< as recorded; its namespace is where the object is
  std::string key_string;
  std::string status;          ///< Current, InProgress, Failed, NotFound, Terminating, Unknown
  std::string message;
  std::string uid;
};

/// `kubectl tazuna state status`: flag values, then what Complete resolved.
struct StateStatusOptions {
  ConnectionOptions connection;
  FleetOptions fleet;  ///< --contexts, --all-contexts, --max-parallel (run by RunFleet)
  FileOptions file;
  bool all = false;
  bool watch = false;  ///< -w: until every object is Current or --timeout
  std::string timeout = "5m";
  std::string output = "table";
  bool no_headers = false;
  std::string selector;  ///< -l/--selector: only objects whose labels, as tazuna.yaml renders them, match
  // Completed:
  bool read_file = false;  ///< tazuna.yaml names the manifests (-f given, or ./tazuna.yaml exists)
  std::chrono::seconds watch_timeout{300};
  util::LabelSelector label_selector;  ///< parsed -l
  std::unique_ptr<print::Printer<std::vector<StatusRow>>> printer;

  /// Picks the printer from -o, parses --timeout and -l; kUsage error for an unknown format, a bad duration
  /// or label selector.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// --all with -m; no I/O.
  util::Status Validate() const;
  /// Reads every recorded object (a LIST per kind and namespace), judges it, prints the rows; 0 when all
  /// are Current, 1 otherwise, 2 when an object could not be read.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
