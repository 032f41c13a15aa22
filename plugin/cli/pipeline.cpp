#include "cli/pipeline.hpp"

#include <mutex>

#include "manifest/manifest.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

#ifndef TAZUNA_VERSION
#define TAZUNA_VERSION "0.0.0-dev"
#endif

namespace tazuna::cli {

namespace {

// Scope from API discovery (cached on disk by the client); unknown kinds fall back to the table.
class DiscoveryScopes : public manifest::ScopeLookup {
 public:
  explicit DiscoveryScopes(kube::Client& client) : client_(client) {}
  std::optional<bool> IsNamespaced(const std::string& api_version, const std::string& kind) override {
    auto info = client_.Resolve(api_version, kind);
    if (!info) return std::nullopt;
    return info->namespaced;
  }

 private:
  kube::Client& client_;
};

constexpr int kRenderConcurrency = 4;

}  // namespace

util::Result<Selection> LoadSelection(Context& ctx, const FileOptions& o) {
  manifest::LoadOptions load;
  load.environment = o.environment;
  load.tool_version = TAZUNA_VERSION;
  auto file = manifest::LoadTazunaFile(o.file, load, ctx.files);
  if (!file) return file.error();
  Selection s{std::move(*file), {}};
  auto picked = manifest::SelectManifests(s.file, o.manifests, o.tags);
  if (!picked) return picked.error();
  s.manifests = std::move(*picked);
  return s;
}

util::Result<std::vector<state::DesiredManifest>> RenderSelection(Context& ctx, const Selection& s,
                                                                  util::Logger& log, kube::Client* client) {
  std::optional<DiscoveryScopes> scopes;
  if (client != nullptr) scopes.emplace(*client);
  std::vector<util::Result<manifest::RenderedManifest>> rendered(s.manifests.size(),
                                                                 util::MakeError(util::ErrorKind::kInternal, ""));
  util::ParallelFor(s.manifests.size(), kRenderConcurrency, [&](size_t i) {
    manifest::RenderContext rc{ctx.processes, ctx.files, ctx.env, log, scopes ? &*scopes : nullptr,
                               std::chrono::seconds(300), manifest::DefaultCacheDir(ctx.env)};
    rendered[i] = manifest::Render(*s.manifests[i], s.file, rc);
  });
  std::vector<state::DesiredManifest> out;
  for (auto& r : rendered) {
    if (!r) return r.error();
    out.push_back(state::Desire(std::move(*r)));
  }
  return out;
}

std::string GitCommit(Context& ctx, const std::string& dir) {
  util::ProcessRequest req;
  req.argv = {"git", "rev-parse", "HEAD"};
  req.cwd = dir;
  req.env = ctx.env.vars();
  req.timeout = std::chrono::seconds(10);
  auto r = ctx.processes.Run(req);
  if (!r || r->exit_code != 0) return "";
  return std::string(util::Trim(r->out));
}

std::string ObjectName(const std::string& group, const std::string& kind, const std::string& name) {
  return util::ToLower(kind) + (group.empty() ? "" : "." + group) + "/" + name;
}

}  // namespace tazuna::cli
