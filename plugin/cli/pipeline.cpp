#include "cli/pipeline.hpp"

#include <algorithm>
#include <mutex>

#include "manifest/manifest.hpp"
#include "manifest/objects.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

#ifndef TAZUNA_VERSION
#define TAZUNA_VERSION "0.0.0-dev"
#endif

namespace tazuna::cli {

namespace {

// Scope from API discovery (cached on disk by the client): the apiVersion asked for, else any served
// version of its group and kind (a stored key may name a version the server no longer serves).
class DiscoveryScopes : public manifest::ScopeLookup {
 public:
  explicit DiscoveryScopes(kube::Client& client) : client_(client) {}
  std::optional<bool> IsNamespaced(const std::string& api_version, const std::string& kind) override {
    auto info = client_.Resolve(api_version, kind);
    if (info) return info->namespaced;
    const size_t slash = api_version.find('/');
    auto any = client_.ResolveGroupKind(slash == std::string::npos ? "" : api_version.substr(0, slash), kind);
    if (!any) return std::nullopt;
    return any->namespaced;
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

util::Result<RenderedRun> RenderManifests(Context& ctx, const manifest::TazunaFile& file,
                                          const std::vector<const manifest::Manifest*>& manifests,
                                          util::Logger& log, kube::Client* client) {
  RenderedRun run;
  if (client != nullptr) run.discovery = std::make_unique<DiscoveryScopes>(*client);
  run.identities = std::make_unique<state::IdentityResolver>(run.discovery.get(),
                                                             client != nullptr ? client->config().namespace_name : "");
  std::vector<util::Result<manifest::RenderedManifest>> rendered(manifests.size(),
                                                                 util::MakeError(util::ErrorKind::kInternal, ""));
  util::ParallelFor(manifests.size(), kRenderConcurrency, [&](size_t i) {
    manifest::RenderContext rc{ctx.processes, ctx.files, ctx.env, log, nullptr,
                               std::chrono::seconds(300), manifest::DefaultCacheDir(ctx.env)};
    rc.apply_default_namespace = false;  // below, once every manifest's CRDs are known
    rendered[i] = manifest::Render(*manifests[i], file, rc);
  });
  for (auto& r : rendered) {
    if (!r) return r.error();
    run.identities->AddCrds(r->objects);
  }
  for (auto& r : rendered) {
    manifest::SetDefaultNamespace(r->objects, r->default_namespace, run.identities.get());
    run.manifests.push_back(state::Desire(std::move(*r), *run.identities));
  }
  return run;
}

util::Result<RenderedRun> RenderSelection(Context& ctx, const Selection& s, util::Logger& log, kube::Client* client) {
  return RenderManifests(ctx, s.file, s.manifests, log, client);
}

util::Result<std::map<state::ObjectIdentity, std::string>> RenderedElsewhere(Context& ctx, const Selection& s,
                                                                             util::Logger& log, kube::Client& client) {
  std::vector<const manifest::Manifest*> others;
  for (const auto& m : s.file.manifests) {
    if (std::find(s.manifests.begin(), s.manifests.end(), &m) == s.manifests.end()) others.push_back(&m);
  }
  std::map<state::ObjectIdentity, std::string> out;
  if (others.empty()) return out;
  auto run = RenderManifests(ctx, s.file, others, log, &client);
  if (!run) return run.error();
  for (const auto& m : run->manifests) {
    for (const auto& d : m.objects) out.emplace(d.identity, m.name);
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
