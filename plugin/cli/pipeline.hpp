#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cli/cached_render.hpp"
#include "cli/context.hpp"
#include "cli/options.hpp"
#include "manifest/manifest.hpp"
#include "state/store/desired.hpp"
#include "state/apply/field_takeover.hpp"
#include "state/apply/result.hpp"
#include "state/store/identity.hpp"
#include "state/plan/plan_file.hpp"
#include "state/store/store.hpp"

namespace tazuna::cli {

/// tazuna.yaml as loaded, and the manifests the flags picked (pointers into `file`).
struct Selection {
  manifest::TazunaFile file;
  std::vector<const manifest::Manifest*> manifests;
  bool oras_offline = false, oras_no_cache = false;  ///< --offline, --no-cache
};

/// Loads -f (with -e) and applies -m/-t.
util::Result<Selection> LoadSelection(Context& ctx, const FileOptions& options);

/// Each of `manifests`' yieldFields by manifest name (state::AddDriftedRows).
std::map<std::string, std::vector<manifest::YieldRule>> YieldRulesOf(const std::vector<const manifest::Manifest*>& manifests);

/// What a command working on the selected manifests of one cluster starts from: tazuna.yaml loaded with
/// the flags' selection, and a session with that cluster.
struct SelectedCluster {
  Selection selection;
  std::unique_ptr<Session> session;
  kube::Client& client() const { return *session->client; }
  util::Logger& log() const { return session->log; }
};

/// LoadSelection, then OpenSession.
util::Result<SelectedCluster> OpenSelected(Context& ctx, const FileOptions& file, const ConnectionOptions& connection);

/// Manifests as rendered, with the resolver that gave their objects identities (reused for stored keys).
struct RenderedRun {
  std::unique_ptr<manifest::ScopeLookup> discovery;   ///< null without a cluster
  std::unique_ptr<state::IdentityResolver> identities;
  std::vector<state::DesiredManifest> manifests;      ///< in the order asked for
};

/// Scopes of kinds as `client`'s API discovery (cached on disk) tells them: the apiVersion asked for, else
/// any served version of its group and kind (a stored key may name a version no longer served).
std::unique_ptr<manifest::ScopeLookup> NewDiscoveryScopes(kube::Client& client);

/// Renders `manifests` (a few at a time), sets each one's defaultNamespace on namespaced kinds (scope
/// from discovery, else the CRDs of every manifest rendered here, else the built-in table), and keys,
/// identifies and hashes the objects. `client` may be null (no cluster; the context namespace is then
/// unknown). `file` is the loaded tazuna.yaml the manifests belong to.
util::Result<RenderedRun> RenderManifests(Context& ctx, const manifest::TazunaFile& file,
                                          const std::vector<const manifest::Manifest*>& manifests,
                                          util::Logger& log, kube::Client* client, const RenderOptions& options = {});

/// RenderManifests of the selected manifests.
util::Result<RenderedRun> RenderSelection(Context& ctx, const Selection& selection, util::Logger& log,
                                          kube::Client* client, const RenderOptions& options = {});

/// RenderSelection for `at`'s cluster; refuses a -n/--namespace that a rendered object's namespace contradicts
/// (state::CheckNamespaceFlag).
util::Result<RenderedRun> RenderForCluster(Context& ctx, SelectedCluster& at, const ConnectionOptions& connection,
                                           const RenderOptions& options);

/// --verify-render-cache: each manifest of `cached` that was not rendered (its state's record or the render cache
/// stood for it) against the same manifest rendered now (`fresh`, in the same order): the same keys with the
/// same hashes, else kInternal naming the manifest and the first key that differs (the digest missed an input;
/// nothing may be recorded from such a run). An object whose hash cannot be known now (a Secret whose hash key
/// cannot be read) cannot be verified: refused too.
util::Status CheckSkippedRenders(const std::vector<state::DesiredManifest>& cached,
                                 const std::vector<state::DesiredManifest>& fresh, util::Logger& log);

/// Where the objects of the manifests the selection leaves out are (identity -> manifest), so that
/// a prune never deletes what another manifest of tazuna.yaml still renders. Error: the first render
/// error (the caller then deletes nothing).
util::Result<std::map<state::ObjectIdentity, std::string>> RenderedElsewhere(Context& ctx, const Selection& selection,
                                                                             util::Logger& log, kube::Client& client,
                                                                             const RenderOptions& options = {});

/// Where `file` (a tazuna.yaml) is managed from: the normalised `origin` remote (else the only remote) of
/// its git repository and its path in it, asked of git or, when git cannot answer (missing, or refusing
/// a checkout another user owns), read from the repository's .git/config. Without a remote: the
/// repository's root directory name (or, outside git, the file's directory name) plus the path, with a
/// warning on `log` (when given) that this origin is weak.
state::Origin FindOrigin(Context& ctx, const std::string& file, util::Logger* log);

/// A StateStore for `client` that writes `tazuna/v<version>` as its ApplySet tooling.
state::StateStore NewStateStore(kube::Client& client);

/// The flags of a sync that a plan is made for and checked against.
struct SyncFlags {
  bool prune = false;
  bool allow_empty = false;
  bool take_ownership = false;
  state::TakeoverManagers takeover = state::DefaultTakeoverManagers();  ///< the resolved --takeover-managers
  state::Repair repair = state::Repair::kAll;                             ///< the parsed --repair
};

/// Where `client` syncs and how (state::PlanTarget): its server, the cluster's identity (ReadClusterIdentity:
/// refused when nothing identifies it, unless `skip_identity`), its context namespace, `flags`, and the
/// repository it marks what it writes with (`origin`, FindOrigin). Two GETs.
util::Result<state::PlanTarget> PlanTargetOf(kube::Client& client, const SyncFlags& flags, const state::Origin& origin,
                                             bool skip_identity);

/// `git rev-parse HEAD` in `dir`, or "" when not a repository or git is missing.
std::string GitCommit(Context& ctx, const std::string& dir);

/// Whether the git work tree of `dir` has uncommitted changes (`git status --porcelain` prints any);
/// false outside a repository.
bool GitDirty(Context& ctx, const std::string& dir);

/// kubectl's `kind.group/name` (lowercase kind), e.g. `deployment.apps/web`, `configmap/cfg` (print::ResourceName).
std::string ObjectName(const std::string& group, const std::string& kind, const std::string& name);

}  // namespace tazuna::cli
