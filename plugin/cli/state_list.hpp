#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "state/store/state_key.hpp"
#include "state/store/store.hpp"
#include "util/label_selector.hpp"

namespace tazuna::cli {

/// One recorded object, as `state list` prints it.
struct StateListRow {
  std::string manifest;
  state::StateKey key;
  std::string key_string;
  std::string hash;
  state::Metadata metadata;
  std::string namespace_name;  ///< where the object is: the key's namespace, else the recorded or the context's
  /// Its manifest is not in tazuna.yaml and its state was written from this tazuna.yaml (its origin):
  /// another repository's state, or one without an origin, is never this file's orphan.
  bool orphaned = false;
  bool elsewhere = false;  ///< not in tazuna.yaml, and managed from another origin (or none)
};

/// `kubectl tazuna state list`: flag values, then what Complete resolved.
struct StateListOptions {
  ConnectionOptions connection;
  FleetOptions fleet;  ///< --contexts, --all-contexts, --max-parallel (run by RunFleet)
  FileOptions file;
  bool all = false;
  bool no_headers = false;
  std::string output = "table";
  std::string selector;  ///< -l/--selector: only entries whose object tazuna.yaml renders with matching labels
  // Completed:
  bool read_file = false;     ///< tazuna.yaml names the manifests (-f given, or ./tazuna.yaml exists)
  bool from_cluster = false;  ///< list every tazuna-state-* ConfigMap
  bool from_cluster_if_unreadable = false;  ///< a tazuna.yaml that fails to load is skipped with a warning
  util::LabelSelector label_selector;  ///< parsed -l
  std::unique_ptr<print::Printer<std::vector<StateListRow>>> printer;

  /// Picks the printer from -o, whether tazuna.yaml is read, parses -l; kUsage error for an unknown format
  /// or label selector.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// Flag combinations (none conflict today); no I/O.
  util::Status Validate() const;
  /// Reads and prints the recorded state.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
