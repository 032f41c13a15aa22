#pragma once

#include "cli/command.hpp"
#include "cli/options.hpp"

namespace tazuna::cli {

/// `kubectl tazuna build`: flag values (nothing to complete; no cluster is involved).
struct BuildOptions {
  FileOptions file;
  bool show_secrets = false;
  int verbosity = 0;

  /// Nothing to resolve: build reads no kubeconfig and prints YAML only.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// Flag combinations (none conflict today); no I/O.
  util::Status Validate() const;
  /// Renders the selected manifests and prints their objects as multi-document YAML.
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
