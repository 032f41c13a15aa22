// kubectl tazuna state sync [-f] [-e] [-t] [-m] [--prune] [--dry-run=none|server] [--concurrency N] [--plan FILE] [-o ...]
#include "cli/state_sync.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>

#include "cli/orphans.hpp"
#include "cli/pipeline.hpp"
#include "cli/progress.hpp"
#include "cli/sync_flags.hpp"
#include "cli/sync_history.hpp"
#include "cli/sync_output.hpp"
#include "cli/takeover_flag.hpp"
#include "cli/wait_output.hpp"
#include "kube/rest_config.hpp"
#include "manifest/manifest.hpp"
#include "state/store/lease.hpp"
#include "state/apply/ownership.hpp"
#include "state/apply/repair.hpp"
#include "state/plan/plan.hpp"
#include "state/store/secret_key.hpp"
#include "util/profile.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

bool HasRemoved(const std::vector<state::SyncInput>& inputs) {
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) {
      if (e.type == state::ChangeType::kRemoved) return true;
    }
  }
  return false;
}

// "-e prod -t net -m cni" (the flags that pick these manifests), or "every manifest".
std::string DescribeSelection(const state::RevisionSelection& s) {
  const std::string flags = state::SelectionFlags(s);
  return flags.empty() ? "every manifest" : flags;
}

// The newest revision, made after `plan`, that synced `manifest` ("" when there is none).
std::string RevisionAfterPlan(kube::Client& client, util::Logger& log, const state::Plan& plan,
                              const std::string& manifest) {
  auto revisions = state::HistoryStore(client).List(log);
  std::chrono::system_clock::time_point planned, started;
  if (!revisions || !util::ParseRfc3339(plan.created_at, &planned)) return "";
  for (const auto& r : *revisions) {
    const bool synced = std::find(r.manifests.begin(), r.manifests.end(), manifest) != r.manifests.end();
    if (synced && util::ParseRfc3339(r.started_at, &started) && started >= planned) return r.id;
  }
  return "";
}

// The revision that applied `plan` ("" when none can be shown to have): the newest revision that synced any
// of the plan's manifests applied this very plan, succeeded and left no row that needs a person, and the
// states (`inputs`, read under the lock) still record exactly what it left. A later sync, uninstall, forget
// or takeover of them, a history that cannot be read, or a run that exited 1: "" (the plan is stale).
std::string RevisionThatApplied(kube::Client& client, util::Logger& log, const state::Plan& plan,
                                const std::vector<state::SyncInput>& inputs) {
  if (!state::StatesRecordPlan(plan, inputs)) return "";
  auto revisions = state::HistoryStore(client).List(log);  // newest first
  if (!revisions) return "";
  std::set<std::string> planned;
  for (const auto& s : plan.states) planned.insert(s.manifest);
  for (const auto& o : plan.objects) planned.insert(o.manifest);
  for (const auto& r : *revisions) {
    if (std::none_of(r.manifests.begin(), r.manifests.end(), [&](const std::string& m) { return planned.count(m) > 0; })) {
      continue;
    }
    if (r.plan_digest != state::PlanDigest(plan) || r.status != state::RevisionStatus::kSucceeded) return "";
    for (const auto& [manifest, verbs] : r.counts) {
      for (const char* v : {"kept", "conflict", "failed", "skipped"}) {
        if (const auto it = verbs.find(v); it != verbs.end() && it->second > 0) return "";
      }
    }
    return r.id;
  }
  return "";
}

// The revision record of a sync, made at its first write: the fence runs before every write the engine
// makes (objects and states), so a sync that changes nothing makes none, and a killed one leaves its record.
struct LazyHistory {
  std::mutex mu;
  std::unique_ptr<SyncHistory> history;
  std::optional<util::Error> error;  ///< the record could not be made: nothing is written
};

// `so.fence`, checking the lock, becomes: check the lock, then make the revision record once.
void StartHistoryAtFirstWrite(Context& ctx, kube::Client& client, util::Logger& log, RevisionStart start,
                              LazyHistory& lazy, state::SyncOptions& so) {
  so.fence = [&ctx, &client, &log, &lazy, start = std::move(start), lock = so.fence]() -> util::Status {
    if (lock) {
      if (auto st = lock(); !st) return st;
    }
    std::lock_guard<std::mutex> guard(lazy.mu);
    if (!lazy.history && !lazy.error) {
      auto started = SyncHistory::Start(ctx, client, log, start);
      if (started) {
        lazy.history = std::move(*started);
      } else {
        lazy.error = started.error();
      }
    }
    if (lazy.error) return *lazy.error;
    return util::Ok();
  };
}

// What a plan is checked against, read under the lock.
struct UnderLock {
  const std::vector<state::SyncInput>& inputs;
  const state::LiveRead& live;  ///< the live objects of the rows, as the applies will see them
};

// With --plan: whether the inputs and the live objects of their rows (read under the lock, so no sync
// can move them between this check and the writes) are exactly the plan's.
util::Status CheckPlanUnderLock(const std::optional<state::Plan>& plan, kube::Client& client, util::Logger& log,
                                const UnderLock& now) {
  if (!plan) return util::Ok();
  auto revision_of = [&](const std::string& m) { return RevisionAfterPlan(client, log, *plan, m); };
  return state::CheckPlan(*plan, now.inputs, now.live, revision_of);
}

// What a sync reads of the live objects, besides the rows' objects.
struct LiveQuery {
  bool planned = false;  ///< with --plan: the removed rows' objects too (the plan pins them)
  state::Repair repair = state::Repair::kAll;
  const state::TakeoverManagers* takeover = nullptr;
  const std::map<std::string, std::vector<manifest::YieldRule>>* yields = nullptr;  ///< each manifest's yieldFields
  int concurrency = 16;  ///< requests in flight checking objects for removed fields
};

// The live objects of the rows (ReadLiveOwners); with --repair=missing or all also of the unchanged objects,
// of which those that are gone become `missing` rows (applied like added ones), and with --repair=all those
// whose applied fields other writers took become `drifted` rows (applied again). An unchanged object whose
// LIST could not answer stays unchanged, with a warning: a check that cannot answer does not act.
state::LiveRead ReadLiveForSync(kube::Client& client, util::Logger& log, std::vector<state::SyncInput>& inputs,
                                const LiveQuery& q) {
  state::LiveRead live;
  std::set<state::ObjectIdentity> unchecked;
  const bool repair = q.repair != state::Repair::kNone;
  const bool fields = q.repair == state::Repair::kAll;
  const state::OwnerQuery query{q.planned ? state::OwnerRows::kChanges : state::OwnerRows::kApplies, q.takeover,
                                &live.unknown,
                                repair ? state::UnchangedObjects::kList : state::UnchangedObjects::kSkip, &unchecked,
                                // yielded fields are left out of every apply; with --repair=all, removed ones are looked for
                                fields ? state::LiveFieldsOf::kEvery : state::LiveFieldsOf::kShared};
  live.owners = state::ReadLiveOwners(client, inputs, query, log);
  if (!repair) return live;
  const size_t missing = state::AddMissingRows(inputs, live.owners, unchecked);
  if (missing > 0) log.Log(1, util::StrCat("repair: ", missing, " recorded objects are gone and are applied again"));
  if (fields) {
    size_t drifted = state::AddDriftedRows(inputs, live.owners, *q.yields, nullptr);
    drifted += state::AddRemovedRows(client, inputs, live.owners, *q.yields, q.concurrency, log);
    if (drifted > 0) {
      log.Log(1, util::StrCat("repair: ", drifted, " objects have fields other writers took and are applied again"));
    }
  }
  if (const std::string warning = state::UncheckedWarning(unchecked); !warning.empty()) log.Warning(warning);
  return live;
}

// What the revision of this sync records at its start.
RevisionStart MakeRevisionStart(const StateSyncOptions& o, const Selection& selection, const state::SyncOptions& so,
                                const std::string& lock_holder) {
  RevisionStart rs{o.plan ? o.plan->selection : o.given_selection, {}, selection.file.dir, so.git_commit, lock_holder,
                   o.plan ? state::PlanDigest(*o.plan) : "", o.history_limit, so.origin.Mark()};
  for (const auto* m : selection.manifests) rs.manifests.push_back(m->name);
  return rs;
}

util::Result<std::chrono::seconds> ParseStatusGrace(const std::string& text) {
  auto parsed = kube::ParseTimeout(text);
  if (!parsed || *parsed < std::chrono::milliseconds(0) || *parsed > std::chrono::hours(24)) {
    return util::MakeError(util::ErrorKind::kUsage,
                           "invalid --status-grace \"" + text + "\": use a duration up to 24h, e.g. 30s (0: none)");
  }
  return std::chrono::duration_cast<std::chrono::seconds>(*parsed);
}

// The helmfile block of a manifest that renders through helmfile (itself or as an oras delegate), or null.
const manifest::HelmfileOptions* HelmfileOf(const manifest::Manifest& m) {
  if (m.type == "helmfile") return &m.helmfile;
  if (m.type == "oras" && m.oras.delegate_type == "helmfile") return &m.oras.helmfile;
  return nullptr;
}

// Which manifests a sync waits for, and how long (SPEC 4.7): with --wait every manifest; a helmfile
// manifest with `wait: true` for its timeoutSeconds; always the manifests a selected manifest dependsOn,
// before that layer starts; with --wait=false none.
// Each manifest's statusGraceSeconds, where set, overrides --status-grace for its objects.
state::WaitPolicy MakeWaitPolicy(const std::vector<const manifest::Manifest*>& selected, const StateSyncOptions& o) {
  const std::optional<bool> wait = o.wait;
  const std::chrono::seconds timeout = o.wait_timeout;
  state::WaitPolicy policy;
  policy.enabled = wait.value_or(true);
  policy.timeout = timeout;
  policy.status_grace = o.status_grace_period;
  for (const manifest::Manifest* m : selected) {
    for (const auto& dep : m->depends_on) policy.depended_on.insert(dep);
    if (m->status_grace_seconds >= 0) policy.status_grace_of[m->name] = std::chrono::seconds(m->status_grace_seconds);
    const manifest::HelmfileOptions* helmfile = HelmfileOf(*m);
    if (helmfile != nullptr && helmfile->wait) {
      policy.after[m->name] = std::chrono::seconds(helmfile->timeout_seconds);
    } else if (wait.value_or(false)) {
      policy.after[m->name] = timeout;
    }
  }
  return policy;
}

}  // namespace

util::Status StateSyncOptions::Complete(Context& ctx, const FlagSet&) {
  if (util::ToLower(ctx.env.GetOr("TAZUNA_STATE_SYNC_DELETE", "")) == "true") prune = true;
  if (auto st = ParseTimeouts(lock_timeout, timeout, lock_wait, wait_timeout); !st) return st;
  auto grace = ParseStatusGrace(status_grace);
  if (!grace) return grace.error();
  status_grace_period = *grace;
  auto repairs = state::ParseRepair(repair);
  if (!repairs) return repairs.error();
  repair_mode = *repairs;
  auto format = print::ParseFormat(output, {"table", "json", "yaml", "name"});
  if (!format) return format.error();
  printer = NewSyncReportPrinter(*format, SyncLineStyle{prune, DryRunStrategy(dry_run)});
  auto managers = ResolveTakeoverManagers(ctx, takeover_managers);
  if (!managers) return managers.error();
  takeover = std::move(*managers);
  given_selection = {file.environment, file.tags, file.manifests};
  if (plan_file.empty()) return util::Ok();
  auto text = ctx.files.ReadFile(plan_file);
  if (!text) return text.error().WithContext("--plan");
  auto decoded = state::DecodePlan(*text);
  if (!decoded) return decoded.error().WithContext("--plan " + plan_file);
  plan = std::move(*decoded);
  file.environment = plan->selection.environment;
  file.tags = plan->selection.tags;
  file.manifests = plan->selection.manifests;
  return util::Ok();
}

util::Status StateSyncOptions::Validate() const {
  if (auto st = ValidateDryRun(dry_run); !st) return st;
  if (concurrency < 1 || concurrency > 512) {
    return util::MakeError(util::ErrorKind::kUsage, "--concurrency must be between 1 and 512");
  }
  if (history_limit < 1 || history_limit > 1000) {
    return util::MakeError(util::ErrorKind::kUsage, "--history-limit must be between 1 and 1000");
  }
  if (!plan) return util::Ok();
  const auto shows = [&](state::ChangeType type) {
    const std::string name = state::ChangeTypeName(type);
    return std::any_of(plan->changes.begin(), plan->changes.end(),
                       [&](const state::PlanRow& r) { return r.change == name; });
  };
  if (shows(state::ChangeType::kMissing) && repair_mode == state::Repair::kNone) {
    return util::MakeError(util::ErrorKind::kUsage,
                           util::StrCat("--plan ", plan_file, " recreates missing objects: it cannot be applied with "
                                        "--repair=none"));
  }
  if (shows(state::ChangeType::kDrifted) && repair_mode != state::Repair::kAll) {
    return util::MakeError(util::ErrorKind::kUsage,
                           util::StrCat("--plan ", plan_file, " takes back drifted fields: it cannot be applied with "
                                        "--repair=", repair));
  }
  const auto& g = given_selection;
  const auto& p = plan->selection;
  if (!state::SelectionAgrees(g, p)) {
    auto e = util::MakeError(util::ErrorKind::kUsage,
                             util::StrCat("--plan ", plan_file, " was made for ", DescribeSelection(p), ", not ",
                                          DescribeSelection(g)));
    e.hint = "Drop -e/-t/-m (the plan's selection is used), or make a new plan with state diff --out.";
    return e;
  }
  return util::Ok();
}

// Longer than 40 lines on purpose: it is the one ordered list of checks that must all pass before the
// first write (context guard, reserved objects, plan target, lock, Secret key, origin, owners, plan,
// revision record), and splitting it hides that order.
util::Result<int> StateSyncOptions::Run(Context& ctx) {
  const auto start = std::chrono::steady_clock::now();
  if (ctx.env.Get("TAZUNA_PROFILE")) util::EnableProfile();  // bench/: client time by phase, printed at exit
  auto at = OpenSelected(ctx, file, connection);
  if (!at) return at.error();
  const Selection& selection = at->selection;
  kube::Client& client = at->client();
  util::Logger& log = at->log();
  // The context guard runs before anything is written.
  if (auto st = manifest::CheckContext(selection.file, client.config().context_name); !st) return st.error();
  auto run = [&] {
    util::ProfileScope profiled(util::ProfilePhase::kRender, util::ProfileClock::kProcess);
    return RenderForCluster(ctx, *at, connection, {!no_render_cache});
  }();
  if (!run) return run.error();
  if (auto st = state::CheckNotReserved(run->manifests); !st) return st.error();
  const state::Origin origin = FindOrigin(ctx, selection.file.path, &log);
  if (plan) {  // a plan applies only where, and as, it was made for: checked before anything is written
    auto target = PlanTargetOf(client, {prune, allow_empty, take_ownership, takeover, repair_mode}, origin,
                               fleet.skip_cluster_identity);
    if (!target) return target.error();
    if (auto st = state::CheckPlanTarget(*plan, *target); !st) return st.error();
  }
  state::SyncOptions so;
  so.prune = prune;
  so.allow_empty = allow_empty;
  so.take_ownership = take_ownership;
  so.takeover = takeover;
  for (const auto& m : selection.file.manifests) so.sibling_manifests.insert(m.name);
  so.dry_run = DryRunStrategy(dry_run);
  so.concurrency = concurrency;
  so.git_commit = GitCommit(ctx, selection.file.dir);
  so.origin = origin;
  state::StateStore store = NewStateStore(client);
  if (so.dry_run == kube::DryRun::kNone) {
    if (auto st = store.EnsureNamespace(); !st) return st.error();
  }
  auto held = TakeSyncLock(ctx, client, log, lock_wait, so);
  if (!held) return held.error();
  const std::string& lock_holder = held->holder;
  if (state::AnySecret(run->manifests)) {  // Secrets are recorded with keyed hashes (the key is made once)
    // A plan vouches only for hashes it could key: with one, the key is never made here.
    const bool make_key = so.dry_run == kube::DryRun::kNone && !plan;
    const auto create = make_key ? state::CreateKey::kYes : state::CreateKey::kNo;
    auto key = state::LoadSecretHashKey(client, create);
    if (!key) return key.error();
    state::KeySecretHashes(run->manifests, *key);
  }
  auto inputs = [&] {
    util::ProfileScope profiled(util::ProfilePhase::kPlan, util::ProfileClock::kProcess);
    return state::PlanSync(store, client, std::move(run->manifests), *run->identities);
  }();
  if (!inputs) return inputs.error();
  for (const auto& in : *inputs) {  // a state managed from another repository is not ours to change
    if (auto st = state::CheckOrigin(in.stored, so.origin); !st) return st.error();
    if (state::ClaimedByThisRun(in.stored) && so.dry_run == kube::DryRun::kNone) {
      log.Warning(util::StrCat("manifest ", util::Quote(in.desired.name), ": its state has no origin (the Go "
                                           "tool's): this sync claims it for ", so.origin.Describe(), " and prunes "
                                           "nothing of it; review its kept rows before the next sync --prune"));
    }
  }
  if (so.dry_run == kube::DryRun::kNone) state::ConfirmContextNamespaces(client, *run->identities, *inputs, log);
  // Who owns what exists already: one metadata-only LIST per kind and namespace of the objects to apply
  // (with --plan, of the objects to prune too; with --repair=missing, of the unchanged ones too, which are
  // applied again where they are gone). The plan is checked against this very read.
  state::LiveRead live;
  {
    util::ProfileScope profiled(util::ProfilePhase::kOwners, util::ProfileClock::kProcess);
    so.yields = YieldRulesOf(selection.manifests);
    live = ReadLiveForSync(client, log, *inputs,
                           {plan.has_value(), repair_mode, &so.takeover, &so.yields, so.concurrency});
  }
  if (auto st = CheckPlanUnderLock(plan, client, log, {*inputs, live}); !st) {
    if (const std::string applied = RevisionThatApplied(client, log, *plan, *inputs); !applied.empty()) {
      ctx.err << "plan " << plan_file << " was already applied by revision " << applied << "; nothing to do\n";
      return kExitOk;
    }
    return st.error();
  }
  if (plan) so.others.planned_uids = state::PlannedPruneUids(*inputs, live.owners);
  so.live_owners = std::move(live.owners);
  so.unknown_owners = std::move(live.unknown);
  // A sync that changes nothing writes nothing, no revision either, so the plans made before it stay valid.
  LazyHistory lazy;
  if (so.dry_run == kube::DryRun::kNone) {
    StartHistoryAtFirstWrite(ctx, client, log, MakeRevisionStart(*this, selection, so, lock_holder), lazy, so);
  }
  if (so.prune && HasRemoved(*inputs)) {
    // Nothing another manifest of tazuna.yaml renders may be pruned, even one -m/-t left out.
    auto elsewhere = RenderedElsewhere(ctx, selection, log, client, {!no_render_cache});
    if (elsewhere) {
      so.others.rendered_elsewhere = std::move(*elsewhere);
    } else {
      so.others.elsewhere_error = "the rest of tazuna.yaml does not render (" + elsewhere.error().message + ")";
    }
  }
  Progress progress(ctx.err, ctx.err_is_terminal && !ctx.env.Get("NO_COLOR"));
  WaitPrinter waits(ctx.err, WaitStyleFor(output, ctx.err_is_terminal && !ctx.env.Get("NO_COLOR")));
  so.wait = MakeWaitPolicy(selection.manifests, *this);
  so.wait.observe = [&](const state::WaitUpdate& u) { waits.Update(u); };
  state::SyncEngine engine(client, store, ctx.clock, log);
  auto report = [&] {
    util::ProfileScope profiled(util::ProfilePhase::kSync, util::ProfileClock::kProcess);
    return engine.Run(*inputs, manifest::SyncLayers(selection.manifests), so,
                      [&](size_t done, size_t total) { progress.Update(done, total); });
  }();
  progress.Done();
  waits.Done();
  std::unique_ptr<SyncHistory>& history = lazy.history;  // the engine's threads are done with it
  util::Status released = util::Ok();  // the entries taken from other states go before the record is finished
  if (report && history) released = state::ReleaseTaken(store, *run->identities, *report);
  if (history) history->Finish(report, *inputs, released);
  // Once the revision record was made a write was under way: an error now stopped a sync part-way (exit 3).
  if (!report) return history ? report.error().PartWay() : report.error();
  if (!released) return released.error().PartWay();
  if (history) report->revision = history->id();
  printer->Print(*report, ctx.out);
  PrintSyncProblems(ctx.err, *report);
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  PrintSyncSummary(ctx.err, *report, secs, client.requests_sent(), so.dry_run != kube::DryRun::kNone);
  WarnRetired(ctx, client, selection.file, so.origin, log);  // retired manifests whose objects still run
  util::PrintProfile(ctx.err, std::chrono::steady_clock::now() - start);
  return NeedsAttention(*report) ? kExitAttention : kExitOk;
}

Command NewStateSyncCommand() {
  auto o = std::make_shared<StateSyncOptions>();
  Command c = Describe("state sync", "Apply what changed since the last sync and record it", LongDesc(R"(
      Render tazuna.yaml, compare it with the recorded state, and apply added, modified and always-sync
      objects with server-side apply (field manager tazuna): Namespaces first, then CRDs (waiting until
      Established), then the rest. State is checkpointed while objects are applied, so a run that is killed
      loses nothing and a rerun converges. Removed objects are deleted only with --prune (or
      TAZUNA_STATE_SYNC_DELETE=true), only when every apply succeeded, and only objects tazuna's field
      manager owns and no manifest of tazuna.yaml still renders; every kept object says why.
      Fields that earlier tools set (kubectl apply/create/edit/replace, helm; see --takeover-managers) and
      the manifest sets too are taken over, so a field later dropped from the manifest is removed.
      Before a dependsOn layer starts, the objects the layers it depends on applied are waited for until
      ready (Deployments available, Jobs complete, CRDs established, Ready conditions True, ...); --wait
      waits after every manifest, helmfile `wait: true` after its manifest, --wait=false never. An object
      that fails or is not ready in time fails the sync and the layers after it are skipped. An object a
      wait finds gone is created again, except a Job whose content already ran (TTL, deleted after it ran).
      Objects the state records as applied that are gone from the cluster (deleted by hand) are applied
      again and printed as created (was missing); objects whose fields tazuna applied another writer took
      since (kubectl edit, set image, label, scale, ...) or removed are applied again and printed as
      configured (repaired: fields changed by ... / fields removed ...), except fields a manifest's
      yieldFields (and the defaults: replicas an autoscaler sets, CA bundles an injector writes) leave to
      others. --repair=missing repairs only missing objects, --repair=none neither.
      One sync at a time holds the Lease tazuna/tazuna-sync. Every sync that writes records a revision
      (see state history), made at its first write: a sync that changes nothing writes no state and no
      revision, so plans made before it stay valid. --plan applies a reviewed plan only if nothing moved
      since it was made, on the server, context namespace and flags it was made for; a plan a revision
      already applied says so and exits 0.
  )"));
  c.writes = true;
  c.exit_one = "rows that need a person: conflict, kept, failed or skipped objects, a refused prune";
  c.examples = Examples(R"(
      # Sync everything in ./tazuna.yaml
      kubectl tazuna state sync

      # Also delete objects that were removed from the manifests
      kubectl tazuna state sync --prune

      # See what the server would do, changing nothing
      kubectl tazuna state sync --dry-run=server

      # Wait until everything applied is ready, at most 10 minutes
      kubectl tazuna state sync --wait --timeout 10m

      # Only what the content hashes say changed: do not recreate objects deleted or edited by hand
      kubectl tazuna state sync --repair=none

      # Apply exactly a reviewed plan
      kubectl tazuna state diff --out plan.json
      kubectl tazuna state sync --plan plan.json

      # Roll out to every prod-* context, one at a time, stopping at the first failure
      kubectl tazuna state sync --contexts 'prod-*'
  )");
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kAll);
    f.Bool(&o->prune, "prune", 0,
           "Delete objects removed from the manifests (also TAZUNA_STATE_SYNC_DELETE=true); only objects tazuna "
           "manages, that nothing in tazuna.yaml renders, after every apply succeeded.");
    f.Bool(&o->allow_empty, "allow-empty", 0, "Let --prune delete every object of a manifest that renders none.");
    f.Bool(&o->take_ownership, "take-ownership", 0,
           "Apply objects another manifest or repository owns (reported as conflict otherwise) and move them to "
           "this one. A whole state managed from another repository is taken over with state takeover.");
    f.String(&o->dry_run, "dry-run", 0, "Must be \"none\" or \"server\". server: send every write with dryRun=All; no state changes.");
    f.Int(&o->concurrency, "concurrency", 0, "Maximum number of API requests in flight.");
    f.String(&o->lock_timeout, "lock-timeout", 0, "How long to wait for another sync's lock (seconds, e.g. 90s).");
    f.String(&o->plan_file, "plan", 0,
             "Apply only what this plan (from state diff --out) showed: refused, writing nothing, when the render, "
             "the recorded state or a changed object's live copy (created, deleted, made again, another owner) "
             "moved since.");
    f.Int(&o->history_limit, "history-limit", 0, "Revisions of the sync history to keep (older ones are deleted).");
    f.OptionalBool(&o->wait, "wait",
                   "Wait until the objects of every manifest are ready (default: only before a dependsOn layer and "
                   "for helmfile wait: true); --wait=false never waits.");
    f.String(&o->timeout, "timeout", 0, "How long --wait and dependsOn waits wait for readiness (e.g. 5m, 90s).");
    f.String(&o->status_grace, "status-grace", 0,
             "How long a wait lets a controller take to write the status of an object only a controller writes "
             "(a custom resource with a status subresource, a PodDisruptionBudget, a LoadBalancer Service) before "
             "it counts as ready with a warning (e.g. 30s; 0: at once). A manifest's statusGraceSeconds overrides it.");
    f.String(&o->repair, "repair", 0,
             "all: also apply again objects the state records as applied that are gone from the cluster (created "
             "(was missing)) or whose fields tazuna applied other writers took since (configured (repaired: ...)), "
             "as one metadata-only LIST per kind and namespace shows; missing: only the gone ones; none: act on "
             "content hashes only.");
    AddTakeoverFlag(f, o->takeover_managers);
    AddOutputFlag(f, o->output, "table, json, yaml, name");
    AddClusterFlags(f, o->connection, o->fleet, &o->no_render_cache);
  };
  return RunsOverFleet(std::move(c), o, [o] {
    FleetRequest r = FleetRequestOf(*o, FleetMode::kRollout, {.noun = "object", .lines_are_rows = true});
    if (!o->plan_file.empty()) r.plan_flag = "--plan", r.plan_path = o->plan_file;
    return r;
  });
}

}  // namespace tazuna::cli
