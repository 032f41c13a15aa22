// SyncEngine::Prune: deletes removed objects after every apply, in reverse dependency order, and only
// what tazuna provably manages and nothing still renders.
#include <algorithm>
#include <map>

#include "kube/served_version.hpp"
#include "state/apply/apply_order.hpp"
#include "state/apply/ownership.hpp"
#include "state/apply/sync_engine.hpp"
#include "state/prune/deleter.hpp"
#include "state/prune/namespace_contents.hpp"
#include "state/readiness/wait.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// The order deletes go in, the reverse of what depends on what: custom resources first, while the controllers
// that hold their finalizers still run (the run waits until they are gone); then what intercepts or serves
// requests (admission webhooks and policies, APIServices); then workloads; then the rest (their RBAC, Services,
// ConfigMaps); then CRDs; then Namespaces.
enum PruneRank { kCustomResources, kAdmission, kWorkloads, kOther, kCrds, kNamespaces, kRanks };

PruneRank RankOf(const StateKey& k) {
  switch (PhaseOf(k)) {
    case Phase::kNamespace: return kNamespaces;
    case Phase::kCrd: return kCrds;
    case Phase::kRest: break;
  }
  if (!BuiltinGroup(k.group)) return kCustomResources;
  if (k.group == "admissionregistration.k8s.io" || k.group == "apiregistration.k8s.io") return kAdmission;
  if (k.group == "apps" || k.group == "batch" || (k.group.empty() && (k.kind == "Pod" || k.kind == "ReplicationController"))) {
    return kWorkloads;
  }
  return kOther;
}

// How long between two reads of custom resources being deleted, at most.
constexpr auto kGoneMaxInterval = std::chrono::milliseconds(2000);

}  // namespace

struct SyncEngine::PruneTask {
  const DiffEntry* entry = nullptr;
  const ManifestState* stored = nullptr;  ///< the state the entry is in, as read
  bool empty_manifest = false;            ///< its manifest renders nothing
  bool stays = false;                     ///< kept, and its state entry stays (the object may live)
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

  // Deletes the task's object when every live check passes (Deleter) and records what came of it. With
  // kWhenGone, a deleted object's entry stays until it is seen gone (ForgetGone): it may wait for finalizers.
  enum class Record { kNow, kWhenGone };
  void PruneOne(PruneTask& t, Record record) {
    const DiffEntry& e = *t.entry;
    DeleteOutcome out = deleter_.Delete({t.result.manifest, e.parsed, e.identity, &t.stored->metadata}, PhaseOf(e.parsed));
    switch (out.verdict) {
      case DeleteOutcome::Verdict::kDeleted:
        t.result.verb = Verb::kDeleted;
        if (record == Record::kNow) Forgotten(t);
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

  // A deleted object (PruneOne with kWhenGone) is gone now.
  void ForgetGone(PruneTask& t) { Forgotten(t); }

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
    t.stays = forget == Forget::kNo;
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

// Waits (up to the sync's --timeout) until the custom resources `tasks` deleted are gone: a finalizer is its
// controller's to finish. Returns those still there when the time is up, each row then `failed` naming the
// finalizers it waits for, its state entry written back (the object lives). A line on stderr per change.
std::vector<std::string> SyncEngine::WaitDeleted(std::vector<PruneTask>& tasks, PruneRun& run, const SyncOptions& o) {
  std::vector<WaitItem> items;
  std::vector<PruneTask*> deleted;
  for (auto& t : tasks) {
    if (t.result.verb != Verb::kDeleted || !t.result.note.empty()) continue;  // "already gone": nothing to wait for
    WaitItem item;
    item.manifest = t.result.manifest;
    item.key = t.entry->parsed;
    item.key.namespace_name = t.entry->identity.namespace_name;
    item.last = {ReadyState::kInProgress, kNotReadYet, ""};
    // Read through the version served now (the recorded one may be gone); no version served: gone with its CRD.
    const kube::ServedVersion served = kube::ServedVersionOf(client_, item.key.group, item.key.version, item.key.kind);
    if (!served.version.empty()) item.key.version = served.version;
    if (served.gone) item.last = {ReadyState::kNotFound, "not found", ""};
    items.push_back(std::move(item));
    deleted.push_back(&t);
  }
  if (items.empty() || o.dry_run != kube::DryRun::kNone) return {};
  const auto forget_gone = [&] {
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].last.state == ReadyState::kNotFound) run.ForgetGone(*deleted[i]);
    }
  };
  ReadinessWaiter reader(client_, clock_, log_);
  const auto deadline = clock_.Steady() + o.wait.timeout;
  auto interval = std::chrono::milliseconds(100);
  std::map<size_t, std::string> told;
  while (true) {
    std::vector<WaitItem*> left;
    for (auto& item : items) {
      if (item.last.state != ReadyState::kNotFound) left.push_back(&item);
    }
    if (left.empty()) break;
    if (clock_.Steady() >= deadline) break;
    reader.Read(left);
    for (size_t i = 0; i < items.size(); ++i) {
      const WaitItem& item = items[i];
      if (item.last.state == ReadyState::kNotFound || item.last.message == kNotReadYet || told[i] == item.last.message) continue;
      told[i] = item.last.message;
      log_.Log(0, StrCat("prune: ", item.key.kind, " ", item.key.namespace_name.empty() ? "" : item.key.namespace_name + "/",
                         item.key.name, ": ", item.last.message));
    }
    if (std::all_of(items.begin(), items.end(), [](const WaitItem& i) { return i.last.state == ReadyState::kNotFound; })) {
      break;
    }
    clock_.SleepFor(interval);
    interval = std::min(kGoneMaxInterval, interval * 2);
  }
  forget_gone();
  std::vector<std::string> stuck;
  for (size_t i = 0; i < items.size(); ++i) {
    if (items[i].last.state == ReadyState::kNotFound) continue;
    const WaitItem& item = items[i];
    const std::string name = StrCat(item.key.kind, " ", item.key.namespace_name.empty() ? "" : item.key.namespace_name + "/",
                                    item.key.name);
    const std::string why = item.last.message == kNotReadYet ? "it could not be read" : item.last.message;
    stuck.push_back(StrCat(name, " (", why, ")"));
    const bool last = PhaseOf(item.key) == Phase::kNamespace;  // nothing is deleted after Namespaces
    deleted[i]->result.Fail(util::MakeError(util::ErrorKind::kApi, StrCat("deleted, but still there after ", o.wait.timeout.count(),
                                                                          "s: ", why, last ? "" : "; nothing that may hold it was deleted")));
  }  // it lives: its entry stays
  return stuck;
}

void SyncEngine::Prune(std::vector<SyncInput>& inputs, Checkpointer& cp, const SyncOptions& o,
                       std::vector<SyncResult>& out) {
  int failed_applies = 0;
  for (const auto& r : out) failed_applies += IsFailure(r.verb) ? 1 : 0;
  PruneRun run(*this, cp, o, inputs);
  std::vector<PruneTask> ranks[kRanks];
  std::vector<PruneTask> screened;
  for (const auto& in : inputs) {
    for (auto it = in.diff.rbegin(); it != in.diff.rend(); ++it) {
      if (it->type != ChangeType::kRemoved) continue;
      PruneTask t{&*it, &in.stored, in.desired.objects.empty(), false, MakeResult(it->manifest, it->key, it->identity.namespace_name, Verb::kKept, it->old_hash)};
      if (run.Screen(t, failed_applies)) {
        ranks[RankOf(it->parsed)].push_back(std::move(t));
      } else {
        screened.push_back(std::move(t));
      }
    }
  }
  std::vector<std::string> stuck;  // custom resources deleted that did not go: nothing after them is deleted
  bool deleting = true;            // every one of them was deleted and waits for its finalizers
  for (int rank = 0; rank < kRanks; ++rank) {
    auto& tasks = ranks[rank];
    if (!stuck.empty()) {
      for (auto& t : tasks) {
        t.result.note = StrCat("not deleted: ", stuck.size(), stuck.size() == 1 ? " custom resource is" : " custom resources are",
                               deleting ? " still being deleted: " : " still there: ", stuck.front());
        t.result.refused = true;
        Tick();
        out.push_back(std::move(t.result));
      }
      continue;
    }
    const bool waited = rank == kCustomResources || (rank == kNamespaces && o.uninstall);
    util::ParallelFor(tasks.size(), o.concurrency, [&](size_t i) {
      run.PruneOne(tasks[i], waited ? PruneRun::Record::kWhenGone : PruneRun::Record::kNow);
      Tick();
      if (o.dry_run == kube::DryRun::kNone) {
        if (auto st = cp.MaybeFlush(); !st) Abort(st.error());
      }
    });
    // A custom resource whose delete failed, or (uninstall) one kept while its entry stays, lives on: nothing
    // that may hold it goes.
    for (const auto& t : tasks) {
      if (rank != kCustomResources) break;
      std::string why;
      if (t.result.verb == Verb::kFailed && t.result.error) why = "its delete failed: " + t.result.error->message;
      if (o.uninstall && t.result.verb == Verb::kKept && t.stays) why = "kept: " + t.result.note;
      if (why.empty()) continue;
      const ObjectIdentity& id = t.entry->identity;
      stuck.push_back(StrCat(id.kind, " ", id.namespace_name.empty() ? "" : id.namespace_name + "/", id.name, " (", why, ")"));
      deleting = false;
    }
    if (waited) {
      auto left = WaitDeleted(tasks, run, o);
      stuck.insert(stuck.end(), left.begin(), left.end());
    }
    for (auto& t : tasks) out.push_back(std::move(t.result));
  }
  for (auto& t : screened) {
    if (o.prune) Tick();
    out.push_back(std::move(t.result));
  }
}

}  // namespace tazuna::state
