#pragma once

#include "cli/command.hpp"
#include "cli/options.hpp"

namespace tazuna::cli {

/// `kubectl tazuna state takeover`: flag values.
struct StateTakeoverOptions {
  ConnectionOptions connection;
  FileOptions file;

  /// Nothing to resolve beyond the flags.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// At least one --manifest; no I/O.
  util::Status Validate() const;
  /// Under the sync lock, records this repository as the origin of each named manifest's state (the
  /// former origin is kept in `_metadata.takenFrom`, so the objects it marked stay this state's). One
  /// read and at most one conditional write per manifest; no object in the cluster is touched.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
