// SyncEngine::Prune: deletes removed objects after every apply, in reverse dependency order, and only
// what tazuna provably manages and nothing still renders.
#include "state/apply/apply_order.hpp"
#include "state/apply/ownership.hpp"
#include "state/apply/sync_engine.hpp"
#include "state/prune/deleter.hpp"
#include "state/prune/namespace_contents.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// 0: ordinary objects (custom resources included), 1: CRDs, 2: Namespaces: the reverse of the apply order.
int PruneRank(const StateKey& k) { return 2 - static_cast<int>(PhaseOf(k)); }

}  // namespace

struct SyncEngine::PruneTask {
  const DiffEntry* entry = nullptr;
  const ManifestState* stored = nullptr;  ///< the state the entry is in, as read
  bool empty_manifest = false;            ///< its manifest renders nothing
  SyncResult result;
};

// One prune: the guards that need no request here, then per object (a rank at a time) the Deleter's live
// checks and the delete, and the row and checkpoint each outcome leaves.
class SyncEngine::PruneRun {
 public:
  PruneRun(SyncEngine& engine, Checkpointer& cp, const SyncOptions& o, const std::vector<SyncInput>& inputs)
      : cp_(cp), o_(o), deleter_(engine.client_, ScopeOf(o, inputs), engine.limit_.get(),
                                 [&engine, &o] { return engine.MayWrite(o); }) {}

  // Decides what needs no request; true when the task still needs the cluster.
  bool Screen(PruneTask& t, int failed_applies) {
    const DiffEntry& e = *t.entry;
    if (!e.valid_key) return InvalidKey(t);
    if (const std::string* by = deleter_.RenderedBy(e.identity)) {
      return Keep(t, StrCat("still rendered by manifest ", util::Quote(*by)), Forget::kYes);
    }
    const Forget when_pruning = o_.prune ? Forget::kYes : Forget::kNo;
    if (IsReserved(e.identity)) return Keep(t, "tazuna's own object; never pruned", when_pruning);
    if (PhaseOf(e.parsed) == Phase::kNamespace && IsProtectedNamespace(e.identity.name)) {
      return Keep(t, StrCat("namespace ", e.identity.name, " is never pruned"), when_pruning);
    }
    if (!o_.prune) return Keep(t, "", Forget::kNo);
    if (ClaimedByThisRun(*t.stored)) return Keep(t, "state claimed in this run; prune runs on the next sync", Forget::kNo);
    if (failed_applies > 0) {
      return Keep(t, StrCat("not pruned: ", failed_applies, failed_applies == 1 ? " apply" : " applies", " failed"),
                  Forget::kNo);
    }
    if (!o_.others.elsewhere_error.empty()) {
      t.result.refused = true;
      return Keep(t, "not pruned: " + o_.others.elsewhere_error, Forget::kNo);
    }
    if (t.empty_manifest && !o_.allow_empty) {
      t.result.refused = true;
      return Keep(t, "not pruned: the manifest renders no objects; pass --allow-empty to prune it", Forget::kNo);
    }
    return true;
  }

  // Deletes the task's object when every live check passes (Deleter) and records what came of it.
  void PruneOne(PruneTask& t) {
    const DiffEntry& e = *t.entry;
    DeleteOutcome out = deleter_.Delete({t.result.manifest, e.parsed, e.identity, &t.stored->metadata}, PhaseOf(e.parsed));
    switch (out.verdict) {
      case DeleteOutcome::Verdict::kDeleted:
        t.result.verb = Verb::kDeleted;
        Forgotten(t);
        return;
      case DeleteOutcome::Verdict::kGone:
        t.result.verb = Verb::kDeleted;
        t.result.note = std::move(out.note);
        Forgotten(t);
        return;
      case DeleteOutcome::Verdict::kFailed:
        t.result.Fail(std::move(out.error));
        return;
      case DeleteOutcome::Verdict::kKept:
        t.result.refused = t.result.refused || out.refused;
        t.result.forgettable = t.result.forgettable || out.forgettable;
        Keep(t, std::move(out.note), out.forget ? Forget::kYes : Forget::kNo);
        return;
    }
  }

 private:
  enum class Forget { kYes, kNo };

  // What the deletes of this run may not take: everything any manifest of tazuna.yaml still renders.
  static DeleteScope ScopeOf(const SyncOptions& o, const std::vector<SyncInput>& inputs) {
    DeleteScope scope{o.origin, o.dry_run, {}, o.others.planned_uids};
    for (const auto& in : inputs) {
      for (const auto& d : in.desired.objects) scope.rendered.emplace(d.identity, in.desired.name);
    }
    scope.rendered.insert(o.others.rendered_elsewhere.begin(), o.others.rendered_elsewhere.end());
    return scope;
  }

  // A stored key that does not parse, or names no object a request could reach: an error naming the key,
  // never a request; `state forget` drops it.
  bool InvalidKey(PruneTask& t) {
    auto parsed = ParseStateKey(t.result.key);
    const std::string problem = parsed ? KeyNameProblem(*parsed).value_or("") : parsed.error().message;
    t.result.Fail(util::MakeError(util::ErrorKind::kInput,
                                  StrCat("invalid state key ", util::Quote(t.result.key), ": ", problem)));
    t.result.forgettable = true;
    return false;
  }

  bool Keep(PruneTask& t, std::string note, Forget forget) {
    t.result.verb = Verb::kKept;
    t.result.note = std::move(note);
    if (forget == Forget::kYes) Forgotten(t);
    return false;
  }
  // The state no longer records the task's object (it is gone, or no longer this state's).
  void Forgotten(PruneTask& t) {
    if (o_.dry_run == kube::DryRun::kNone) cp_.Set(t.result.manifest, t.result.key, std::nullopt);
  }

  Checkpointer& cp_;
  const SyncOptions& o_;
  Deleter deleter_;
};

void SyncEngine::Prune(std::vector<SyncInput>& inputs, Checkpointer& cp, const SyncOptions& o,
                       std::vector<SyncResult>& out) {
  int failed_applies = 0;
  for (const auto& r : out) failed_applies += IsFailure(r.verb) ? 1 : 0;
  PruneRun run(*this, cp, o, inputs);
  std::vector<PruneTask> ranks[3];
  std::vector<PruneTask> screened;
  for (const auto& in : inputs) {
    for (auto it = in.diff.rbegin(); it != in.diff.rend(); ++it) {
      if (it->type != ChangeType::kRemoved) continue;
      PruneTask t{&*it, &in.stored, in.desired.objects.empty(), MakeResult(it->manifest, it->key, it->identity.namespace_name, Verb::kKept, it->old_hash)};
      if (run.Screen(t, failed_applies)) {
        ranks[PruneRank(it->parsed)].push_back(std::move(t));
      } else {
        screened.push_back(std::move(t));
      }
    }
  }
  for (int rank = 0; rank < 3; ++rank) {
    auto& tasks = ranks[rank];
    util::ParallelFor(tasks.size(), o.concurrency, [&](size_t i) {
      run.PruneOne(tasks[i]);
      Tick();
      if (o.dry_run == kube::DryRun::kNone) {
        if (auto st = cp.MaybeFlush(); !st) Abort(st.error());
      }
    });
    for (auto& t : tasks) out.push_back(std::move(t.result));
  }
  for (auto& t : screened) {
    if (o.prune) Tick();
    out.push_back(std::move(t.result));
  }
}

}  // namespace tazuna::state
