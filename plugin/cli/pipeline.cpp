#include "cli/pipeline.hpp"

#include "cli/cluster_identity.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>

#include "cli/build_info.hpp"
#include "cli/cluster_identity.hpp"
#include "cli/git_config.hpp"
#include "state/store/render_record.hpp"
#include "cli/print/name.hpp"
#include "manifest/manifest.hpp"
#include "manifest/objects.hpp"
#include "state/apply/ownership.hpp"
#include "util/api_version.hpp"
#include "util/json_get.hpp"
#include "util/parallel.hpp"
#include "util/sha256.hpp"
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

// The manifest `m` as rendered (`r`), or as its state records it when it was not rendered. Such a manifest's
// keys were made with the scopes its kinds resolved to at its sync (another manifest's CRDs, the cluster): when
// they resolve otherwise now, the render it records is not what rendering gives, so it is rendered (`again`).
util::Result<state::DesiredManifest> Desire(const manifest::Manifest& m, CachedRender r, const RenderOptions& options,
                                            state::IdentityResolver& ids, util::Logger& log,
                                            const std::function<util::Result<CachedRender>()>& again) {
  if (!r.rendered) {
    state::DesiredManifest desired = state::DesireFromState(m.name, options.states->at(m.name), ids);
    if (state::KindScopes(desired, ids) == desired.kind_scopes) {
      desired.input_digest = r.render_digest;
      return desired;
    }
    log.Log(2, util::StrCat("manifest ", util::Quote(m.name),
                            " is rendered: the scopes of its custom resources' kinds changed since its sync"));
    auto fresh = again();
    if (!fresh) return fresh.error();
    r = std::move(*fresh);
  }
  manifest::SetDefaultNamespace(r.rendered->objects, r.rendered->default_namespace, &ids);
  state::DesiredManifest desired = state::Desire(std::move(*r.rendered), ids);
  desired.kind_scopes = state::KindScopes(desired, ids);
  desired.input_digest = r.render_digest;
  desired.from_render_cache = r.cache_hit;
  return desired;
}

}  // namespace

util::Result<Selection> LoadSelection(Context& ctx, const FileOptions& o) {
  manifest::LoadOptions load;
  load.environment = o.environment;
  load.tool_version = std::string(BuildVersion());
  auto file = manifest::LoadTazunaFile(o.file, load, ctx.files);
  if (!file) return file.error();
  // As kubectl's warnings: said once per load on stderr, and the command goes on.
  for (const std::string& warning : file->warnings) ctx.err << "Warning: " << warning << "\n";
  if (o.oras_offline && o.oras_no_cache) {
    return util::MakeError(util::ErrorKind::kUsage, "--offline and --no-cache cannot be used together");
  }
  Selection s{std::move(*file), {}, o.oras_offline, o.oras_no_cache};
  auto picked = manifest::SelectManifests(s.file, o.manifests, o.tags);
  if (!picked) return picked.error();
  s.manifests = std::move(*picked);
  // As `kubectl get -l` matching nothing: not an error, but said on stderr, so a typo is seen.
  for (const std::string& tag : manifest::UnknownTags(s.file, o.tags)) {
    ctx.err << "Warning: no manifest in " << s.file.path << " has tag " << util::Quote(tag) << "\n";
  }
  if (s.manifests.empty() && !s.file.manifests.empty()) ctx.err << "No manifests selected.\n";
  return s;
}

std::map<std::string, std::vector<manifest::YieldRule>> YieldRulesOf(const std::vector<const manifest::Manifest*>& manifests) {
  std::map<std::string, std::vector<manifest::YieldRule>> out;
  for (const auto* m : manifests) out[m->name] = m->yield_fields;
  return out;
}

std::unique_ptr<manifest::ScopeLookup> NewDiscoveryScopes(kube::Client& client) {
  return std::make_unique<DiscoveryScopes>(client);
}

util::Result<RenderedRun> RenderManifests(Context& ctx, const manifest::TazunaFile& file,
                                          const std::vector<const manifest::Manifest*>& manifests,
                                          util::Logger& log, kube::Client* client, const RenderOptions& options) {
  RenderedRun run;
  if (client != nullptr) run.discovery = NewDiscoveryScopes(*client);
  run.identities = std::make_unique<state::IdentityResolver>(run.discovery.get(),
                                                             client != nullptr ? client->config().namespace_name : "");
  std::shared_ptr<ClusterCapabilities> caps;
  if (client != nullptr) caps = std::make_shared<ClusterCapabilities>(*client, log);
  std::vector<util::Result<CachedRender>> rendered(manifests.size(), util::MakeError(util::ErrorKind::kInternal, ""));
  const auto render = [&](size_t i, const RenderOptions& o) {
    manifest::RenderContext rc{ctx.processes, ctx.files, ctx.env, log, nullptr,
                               std::chrono::seconds(300), manifest::DefaultCacheDir(ctx.env)};
    rc.apply_default_namespace = false;  // below, once every manifest's CRDs are known
    if (caps) rc.capabilities = [caps] { return caps->Get(); };
    rc.default_kube_version = std::string(BuildKubeVersion());
    rc.plugin_version = util::StrCat(BuildVersion(), " ", BuildCommit());
    rc.oras_offline = o.oras_offline;
    rc.oras_no_cache = o.oras_no_cache;
    rendered[i] = RenderThroughCaches(*manifests[i], file, rc, o, run.identities->context_namespace());
  };
  util::ParallelFor(manifests.size(), kRenderConcurrency, [&](size_t i) { render(i, options); });
  for (size_t i = 0; i < rendered.size(); ++i) {
    if (!rendered[i]) return rendered[i].error();
    if (rendered[i]->rendered) {
      run.identities->AddCrds(rendered[i]->rendered->objects);
    } else {  // its state records the render: the scopes its CRDs declared are recorded with it
      run.identities->AddCrdScopes(options.states->at(manifests[i]->name).metadata.crd_scopes);
    }
  }
  for (size_t i = 0; i < rendered.size(); ++i) {
    const auto render_again = [&] {
      render(i, RenderOptions{options.use_cache, nullptr, options.oras_offline, options.oras_no_cache});
      return std::move(rendered[i]);
    };
    auto desired = Desire(*manifests[i], std::move(*rendered[i]), options, *run.identities, log, render_again);
    if (!desired) return desired.error();
    run.manifests.push_back(std::move(*desired));
  }
  if (auto st = state::CheckRenderedOnce(run.manifests); !st) return st.error();
  return run;
}

util::Result<RenderedRun> RenderSelection(Context& ctx, const Selection& s, util::Logger& log, kube::Client* client,
                                          const RenderOptions& options) {
  RenderOptions with_flags = options;
  with_flags.oras_offline = s.oras_offline;
  with_flags.oras_no_cache = s.oras_no_cache;
  return RenderManifests(ctx, s.file, s.manifests, log, client, with_flags);
}

util::Result<SelectedCluster> OpenSelected(Context& ctx, const FileOptions& file, const ConnectionOptions& connection) {
  auto selection = LoadSelection(ctx, file);
  if (!selection) return selection.error();
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  return SelectedCluster{std::move(*selection), std::move(*session)};
}

util::Result<RenderedRun> RenderForCluster(Context& ctx, SelectedCluster& at, const ConnectionOptions& connection,
                                           const RenderOptions& options) {
  auto run = RenderSelection(ctx, at.selection, at.log(), &at.client(), options);
  if (!run) return run.error();
  if (auto st = state::CheckNamespaceFlag(run->manifests, connection.kube.namespace_name); !st) return st.error();
  return run;
}

namespace {

// The first key whose hash differs between `was` and `now` ("" when none), both of one manifest.
std::string FirstDifference(const state::DesiredManifest& was, const state::DesiredManifest& now) {
  std::map<std::string, std::string> hashes;
  for (const auto& d : now.objects) hashes[d.key_string] = d.hash;
  for (const auto& d : was.objects) {
    const auto it = hashes.find(d.key_string);
    if (it == hashes.end()) return d.key_string + " is gone from the render";
    if (it->second != d.hash) return d.key_string + " renders differently";
    hashes.erase(it);
  }
  return hashes.empty() ? "" : hashes.begin()->first + " is new in the render";
}

}  // namespace

util::Status CheckSkippedRenders(const std::vector<state::DesiredManifest>& cached,
                                 const std::vector<state::DesiredManifest>& fresh, util::Logger& log) {
  for (size_t i = 0; i < cached.size() && i < fresh.size(); ++i) {
    const state::DesiredManifest& was = cached[i];
    if (!was.from_state && !was.from_render_cache) continue;  // rendered: nothing was skipped
    const std::string name = util::Quote(was.name);
    for (const auto& d : fresh[i].objects) {
      if (d.hash_state != state::HashState::kKnown) {
        return util::MakeError(util::ErrorKind::kInternal,
                               util::StrCat("cannot verify the render cache: manifest ", name, " holds ", d.key_string,
                                            ", whose hash cannot be known here (its hash key is not readable)"));
      }
    }
    if (const std::string diff = FirstDifference(was, fresh[i]); !diff.empty()) {
      return util::MakeError(
          util::ErrorKind::kInternal,
          util::StrCat("render cache: manifest ", name, " was not rendered (", was.from_state ? "its state" : "the render cache",
                       " stood for it), but rendering it now differs: ", diff,
                       "; its digest missed an input (run with --no-render-cache, and report it)"));
    }
    log.Log(2, util::StrCat("manifest ", name, ": rendered again to verify the cache, the same"));
  }
  return util::Ok();
}

util::Result<std::map<state::ObjectIdentity, std::string>> RenderedElsewhere(Context& ctx, const Selection& s,
                                                                             util::Logger& log, kube::Client& client,
                                                                             const RenderOptions& options) {
  std::vector<const manifest::Manifest*> others;
  for (const auto& m : s.file.manifests) {
    if (std::find(s.manifests.begin(), s.manifests.end(), &m) == s.manifests.end()) others.push_back(&m);
  }
  std::map<state::ObjectIdentity, std::string> out;
  if (others.empty()) return out;
  auto run = RenderManifests(ctx, s.file, others, log, &client,
                             {options.use_cache, nullptr, s.oras_offline, s.oras_no_cache});
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

namespace {

// Where tazuna.yaml's repository is: asked of git, or, when git cannot answer (missing, or refusing a
// checkout another user owns, as in many CI containers), read from the .git it would read.
struct RepoWhere {
  std::string root;     ///< "" outside any repository
  std::string prefix;   ///< directory of tazuna.yaml in the repository ("clusters/prod/")
  std::string remote;   ///< "" without a remote
};

RepoWhere LocateRepo(Context& ctx, const std::string& dir) {
  if (std::string top = Git(ctx, dir, {"rev-parse", "--show-toplevel"}); !top.empty()) {
    RepoWhere w{top, Git(ctx, dir, {"rev-parse", "--show-prefix"}), Git(ctx, dir, {"remote", "get-url", "origin"})};
    if (w.remote.empty()) {  // no "origin": the only remote, if there is one
      const auto remotes = util::Split(Git(ctx, dir, {"remote"}), '\n');
      if (remotes.size() == 1 && !remotes[0].empty()) w.remote = Git(ctx, dir, {"remote", "get-url", remotes[0]});
    }
    return w;
  }
  const std::string abs = std::filesystem::path(util::JoinPath(ctx.env.GetOr("PWD", "/"), dir)).lexically_normal();
  std::string trimmed = abs;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  auto checkout = FindGitCheckout(ctx.files, trimmed);
  if (!checkout) return {};
  std::string prefix = std::filesystem::path(trimmed).lexically_relative(checkout->root).generic_string();
  prefix = prefix == "." ? "" : prefix + "/";
  return {checkout->root, prefix, checkout->remote};
}

}  // namespace

state::Origin FindOrigin(Context& ctx, const std::string& file, util::Logger* log) {
  const size_t slash = file.find_last_of('/');
  const std::string dir = slash == std::string::npos ? "." : file.substr(0, slash);
  const RepoWhere where = LocateRepo(ctx, dir);
  const std::string in_repo = where.prefix + BaseName(file);
  if (!where.remote.empty()) return {state::NormalizeRepository(where.remote), in_repo};
  std::string name = BaseName(where.root.empty() ? dir : where.root);
  if (name == "." || name.empty()) name = BaseName(ctx.env.GetOr("PWD", "."));
  if (log == nullptr) return {name, in_repo};
  log->Warning(util::StrCat("no git remote for ", file, ": the state's origin is the directory name ",
                           util::Quote(name), ", which another repository's checkout may share"));
  return {name, in_repo};
}

state::StateStore NewStateStore(kube::Client& client) {
  state::StateStore store(client);
  store.set_tooling(util::StrCat("tazuna/v", BuildVersion()));
  return store;
}

util::Result<state::PlanTarget> PlanTargetOf(kube::Client& client, const SyncFlags& flags, const state::Origin& origin,
                                             bool skip_identity) {
  const kube::RestConfig& c = client.config();
  state::PlanTarget t{c.server, "", c.ca_pem.empty() ? "" : "sha256:" + util::Sha256Hex(c.ca_pem), c.namespace_name,
                      flags.prune, flags.allow_empty, flags.take_ownership,
                      std::vector<std::string>(flags.takeover.names.begin(), flags.takeover.names.end()),
                      origin.Mark(), state::RepairName(flags.repair)};
  // Another cluster can answer at the same URL (a port-forward, a rebuilt cluster): its identity tells.
  const ClusterIdentity identity = ReadClusterIdentity(client);
  if (!identity.ids.Known() && !skip_identity) return UnknownClusterIdentity(c.context_name, identity, "a plan");
  t.cluster_uid = identity.ids.kube_system_uid;
  t.cluster_root_ca_uid = identity.ids.root_ca_uid;
  return t;
}

std::string GitCommit(Context& ctx, const std::string& dir) { return Git(ctx, dir, {"rev-parse", "HEAD"}); }

bool GitDirty(Context& ctx, const std::string& dir) { return !Git(ctx, dir, {"status", "--porcelain"}).empty(); }

std::string ObjectName(const std::string& group, const std::string& kind, const std::string& name) {
  return print::ResourceName({group, kind, name});
}

}  // namespace tazuna::cli
