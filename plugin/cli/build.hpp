#pragma once

#include "cli/command.hpp"
#include "cli/options.hpp"

namespace tazuna::cli {

/// `kubectl tazuna build`: flag values (nothing to complete; no cluster is involved).
struct BuildOptions {
  FileOptions file;
  ConnectionOptions connection;  ///< the cluster whose capabilities charts render for, when it is reachable
  bool no_render_cache = false;  ///< --no-render-cache
  bool verify_render_cache = false;  ///< --verify-render-cache (also TAZUNA_VERIFY_RENDER_CACHE=1)
  bool show_secrets = false;

  /// Nothing to resolve before Run.
  util::Status Complete(Context& ctx, const FlagSet& flags);
  /// Flag combinations (none conflict today); no I/O.
  util::Status Validate() const;
  /// Renders the selected manifests and prints their objects as multi-document YAML: for the cluster the
  /// kubeconfig reaches (its version, served APIs and scopes), else offline (BuildKubeVersion).
  util::Result<int> Run(Context& ctx);
};

}  // namespace tazuna::cli
