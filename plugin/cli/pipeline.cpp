#include "cli/pipeline.hpp"

#include <algorithm>
#include <memory>
#include <mutex>

#include "cli/build_info.hpp"
#include "manifest/manifest.hpp"
#include "manifest/objects.hpp"
#include "state/ownership.hpp"
#include "util/api_version.hpp"
#include "util/json_get.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

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
    auto any = client_.ResolveGroupKind(util::SplitApiVersion(api_version).group, kind);
    if (!any) return std::nullopt;
    return any->namespaced;
  }

 private:
  kube::Client& client_;
};

// The cluster's version and served API versions, asked for once per run and only when a chart needs
// them; a cluster that cannot say leaves helm's defaults (logged at -v 2).
class ClusterCapabilities {
 public:
  ClusterCapabilities(kube::Client& client, util::Logger& log) : client_(client), log_(log) {}
  std::optional<manifest::Capabilities> Get() {
    std::call_once(once_, [this] {
      auto version = client_.GetPath("/version");
      auto apis = client_.ApiVersions();
      const std::string git = version ? util::JsonString(*version, "gitVersion") : "";
      if (git.empty() || !apis) {
        const util::Error& e = !apis ? apis.error() : version ? util::Error{} : version.error();
        log_.Log(2, util::StrCat("cluster capabilities unavailable (", e.message, "): helm's defaults apply"));
        return;
      }
      caps_ = manifest::Capabilities{git, std::move(*apis)};
    });
    return caps_;
  }

 private:
  kube::Client& client_;
  util::Logger& log_;
  std::once_flag once_;
  std::optional<manifest::Capabilities> caps_;
};

constexpr int kRenderConcurrency = 4;

}  // namespace

util::Result<Selection> LoadSelection(Context& ctx, const FileOptions& o) {
  manifest::LoadOptions load;
  load.environment = o.environment;
  load.tool_version = std::string(BuildVersion());
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
  std::shared_ptr<ClusterCapabilities> caps;
  if (client != nullptr) caps = std::make_shared<ClusterCapabilities>(*client, log);
  std::vector<util::Result<manifest::RenderedManifest>> rendered(manifests.size(),
                                                                 util::MakeError(util::ErrorKind::kInternal, ""));
  util::ParallelFor(manifests.size(), kRenderConcurrency, [&](size_t i) {
    manifest::RenderContext rc{ctx.processes, ctx.files, ctx.env, log, nullptr,
                               std::chrono::seconds(300), manifest::DefaultCacheDir(ctx.env)};
    rc.apply_default_namespace = false;  // below, once every manifest's CRDs are known
    if (caps) rc.capabilities = [caps] { return caps->Get(); };
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
  if (auto st = state::CheckRenderedOnce(run.manifests); !st) return st.error();
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

namespace {

// One git command in `dir`: its trimmed stdout, or "" on any failure.
std::string Git(Context& ctx, const std::string& dir, std::vector<std::string> args) {
  util::ProcessRequest req;
  req.argv = {"git"};
  req.argv.insert(req.argv.end(), args.begin(), args.end());
  req.cwd = dir;
  req.env = ctx.env.vars();
  req.timeout = std::chrono::seconds(10);
  auto r = ctx.processes.Run(req);
  if (!r || r->exit_code != 0) return "";
  return std::string(util::Trim(r->out));
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

}  // namespace

state::Origin FindOrigin(Context& ctx, const std::string& file, util::Logger* log) {
  const size_t slash = file.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : file.substr(0, slash);
  const std::string top = Git(ctx, dir, {"rev-parse", "--show-toplevel"});
  // --show-prefix: the directory of tazuna.yaml relative to the repository root ("clusters/prod/").
  const std::string in_repo = (top.empty() ? "" : Git(ctx, dir, {"rev-parse", "--show-prefix"})) + BaseName(file);
  const std::string remote = top.empty() ? "" : Git(ctx, dir, {"remote", "get-url", "origin"});
  if (!remote.empty()) return {state::NormalizeRepository(remote), in_repo};
  std::string name = BaseName(top.empty() ? dir : top);
  if (name == "." || name.empty()) name = BaseName(ctx.env.GetOr("PWD", "."));
  if (log == nullptr) return {name, in_repo};
  log->Warning(util::StrCat("no git remote \"origin\" for ", file, ": the state's origin is the directory name ",
                           util::Quote(name), ", which another checkout may share"));
  return {name, in_repo};
}

state::StateStore NewStateStore(kube::Client& client) {
  state::StateStore store(client);
  store.set_tooling(util::StrCat("tazuna/v", BuildVersion()));
  return store;
}

std::string GitCommit(Context& ctx, const std::string& dir) { return Git(ctx, dir, {"rev-parse", "HEAD"}); }

bool GitDirty(Context& ctx, const std::string& dir) { return !Git(ctx, dir, {"status", "--porcelain"}).empty(); }

std::string ObjectName(const std::string& group, const std::string& kind, const std::string& name) {
  return util::ToLower(kind) + (group.empty() ? "" : "." + group) + "/" + name;
}

}  // namespace tazuna::cli
