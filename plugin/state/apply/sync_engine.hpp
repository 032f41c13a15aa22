#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <set>
#include <span>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "manifest/model.hpp"
#include "state/apply/adaptive_limit.hpp"
#include "state/apply/result.hpp"
#include "state/store/checkpoint.hpp"
#include "state/diff/diff.hpp"
#include "state/diff/marks.hpp"
#include "state/apply/field_takeover.hpp"
#include "state/readiness/wait.hpp"
#include "util/clock.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

struct LiveFields;  // state/apply/drift_fields.hpp

/// Who owns a live object, read from its marks and managed fields.
struct LiveOwner {
  std::string uid;                    ///< metadata.uid
  std::string manifest;               ///< annotation tazuna.pepabo.com/manifest; empty when unmarked
  std::string origin;                 ///< annotation tazuna.pepabo.com/origin (Origin::Mark); empty when unmarked
  bool tazuna_manager = false;        ///< tazuna's field manager owns fields of it
  std::vector<std::string> managers;  ///< every field manager, in managedFields order, without repeats
  /// Set when fields of apply tools are to be taken over (FindTakeover); null for nearly every object.
  std::shared_ptr<const TakeoverState> takeover;
  /// With OwnerQuery::fields, set when managers other than tazuna own fields of it (ReadLiveFields).
  std::shared_ptr<const LiveFields> fields;
};
/// Live owners by identity (objects that exist only).
using LiveOwners = std::map<ObjectIdentity, LiveOwner>;

/// What prune must know beyond the manifests this run syncs.
struct PruneScope {
  /// Objects rendered by manifests of tazuna.yaml that -m/-t left out of this run -> manifest name.
  std::map<ObjectIdentity, std::string> rendered_elsewhere;
  /// Non-empty: why the rest of tazuna.yaml could not be rendered; then nothing is deleted.
  std::string elsewhere_error;
  /// With --plan: the uid of the object each removed row named when the plan was checked under the lock
  /// ("" when none existed; PlannedPruneUids). Only that very object is deleted: one created again since
  /// (another uid), or created where none was, is kept and the prune counts as refused.
  std::optional<std::map<ObjectIdentity, std::string>> planned_uids;
};

/// When a sync waits for what it applied to be ready (state/readiness.hpp), after the applies of a layer.
struct WaitPolicy {
  bool enabled = true;  ///< false (--wait=false): no readiness waits; CRDs are still waited for (see Run)
  /// Manifests whose applied objects are waited for after their layer -> the timeout of that wait
  /// (every manifest with --wait; a helmfile manifest with `wait: true` and its timeoutSeconds).
  std::map<std::string, std::chrono::seconds> after;
  /// Manifests another manifest of the run dependsOn: waited for (with `timeout`) before the layer after.
  std::set<std::string> depended_on;
  std::chrono::seconds timeout{300};
  /// Objects whose status no controller writes count as ready (with a warning) this long after their
  /// spec was written (JudgeContext::grace); per manifest in `status_grace_of`.
  std::chrono::seconds status_grace{30};
  std::map<std::string, std::chrono::seconds> status_grace_of;
  WaitObserver observe;  ///< every change of a waited object's judgement (may be empty)
  PollIntervals intervals;
};

struct SyncOptions {
  /// Each manifest's yieldFields: fields of them other writers own now are left out of its applies
  /// (StripYielded), besides those every manifest yields.
  std::map<std::string, std::vector<manifest::YieldRule>> yields;
  bool prune = false;
  bool allow_empty = false;  ///< prune a manifest that renders no objects
  /// state delete: deleted Namespaces are waited for until gone too (wait.timeout), as custom resources are
  /// (what lives in one may hold it), each state entry kept until its Namespace is seen gone; and a custom
  /// resource kept while its entry stays (not managed by tazuna, kept changing) stops what may hold it, as one
  /// stuck on its finalizers does.
  bool uninstall = false;
  kube::DryRun dry_run = kube::DryRun::kNone;
  int concurrency = 16;
  std::string git_commit;
  /// This repository: recorded in `_metadata` of every manifest from its state's first write on, and on
  /// every applied object (kOriginAnnotation). Objects marked by another origin are never changed (unless
  /// take_ownership) nor pruned.
  Origin origin;
  std::chrono::seconds crd_timeout{60};
  WaitPolicy wait;
  /// The shortest time between two rounds of confirmation checkpoints (Checkpointer::RoundInterval).
  std::chrono::milliseconds checkpoint_interval{2000};
  PruneScope others;
  /// Owners of live objects the run applies (ReadLiveOwners): another manifest's object is a conflict
  /// unless take_ownership; an object nobody from tazuna manages is `adopted`.
  LiveOwners live_owners;
  /// Objects whose owner the LIST could not read: each is read with a GET before it is written.
  std::set<ObjectIdentity> unknown_owners;
  bool take_ownership = false;
  /// Field managers of earlier apply tools whose fields tazuna takes over (field_takeover.hpp).
  TakeoverManagers takeover = DefaultTakeoverManagers();
  /// Every manifest of this tazuna.yaml: an object owned by one of them moves (it no longer renders
  /// it, or it would be rendered twice), one owned by any other manifest is a conflict.
  std::set<std::string> sibling_manifests;
  /// Called before every write (object or state); an error stops the sync there (the lock was lost).
  std::function<util::Status()> fence;
};

/// One manifest to sync: its render, its state as read, and the diff between them.
struct SyncInput {
  DesiredManifest desired;
  ManifestState stored;  ///< as read, with RelocateStored's moves made
  std::vector<DiffEntry> diff;
  std::vector<Relocation> relocations;  ///< recorded by the sync's first state write
  std::string context_namespace;        ///< recorded in `_metadata` by every state write of the sync
};

/// Whether a sync that changes no entry of `in`'s state (the checkpointer knows: kept rows that keep their
/// entries, unchanged rows) leaves it exactly as stored, so the sync writes nothing of it: its state exists,
/// nothing is to relocate, and the `_metadata` the sync would record differs from the stored one only in
/// lastSyncedAt and gitCommitHash (which then keep the last sync that changed it).
bool ChangesNothing(const SyncInput& in, const SyncOptions& o);

/// Progress: objects done out of total.
using ProgressFn = std::function<void(size_t done, size_t total)>;

/// Applies and prunes with server-side apply, checkpointing state as it goes (see Checkpointer).
/// Requests in flight adapt between 1 and `concurrency` (AdaptiveLimit).
/// `layers` are dependsOn layers of indexes into `inputs`; within a layer Namespaces go first,
/// then CRDs, then the rest, `concurrency` requests in flight. A CRD is waited for until Established
/// (crd_timeout) only when the run applies custom resources of it; one that is not is `failed`.
/// After a layer, its objects are waited for until ready as `wait` says (WaitPolicy); one that fails or
/// is not ready in time is `failed` (its state entry stays: it was applied).
/// A layer after one with a failed apply or wait is not started (its objects are `skipped`).
/// Prunes (when asked) run after all applies and only when none failed, in reverse: everything else,
/// then CRDs, then Namespaces. Never deleted: an object still rendered (any manifest of tazuna.yaml,
/// any key, any group serving it), one tazuna's field manager does not own, a CRD with custom
/// resources left, a Namespace holding rendered objects, the objects of a manifest that renders
/// nothing (unless allow_empty). Deletes carry uid and resourceVersion preconditions. Every kept row
/// says why. Per-object failures are reported in the result (the rest still complete); a state write
/// failure aborts with an Error.
class SyncEngine {
 public:
  SyncEngine(kube::Client& client, StateStore& store, util::Clock& clock, util::Logger& log)
      : client_(client), store_(store), clock_(clock), log_(log) {}

  util::Result<SyncReport> Run(std::vector<SyncInput>& inputs, const std::vector<std::vector<size_t>>& layers,
                               const SyncOptions& options, const ProgressFn& progress);

 private:
  /// One object to apply in a layer, and what came of it.
  struct Task {
    const DiffEntry* entry = nullptr;
    nlohmann::json* object = nullptr;  ///< the rendered object; released once applied (not CRDs)
    SyncResult result;
    Readiness readiness;     ///< judged from the apply response
    std::string uid{};       ///< from the apply response
    bool recreated = false;  ///< deleted and created again (a Job or Pod whose immutable fields changed)
  };
  util::Status ApplyLayer(std::vector<SyncInput>& inputs, const std::vector<size_t>& layer, Checkpointer& cp,
                          const SyncOptions& o, std::vector<SyncResult>& out);
  void SkipLayer(const std::vector<SyncInput>& inputs, const std::vector<size_t>& layer, std::vector<SyncResult>& out);
  void ApplyTasks(std::span<Task> tasks, Checkpointer& cp, const SyncOptions& o);
  void ApplyOne(Task& task, Checkpointer& cp, const SyncOptions& o);
  std::string ConflictOf(const DiffEntry& e, const LiveOwner* live, const SyncOptions& o) const;
  util::Result<const LiveOwner*> LiveOwnerOf(const DiffEntry& e, const SyncOptions& o, LiveOwner& fetched);
  void RecordApplied(Task& task, const kube::ApplyResult& applied, const LiveOwner* live, const std::string& conflict);
  util::Result<kube::ApplyResult> ApplyOrReplace(Task& task, const nlohmann::json& metadata,
                                                 bool want_object, const SyncOptions& o);
  bool ExistsMarked(const nlohmann::json& object, const Marks& marks);
  util::Result<kube::ApplyResult> Recreate(const nlohmann::json& object, const kube::ApplyOptions& apply,
                                           const Marks& marks);
  bool JudgedOnApply(const DiffEntry& e, const nlohmann::json& object, const SyncOptions& o) const;
  void WaitEstablished(std::span<Task> crds, const SyncOptions& o);
  /// A layer whose applies are done: its applied tasks have rows in `out` from first_row on.
  struct LayerRun {
    const std::vector<SyncInput>& inputs;
    const std::vector<size_t>& layer;
    const std::vector<Task>& applied;
    size_t first_row = 0;
    Checkpointer& cp;
  };
  /// Waits for the objects of this layer's manifests that WaitPolicy names: those applied (judged from
  /// the apply response first) and unchanged ones of kinds that can be not ready (MayBeNotReady). A row
  /// that did not get ready becomes `failed`; an unchanged object that did not gets a `failed` row.
  /// An object found gone is applied again (`created`, "was missing"), unless it runs once (a Job) and
  /// its content already ran (sync_wait.cpp).
  void WaitReady(const LayerRun& run, const SyncOptions& o, std::vector<SyncResult>& out);
  struct Waited;
  struct PlannedWait;
  void AddUnchanged(const SyncInput& in, const WaitPolicy& w, PlannedWait& plan);
  bool ResolveMissing(PlannedWait& plan, const LayerRun& run, const SyncOptions& o, std::vector<SyncResult>& out);
  void ApplyMissing(PlannedWait& plan, size_t i, const LayerRun& run, const SyncOptions& o, std::vector<SyncResult>& out);
  Readiness OutcomeOfGone(const WaitItem& item);
  void FinishWait(PlannedWait& plan, const LayerRun& run, const SyncOptions& o, std::vector<SyncResult>& out);
  size_t RowOf(PlannedWait& plan, size_t i, std::vector<SyncResult>& out);
  void Prune(std::vector<SyncInput>& inputs, Checkpointer& cp, const SyncOptions& o, std::vector<SyncResult>& out);
  struct PruneTask;
  class PruneRun;
  std::vector<std::string> WaitDeleted(std::vector<PruneTask>& tasks, PruneRun& run, const SyncOptions& o);
  void Tick();
  void Begin(std::vector<SyncInput>& inputs, const SyncOptions& o, Checkpointer& cp);
  void Record(const SyncInput& in, const SyncOptions& o, Checkpointer& cp);
  void AddUnchangedRows(const std::vector<SyncInput>& inputs, std::vector<SyncResult>& out) const;
  util::Status Finish(const std::vector<SyncInput>& inputs, const SyncOptions& o, const SyncReport& report,
                      Checkpointer& cp);
  /// Records the first error that stops the run (a lost lock, a state write that failed).
  void Abort(const util::Error& error);
  /// The stop reason, once Abort was called.
  std::optional<util::Error> aborted();
  /// Checks the fence before a write; false (after Abort) when the run must stop.
  bool MayWrite(const SyncOptions& o);
  /// Runs one request under the adaptive limit.
  template <class F>
  auto Limited(F&& request) -> decltype(request());

  kube::Client& client_;
  StateStore& store_;
  util::Clock& clock_;
  util::Logger& log_;
  ProgressFn progress_;
  std::mutex abort_mu_;
  std::optional<util::Error> abort_;  ///< guarded by abort_mu_
  std::atomic<size_t> done_{0};
  size_t total_ = 0;
  bool crds_applied_ = false;  ///< this run applied CRDs: custom resources may wait for discovery
  std::set<std::pair<std::string, std::string>> applied_kinds_;  ///< group and kind of every object to apply
  std::set<std::string> unchanged_rows_;  ///< keys of unchanged objects a wait gave a row of their own
  std::map<std::string, const Metadata*> stored_meta_;  ///< manifest -> `_metadata` of its state as read
  std::unique_ptr<AdaptiveLimit> limit_;  ///< requests in flight, adapted to the server
};

template <class F>
inline auto SyncEngine::Limited(F&& request) -> decltype(request()) {
  return RunLimited(*limit_, client_, std::forward<F>(request));
}

}  // namespace tazuna::state
