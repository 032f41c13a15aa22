#pragma once

#include <vector>

#include "cli/context.hpp"
#include "cli/options.hpp"
#include "manifest/manifest.hpp"
#include "state/desired.hpp"

namespace tazuna::cli {

/// tazuna.yaml as loaded, and the manifests the flags picked (pointers into `file`).
struct Selection {
  manifest::TazunaFile file;
  std::vector<const manifest::Manifest*> manifests;
};

/// Loads -f (with -e) and applies -m/-t.
util::Result<Selection> LoadSelection(Context& ctx, const FileOptions& options);

/// Renders every selected manifest (a few at a time) and hashes its objects. `client` may be null
/// (no cluster): namespaced-ness then comes from the built-in table. Output is in selection order.
util::Result<std::vector<state::DesiredManifest>> RenderSelection(Context& ctx, const Selection& selection,
                                                                  util::Logger& log, kube::Client* client);

/// `git rev-parse HEAD` in `dir`, or "" when not a repository or git is missing.
std::string GitCommit(Context& ctx, const std::string& dir);

/// kubectl's `kind.group/name` (lowercase kind), e.g. `deployment.apps/web`, `configmap/cfg`.
std::string ObjectName(const std::string& group, const std::string& kind, const std::string& name);

}  // namespace tazuna::cli
