#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"

namespace tazuna::cli {

/// `kubectl tazuna state forget`: flag values and the KEY arguments.
struct StateForgetOptions {
  ConnectionOptions connection;
  FileOptions file;
  bool orphaned = false;
  bool leave_objects = false;  ///< --orphaned even while objects live
  std::vector<std::string> keys;  ///< positional

  /// Takes the KEY arguments.
  util::Status Complete(Context& ctx, const FlagSet& flags, const std::vector<std::string>& args);
  /// KEYs or --orphaned (not both; --orphaned without --manifest), --manifest at most once; no I/O.
  util::Status Validate() const;
  /// Under the sync lock, drops the entries (or orphaned manifests' state); the cluster is not touched.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
