// kubectl tazuna state delete -m NAME... | --orphaned [--dry-run=server] [--timeout D] [-o ...]
#include "cli/state_delete.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "cli/orphans.hpp"
#include "cli/pipeline.hpp"
#include "cli/progress.hpp"
#include "cli/sync_flags.hpp"
#include "cli/sync_history.hpp"
#include "cli/sync_output.hpp"
#include "manifest/select.hpp"
#include "state/apply/ownership.hpp"
#include "state/plan/plan.hpp"
#include "state/store/lease.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

using util::StrCat;

// The manifests to uninstall, in the order their objects go: states tazuna.yaml does not name first (nothing in
// it can depend on them), then those it names, in the reverse of their dependsOn layers.
struct Uninstall {
  std::vector<std::vector<std::string>> layers;
  std::vector<std::string> names;  ///< every one, once
};

// tazuna.yaml as the -f/-e flags name it, every manifest of it (-m names states, which need no entry in it).
util::Result<std::optional<Selection>> LoadFile(Context& ctx, const StateDeleteOptions& o) {
  if (!o.read_file) return std::optional<Selection>();
  FileOptions whole = o.file;
  whole.manifests.clear();
  whole.tags.clear();
  auto loaded = LoadSelection(ctx, whole);
  if (!loaded) return loaded.error();
  return std::optional<Selection>(std::move(*loaded));
}

const manifest::Manifest* FileManifest(const std::optional<Selection>& file, const std::string& name) {
  if (!file) return nullptr;
  for (const auto& m : file->file.manifests) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

// --orphaned: the states this repository wrote that tazuna.yaml no longer names; the others are named on stderr.
util::Result<std::vector<std::string>> Orphaned(Context& ctx, kube::Client& client, util::Logger& log,
                                                const Selection& file, const state::Origin& origin) {
  if (auto st = CheckOrphanBasis(ctx, file.file); !st) return st.error();
  auto orphans = FindOrphans(client, file.file, origin);
  if (!orphans) return orphans.error();
  if (!orphans->unreadable.empty()) {  // it may be one of ours: which states are orphans is not known
    auto e = util::MakeError(util::ErrorKind::kApi,
                             StrCat("cannot tell which states are orphaned: ", orphans->unreadable.front()));
    e.hint = "Nothing was deleted. Delete the orphans by name (-m), or fix that state.";
    return e;
  }
  for (const auto& why : orphans->skipped) log.Log(1, "skipped " + why);
  if (!orphans->skipped.empty()) {  // other repositories' states are many in a shared cluster: counted, named at -v=1
    ctx.err << "skipped " << orphans->skipped.size() << (orphans->skipped.size() == 1 ? " state" : " states")
            << " tazuna.yaml does not name that this repository did not write (-v=1 names them)\n";
  }
  std::vector<std::string> out;
  for (const auto& st : orphans->ours) out.push_back(st.manifest);
  return out;
}

// -m as given, each once; a name with no state is an error (with --ignore-not-found, a line on stderr).
util::Result<std::vector<std::string>> Named(Context& ctx, state::StateStore& store, const StateDeleteOptions& o) {
  auto in_cluster = store.ListManifests();
  if (!in_cluster) return in_cluster.error();
  std::vector<std::string> out;
  for (const auto& m : o.file.manifests) {
    if (std::find(out.begin(), out.end(), m) != out.end()) continue;
    if (std::find(in_cluster->begin(), in_cluster->end(), m) == in_cluster->end()) {
      if (o.ignore_not_found) {
        ctx.err << "manifest " << util::Quote(m) << " has no state in this cluster: nothing to delete\n";
        continue;
      }
      return util::MakeError(util::ErrorKind::kNotFound,
                             StrCat("manifest ", util::Quote(m), " has no state in this cluster (see state list --all)"));
    }
    out.push_back(m);
  }
  return out;
}

Uninstall OrderOf(const std::vector<std::string>& names, const std::optional<Selection>& file) {
  Uninstall u;
  u.layers = UninstallLayers(names, file ? &file->file : nullptr);
  for (const auto& l : u.layers) u.names.insert(u.names.end(), l.begin(), l.end());
  return u;
}

// A state tazuna.yaml does not name has no place in the dependsOn order: it goes with manifests of one layer at
// most (its custom resources then go before anything of theirs), never before a later layer that may need it.
util::Status CheckPlaceable(const Uninstall& u, const std::optional<Selection>& file) {
  if (u.layers.size() < 2) return util::Ok();
  for (const auto& n : u.layers.front()) {
    if (FileManifest(file, n) != nullptr) continue;
    auto e = util::MakeError(util::ErrorKind::kUsage,
                             StrCat("manifest ", util::Quote(n), " is not in tazuna.yaml, so where it goes in the dependsOn "
                                    "order of the others cannot be told"));
    e.hint = "Delete it on its own (state delete -m " + n + "), or with manifests of one dependsOn layer.";
    return e;
  }
  return util::Ok();
}

// What the deletes may not take besides the uninstalled states' own objects: everything the rest of tazuna.yaml
// renders; without a tazuna.yaml, everything the other states in the cluster record. An error: nothing is deleted.
void ScopeOthers(Context& ctx, const std::optional<Selection>& file, const Uninstall& u, kube::Client& client,
                 util::Logger& log, state::IdentityResolver& ids, state::PruneScope& scope) {
  if (file) {
    Selection rest{file->file, {}};  // the uninstalled ones as its selection: RenderedElsewhere renders the others
    for (const auto& m : rest.file.manifests) {
      if (std::find(u.names.begin(), u.names.end(), m.name) != u.names.end()) rest.manifests.push_back(&m);
    }
    auto elsewhere = RenderedElsewhere(ctx, rest, log, client);
    if (elsewhere) {
      scope.rendered_elsewhere = std::move(*elsewhere);
    } else {
      scope.elsewhere_error = "the rest of tazuna.yaml does not render (" + elsewhere.error().message + ")";
    }
    return;
  }
  state::StateStore store(client);
  auto names = store.ListManifests();
  if (!names) {
    scope.elsewhere_error = "the other states cannot be read (" + names.error().message + ")";
    return;
  }
  for (const auto& name : *names) {
    if (std::find(u.names.begin(), u.names.end(), name) != u.names.end()) continue;
    auto st = store.Read(name);
    if (!st) {
      scope.elsewhere_error = StrCat("the state of manifest ", util::Quote(name), " cannot be read (", st.error().message, ")");
      return;
    }
    for (const auto& [key, hash] : st->entries) {
      auto parsed = state::ParseStateKey(key);
      if (parsed) scope.rendered_elsewhere.emplace(ids.ResolveStored(*parsed, st->metadata.context_namespace), name);
    }
  }
}

// Every recorded object of `names` as a removed row (a render of nothing), each state checked to be this
// repository's first.
util::Result<std::vector<state::SyncInput>> InputsOf(const std::vector<std::string>& names, state::StateStore& store,
                                                     kube::Client& client, state::IdentityResolver& ids,
                                                     const state::Origin& origin) {
  auto stored = state::ReadStates(store, names);
  if (!stored) return stored.error();
  std::vector<state::DesiredManifest> desired;
  for (const auto& n : names) {
    const state::ManifestState& st = stored->at(n);
    if (auto ok = state::CheckOrigin(st, origin); !ok) return ok.error();
    if (state::ClaimedByThisRun(st)) {
      auto e = util::MakeError(util::ErrorKind::kConflict,
                               StrCat("manifest ", util::Quote(n), ": its state has no origin (the Go tool's, or never "
                                      "synced by this tool): nothing proves its objects are this repository's"));
      e.hint = "Sync it once from its repository (state sync -m " + n + "), then delete it.";
      return e;
    }
    if (auto where = UnknownNamespaces(st, ids); !where.empty()) {
      auto e = util::MakeError(util::ErrorKind::kConflict,
                               StrCat("manifest ", util::Quote(n), ": its state records no context namespace, so where ",
                                      where, " lives cannot be told"));
      e.hint = "Sync it once with -n set to the namespace it was synced to (state sync -m " + n + " -n NAMESPACE), then delete it.";
      return e;
    }
    desired.emplace_back().name = n;
  }
  return state::PlanSyncFrom(client, std::move(desired), std::move(*stored), ids);
}

// The rows of manifests an earlier layer's failure kept from being deleted.
void KeepLayer(std::vector<state::SyncInput>& inputs, const std::string& blocker, state::SyncReport& report) {
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) {
      auto row = state::MakeResult(e.manifest, e.key, e.identity.namespace_name, state::Verb::kKept, e.old_hash);
      row.note = "not deleted: " + blocker;
      row.refused = true;
      ++report.refused;
      report.results.push_back(std::move(row));
    }
  }
}

// Whether the states of `layer` record nothing any more (a dry run changed nothing: its rows tell). A state
// that cannot be read is not known to be empty.
bool LayerGone(state::StateStore& store, const std::vector<std::string>& layer, kube::DryRun dry_run) {
  if (dry_run != kube::DryRun::kNone) return true;
  return std::all_of(layer.begin(), layer.end(), [&](const std::string& n) {
    auto st = store.Read(n);
    return st && st->entries.empty();
  });
}

void Merge(state::SyncReport& into, state::SyncReport&& part) {
  for (auto& r : part.results) into.results.push_back(std::move(r));
  into.failed += part.failed;
  into.refused += part.refused;
  into.state_writes += part.state_writes;
  into.throttled = std::max(into.throttled, part.throttled);
  into.concurrency = part.concurrency;
  into.concurrency_low = into.concurrency_low == 0 ? part.concurrency_low : std::min(into.concurrency_low, part.concurrency_low);
}

// "delete: 12 deleted, 1 kept, 0 failed; 2 states removed in 3.10s (40 API requests, 5 state writes)".
void PrintDeleteSummary(std::ostream& err, const state::SyncReport& report, int states_removed, double seconds,
                        uint64_t requests) {
  int deleted = 0, kept = 0, failed = 0;
  for (const auto& r : report.results) {
    deleted += r.verb == state::Verb::kDeleted ? 1 : 0;
    kept += r.verb == state::Verb::kKept ? 1 : 0;
    failed += state::IsFailure(r.verb) ? 1 : 0;
  }
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.2fs", seconds);
  err << "delete: " << deleted << " deleted, " << kept << " kept, " << failed << " failed; " << states_removed
      << (states_removed == 1 ? " state" : " states") << " removed in " << elapsed << " (" << requests
      << " API requests, " << report.state_writes << " state writes)\n";
}

}  // namespace

// dependsOn is read over the whole file (a dependency through a manifest not uninstalled still orders the
// two); states it does not name go with the first layer, where the rank order (custom resources first) still
// deletes what they may hold before them.
std::vector<std::vector<std::string>> UninstallLayers(const std::vector<std::string>& names,
                                                      const manifest::TazunaFile* file) {
  std::vector<std::vector<std::string>> out;
  std::vector<std::string> unlisted;
  for (const auto& n : names) {
    const bool listed = file != nullptr && std::any_of(file->manifests.begin(), file->manifests.end(),
                                                       [&](const manifest::Manifest& m) { return m.name == n; });
    if (!listed) unlisted.push_back(n);
  }
  if (file != nullptr) {
    std::vector<const manifest::Manifest*> all;
    for (const auto& m : file->manifests) all.push_back(&m);
    auto layers = manifest::SyncLayers(all);
    for (auto it = layers.rbegin(); it != layers.rend(); ++it) {
      std::vector<std::string> layer;
      for (size_t i : *it) {
        if (std::find(names.begin(), names.end(), all[i]->name) != names.end()) layer.push_back(all[i]->name);
      }
      if (!layer.empty()) out.push_back(std::move(layer));
    }
  }
  if (out.empty()) out.emplace_back();
  out.front().insert(out.front().begin(), unlisted.begin(), unlisted.end());
  return out;
}

util::Status StateDeleteOptions::Complete(Context& ctx, const FlagSet& flags) {
  if (auto st = ParseTimeouts(lock_timeout, timeout, lock_wait, wait_timeout); !st) return st;
  auto format = print::ParseFormat(output, {"table", "json", "yaml", "name"});
  if (!format) return format.error();
  printer = NewSyncReportPrinter(*format, SyncLineStyle{true, DryRunStrategy(dry_run)});
  read_file = orphaned || flags.Changed("file") || ctx.files.Exists(file.file);
  return util::Ok();
}

util::Status StateDeleteOptions::Validate() const {
  if (orphaned == !file.manifests.empty()) {
    return util::MakeError(util::ErrorKind::kUsage, orphaned ? "--orphaned and -m/--manifest cannot be used together"
                                                             : "name the manifests to delete with -m, or use --orphaned");
  }
  if (auto st = ValidateDryRun(dry_run); !st) return st;
  if (concurrency < 1 || concurrency > 512) {
    return util::MakeError(util::ErrorKind::kUsage, "--concurrency must be between 1 and 512");
  }
  if (history_limit < 1 || history_limit > 1000) {
    return util::MakeError(util::ErrorKind::kUsage, "--history-limit must be between 1 and 1000");
  }
  return util::Ok();
}

// Longer than 40 lines on purpose, as state sync's Run: the one ordered list of checks before the first
// delete (context guard, lock, origin, what else renders, revision record), then the layers in order.
util::Result<int> StateDeleteOptions::Run(Context& ctx) {
  const auto start = std::chrono::steady_clock::now();
  auto file_sel = LoadFile(ctx, *this);
  if (!file_sel) return file_sel.error();
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  kube::Client& client = *(*session)->client;
  util::Logger& log = (*session)->log;
  if (*file_sel) {  // the context guard of tazuna.yaml runs before anything is written
    if (auto st = manifest::CheckContext((*file_sel)->file, client.config().context_name); !st) return st.error();
  }
  state::StateStore store = NewStateStore(client);
  const state::Origin origin = FindOrigin(ctx, file.file, &log);
  state::SyncOptions so;
  so.prune = true;
  so.allow_empty = true;  // the point: every object goes
  so.uninstall = true;  // Namespaces waited for until gone; a custom resource kept stops what may hold it
  so.dry_run = DryRunStrategy(dry_run);
  so.concurrency = concurrency;
  so.origin = origin;
  so.wait.enabled = false;  // nothing is applied; deleted custom resources are waited for until gone
  so.wait.timeout = wait_timeout;
  if (*file_sel) {
    so.git_commit = GitCommit(ctx, (*file_sel)->file.dir);
    for (const auto& m : (*file_sel)->file.manifests) so.sibling_manifests.insert(m.name);
  }
  auto held = TakeSyncLock(ctx, client, log, lock_wait, so);
  if (!held) return held.error();
  auto names = orphaned ? Orphaned(ctx, client, log, **file_sel, origin) : Named(ctx, store, *this);
  if (!names) return names.error();
  if (names->empty()) {
    ctx.err << (orphaned ? "No orphaned state found.\n" : "Nothing to delete.\n");
    return kExitOk;
  }
  const Uninstall order = OrderOf(*names, *file_sel);
  if (auto st = CheckPlaceable(order, *file_sel); !st) return st.error();
  auto scopes = NewDiscoveryScopes(client);
  state::IdentityResolver ids(scopes.get(), client.config().namespace_name);
  auto inputs = InputsOf(order.names, store, client, ids, origin);
  if (!inputs) return inputs.error();
  for (const auto& n : order.names) {
    if (FileManifest(*file_sel, n) != nullptr) {
      log.Warning(StrCat("manifest ", util::Quote(n), " is still in ", file.file, ": the next state sync installs it again"));
    }
  }
  ScopeOthers(ctx, *file_sel, order, client, log, ids, so.others);
  std::unique_ptr<SyncHistory> history;  // created before the first delete, so a killed run leaves its record
  if (so.dry_run == kube::DryRun::kNone) {
    const RevisionStart rs{{file.environment, {}, file.manifests}, order.names,
                           *file_sel ? (*file_sel)->file.dir : "", so.git_commit, held->holder, "", history_limit,
                           origin.Mark()};
    auto started = SyncHistory::Start(ctx, client, log, rs);
    if (!started) return started.error();
    history = std::move(*started);
  }
  // One engine run per layer: a layer starts only once every object of the layers before it is gone.
  std::map<std::string, state::SyncInput*> by_name;
  for (auto& in : *inputs) by_name[in.desired.name] = &in;
  state::SyncEngine engine(client, store, ctx.clock, log);
  Progress progress(ctx.err, ctx.err_is_terminal && !ctx.env.Get("NO_COLOR"));
  state::SyncReport report;
  std::vector<state::SyncInput> done;  // every input, in the order run, for the history record
  std::string blocker;
  for (const auto& layer : order.layers) {
    std::vector<state::SyncInput> part;
    for (const auto& n : layer) part.push_back(std::move(*by_name[n]));
    if (!blocker.empty()) {
      KeepLayer(part, blocker, report);
    } else {
      std::vector<size_t> all(part.size());
      for (size_t i = 0; i < all.size(); ++i) all[i] = i;
      auto ran = engine.Run(part, {all}, so, [&](size_t d, size_t t) { progress.Update(d, t); });
      if (!ran) {
        progress.Done();
        for (auto& in : part) done.push_back(std::move(in));
        if (history) history->Finish(ran, done);
        return history ? ran.error().PartWay() : ran.error();
      }
      if (ran->failed > 0 || ran->refused > 0 || !LayerGone(store, layer, so.dry_run)) {
        blocker = StrCat("manifest ", util::Quote(layer.front()), layer.size() > 1 ? " (and others of its layer)" : "",
                         ", which may depend on it, was not deleted completely");
      }
      Merge(report, std::move(*ran));
    }
    for (auto& in : part) done.push_back(std::move(in));
  }
  progress.Done();
  if (history) {  // Finish reads a sync's result: the report goes through one and comes back
    util::Result<state::SyncReport> result(std::move(report));
    history->Finish(result, done);
    report = std::move(*result);
  }
  // A state goes once it records nothing; one that still records objects keeps exactly those.
  int removed = 0;
  std::vector<std::string> remaining;  // "manifest \"x\" (3 objects)"
  if (so.dry_run == kube::DryRun::kNone) {
    for (const auto& n : order.names) {
      auto st = store.Read(n);
      if (!st) return st.error().PartWay();
      if (!st->entries.empty()) {
        remaining.push_back(StrCat("manifest ", util::Quote(n), " (", st->entries.size(),
                                   st->entries.size() == 1 ? " object)" : " objects)"));
        continue;
      }
      if (auto still = held->lock->Check(); !still) return still.error().PartWay();
      if (auto d = store.Delete(*st); !d) return d.error().WithContext("manifest " + util::Quote(n)).PartWay();
      ++removed;
      ctx.err << "state of manifest " << util::Quote(n) << " removed\n";
    }
  }
  printer->Print(report, ctx.out);
  PrintSyncProblems(ctx.err, report);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PrintDeleteSummary(ctx.err, report, removed, secs, client.requests_sent());
  if (!remaining.empty()) {  // an uninstall that leaves objects recorded did not finish, whatever kept them
    ctx.err << "error: not uninstalled completely: the state of " << util::Join(remaining, ", ")
            << " stays, recording what is left (see the kept rows)\n";
    return kExitAttention;
  }
  return NeedsAttention(report) ? kExitAttention : kExitOk;
}

Command NewStateDeleteCommand() {
  auto o = std::make_shared<StateDeleteOptions>();
  Command c = Describe("state delete", "Uninstall manifests: delete every object their states record, then the states",
                       LongDesc(R"(
      Delete every object the state of each named manifest records, then the state itself. Driven by the
      state, not by a render: it works when tazuna.yaml no longer lists the manifest, when its render fails
      and when its renderer is not installed. --orphaned uninstalls every state this repository wrote that
      tazuna.yaml no longer names.

      Order: across manifests, the reverse of their dependsOn layers (states tazuna.yaml does not name
      first); within a layer, custom resources first, waited for until gone (their controllers still run
      and finish their finalizers), then admission webhooks and APIServices, then workloads, then the rest,
      then CRDs, then Namespaces. A custom resource still there after --timeout is named with its
      finalizers, and nothing that may hold it is deleted; finalizers are never removed.

      Every guard of sync --prune holds: only objects tazuna's field manager owns, that this manifest and
      this repository marked, and that nothing in tazuna.yaml (without a tazuna.yaml: no other state)
      renders; a CRD only when no custom resources of it are left; a Namespace only when everything in it
      goes in the same run; kube-system, default and the other protected namespaces never. A state is
      removed once it records nothing; otherwise it keeps exactly the objects that remain, and each kept
      row says why. Takes the sync lock and records a revision (see state history); a killed run converges
      when run again.
  )"));
  c.writes = true;
  c.exit_one = "rows that need a person: kept or failed objects (not uninstalled completely)";
  c.examples = Examples(R"(
      # Uninstall the ingress manifest (listed in tazuna.yaml or not)
      kubectl tazuna state delete -m ingress

      # Uninstall every manifest removed from tazuna.yaml
      kubectl tazuna state delete --orphaned

      # See what the server would delete, changing nothing
      kubectl tazuna state delete -m ingress --dry-run=server
  )");
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kFileManifestAndEnvironment);
    f.Bool(&o->orphaned, "orphaned", 0, "Every state this repository wrote that tazuna.yaml no longer names.");
    f.Bool(&o->ignore_not_found, "ignore-not-found", 0, "A manifest -m names that has no state is not an error.");
    f.String(&o->dry_run, "dry-run", 0, "Must be \"none\" or \"server\". server: send every delete with dryRun=All; no state changes.");
    f.Int(&o->concurrency, "concurrency", 0, "Maximum number of API requests in flight.");
    f.String(&o->timeout, "timeout", 0, "How long deleted custom resources are waited for until gone (e.g. 5m, 90s).");
    f.String(&o->lock_timeout, "lock-timeout", 0, "How long to wait for another sync's lock (seconds, e.g. 90s).");
    f.Int(&o->history_limit, "history-limit", 0, "Revisions of the sync history to keep (older ones are deleted).");
    AddOutputFlag(f, o->output, "table, json, yaml, name");
    AddClusterFlags(f, o->connection, o->fleet, nullptr);
  };
  return RunsOverFleet(std::move(c), o, [o] {
    return FleetRequestOf(*o, FleetMode::kRollout, {.noun = "object", .lines_are_rows = true});
  });
}

}  // namespace tazuna::cli
