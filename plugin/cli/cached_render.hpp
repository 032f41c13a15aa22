#pragma once

#include <map>
#include <optional>
#include <string>

#include "manifest/render.hpp"
#include "util/environment.hpp"
#include "state/store/store.hpp"

namespace tazuna::cli {

/// How a run may avoid rendering a manifest whose inputs did not change.
struct RenderOptions {
  bool use_cache = true;  ///< false: --no-render-cache (render everything, read and write no cache)
  /// States read before rendering, by manifest name (state diff): a manifest whose state records exactly
  /// the render its inputs give (state::RecordsRender) is not rendered; its rows come from the state.
  const std::map<std::string, state::ManifestState>* states = nullptr;
  bool oras_offline = false, oras_no_cache = false;  ///< manifest::RenderContext's (Selection's flags)
};

/// `--verify-render-cache` (or TAZUNA_VERIFY_RENDER_CACHE=1 in the environment `env`).
bool VerifyRenderCache(bool flag, const util::Environment& env);

/// One manifest's render as the caches allow it.
struct CachedRender {
  std::optional<manifest::RenderedManifest> rendered;  ///< empty: not rendered, the state stands for it
  std::string render_digest;  ///< state::RenderDigest of its inputs; empty when they cannot all be named
  bool cache_hit = false;     ///< `rendered` was read from the render cache
};

/// Renders `m` unless its inputs (manifest::DigestInputs) are those of the render its state records, or of
/// one in the local render cache (manifest::RenderCache, then stored there). `-v 2` on `rc.log` says which,
/// and why a manifest is always rendered. `context_namespace` is part of the recorded digest.
util::Result<CachedRender> RenderThroughCaches(const manifest::Manifest& m, const manifest::TazunaFile& file,
                                               manifest::RenderContext& rc, const RenderOptions& options,
                                               const std::string& context_namespace);

}  // namespace tazuna::cli
