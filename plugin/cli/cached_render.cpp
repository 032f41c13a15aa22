#include "cli/cached_render.hpp"

#include "manifest/input_digest.hpp"
#include "manifest/render_cache.hpp"
#include "state/store/render_record.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

bool VerifyRenderCache(bool flag, const util::Environment& env) {
  const std::string set = util::ToLower(env.GetOr("TAZUNA_VERIFY_RENDER_CACHE", ""));
  return flag || set == "1" || set == "true";
}

util::Result<CachedRender> RenderThroughCaches(const manifest::Manifest& m, const manifest::TazunaFile& file,
                                               manifest::RenderContext& rc, const RenderOptions& options,
                                               const std::string& context_namespace) {
  const std::string name = util::Quote(m.name);
  const manifest::InputDigest inputs =
      options.use_cache ? manifest::DigestInputs(m, file, rc) : manifest::InputDigest{"", "--no-render-cache"};
  CachedRender out;
  const manifest::RenderCache cache(rc.cache_dir);
  if (inputs.cacheable()) rc.log.Log(2, util::StrCat("manifest ", name, ": its digest covers ", inputs.covered));
  if (!inputs.cacheable()) {
    rc.log.Log(2, util::StrCat("manifest ", name, " is rendered every time: ", inputs.reason));
  } else if (inputs.private_inputs) {
    rc.log.Log(2, util::StrCat("manifest ", name, ": its inputs include values of the environment, so its state "
                                                   "does not record them (the local render cache does)"));
  } else {
    out.render_digest = state::RenderDigest(inputs.digest, context_namespace);
    const state::ManifestState* stored = nullptr;
    if (options.states != nullptr) {
      const auto it = options.states->find(m.name);
      if (it != options.states->end()) stored = &it->second;
    }
    if (stored != nullptr && state::RecordsRender(*stored, out.render_digest)) {
      rc.log.Log(2, util::StrCat("manifest ", name, " not rendered: its state records the render of the same inputs"));
      return out;
    }
  }
  if (inputs.cacheable()) {
    if (auto hit = cache.Load(inputs.digest); hit && hit->name == m.name) {
      rc.log.Log(2, util::StrCat("manifest ", name, " read from the render cache"));
      out.rendered = std::move(*hit);
      out.cache_hit = true;
      return out;
    }
  }
  auto rendered = Render(m, file, rc);
  if (!rendered) return rendered.error();
  // A file changed while the renderer ran: this render is of neither digest, so it is neither kept nor recorded.
  if (inputs.cacheable() && manifest::DigestInputs(m, file, rc).digest != inputs.digest) {
    rc.log.Log(2, util::StrCat("manifest ", name, ": its files changed while it rendered; nothing cached"));
    out.render_digest.clear();
  } else if (inputs.cacheable()) {
    cache.Store(inputs.digest, *rendered);
  }
  out.rendered = std::move(*rendered);
  return out;
}

}  // namespace tazuna::cli
