// SyncEngine's apply of one object: who owns it now (conflicts, adoption, moves between manifests), the
// server-side apply with the take-over of fields earlier tools share, and the row and checkpoint it leaves.
#include <algorithm>

#include "state/apply/apply_order.hpp"
#include "state/apply/ownership.hpp"
#include "state/apply/sync_engine.hpp"
#include "state/apply/drift_fields.hpp"
#include "state/apply/takeover_apply.hpp"
#include "state/diff/live_compare.hpp"
#include "state/diff/marks.hpp"
#include "state/readiness/readiness.hpp"
#include "util/json_get.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// An apply the server rejected outright (the object was not created): 4xx other than 429.
bool DefinitelyNotApplied(const util::Error& e) {
  return e.kind == util::ErrorKind::kApi && e.http_code >= 400 && e.http_code < 500 && e.http_code != 429;
}

}  // namespace

// Readiness is judged from the apply's answer (then polled) only for objects a wait will look at: a CRD
// whose custom resources the run applies, or an object of a kind that can be not ready in a manifest the
// policy waits for. Every other apply asks for metadata only.
bool SyncEngine::JudgedOnApply(const DiffEntry& e, const json& object, const SyncOptions& o) const {
  if (e.parsed.group == "apiextensions.k8s.io" && e.parsed.kind == "CustomResourceDefinition") {
    const json& spec = util::JsonObject(object, "spec");
    return applied_kinds_.count({util::JsonString(spec, "group"),
                                 util::JsonString(util::JsonObject(spec, "names"), "kind")}) > 0;
  }
  if (!o.wait.enabled || !MayBeNotReady(e.parsed.group, e.parsed.kind, object)) return false;
  return o.wait.after.count(e.manifest) > 0 || o.wait.depended_on.count(e.manifest) > 0;
}

// Why `live` (the object `e` names, as it is now) is not this manifest's to change, or "" when it is:
// another repository marked it, or another manifest that this tazuna.yaml does not have.
std::string SyncEngine::ConflictOf(const DiffEntry& e, const LiveOwner* live, const SyncOptions& o) const {
  if (live == nullptr) return "";
  const auto stored = stored_meta_.find(e.manifest);
  const std::string repo = stored == stored_meta_.end() ? "" : ForeignOrigin(*live, o.origin, *stored->second);
  const bool other_manifest = !live->manifest.empty() && live->manifest != e.manifest;
  if (!repo.empty()) {
    return StrCat("owned by manifest ", util::Quote(live->manifest.empty() ? e.manifest : live->manifest),
                  " of repository ", Origin::FromMark(repo).Describe());
  }
  if (other_manifest && o.sibling_manifests.count(live->manifest) == 0) {
    return StrCat("owned by manifest ", util::Quote(live->manifest));
  }
  return "";
}

// The owner of the object `e` names, as it is now: from the run's LIST or, where that LIST could not be
// read, from a GET. Null when the object does not exist; an error when who owns it cannot be read.
util::Result<const LiveOwner*> SyncEngine::LiveOwnerOf(const DiffEntry& e, const SyncOptions& o, LiveOwner& fetched) {
  if (const auto it = o.live_owners.find(e.identity); it != o.live_owners.end()) return &it->second;
  if (o.unknown_owners.count(e.identity) == 0) return static_cast<const LiveOwner*>(nullptr);
  auto live = Limited([&] { return ReadLive(client_, e.parsed, e.identity.namespace_name); });
  if (!live) return live.error().WithContext("cannot tell who owns it");
  if (!live->object) return static_cast<const LiveOwner*>(nullptr);
  fetched = OwnerOf(*live->object, &o.takeover);
  return static_cast<const LiveOwner*>(&fetched);
}

// The row of an apply the server accepted, and what changes hands with it.
void SyncEngine::RecordApplied(Task& task, const kube::ApplyResult& applied, const LiveOwner* live,
                               const std::string& conflict) {
  const DiffEntry& e = *task.entry;
  task.result.verb = applied.created ? Verb::kCreated : Verb::kConfigured;
  if (task.recreated) {
    task.result.verb = Verb::kConfigured;
    task.result.note = "deleted and created again: fields that cannot change changed";
  } else if (!applied.created && live != nullptr && live->manifest.empty() && !live->tazuna_manager) {
    task.result.verb = Verb::kAdopted;  // made by someone else; tazuna manages it from now on
    if (!live->managers.empty()) task.result.note = "was managed by " + util::Join(live->managers, ", ");
  } else if (!applied.created && !conflict.empty()) {
    task.result.note = StrCat("taken over; was ", conflict);
    // --take-ownership: its old state lets go (ReleaseTaken)
    task.result.taken = std::make_unique<TakenFrom>(TakenFrom{live->manifest, e.identity, live->origin});
  } else if (!applied.created && live != nullptr && !live->manifest.empty() && live->manifest != e.manifest) {
    task.result.note = StrCat("moved from manifest ", util::Quote(live->manifest));
  }
  // A missing row that someone made again meanwhile is configured or adopted as any other object.
  if (e.type == ChangeType::kMissing && task.result.verb == Verb::kCreated) {
    task.result.note = "was missing";
    task.result.repair = Repair::kMissing;
  }
  // A drifted row deleted meanwhile is created again as a missing one.
  if (e.type == ChangeType::kDrifted && task.result.verb == Verb::kConfigured && task.result.note.empty()) {
    task.result.note = "repaired: " + e.note;
    task.result.repair = Repair::kFields;
  }
}

void SyncEngine::ApplyOne(Task& task, Checkpointer& cp, const SyncOptions& o) {
  const DiffEntry& e = *task.entry;
  const auto stopped = [&] {
    task.result.verb = Verb::kSkipped;
    task.result.note = "sync stopped";
    Tick();
  };
  if (aborted()) return stopped();
  LiveOwner fetched;
  auto owner = LiveOwnerOf(e, o, fetched);
  const LiveOwner* live = owner ? *owner : nullptr;
  const std::string conflict = owner ? ConflictOf(e, live, o) : "";
  if (!owner || (!conflict.empty() && !o.take_ownership)) {
    if (owner) {
      task.result.verb = Verb::kConflict;  // another manifest's or repository's object: not ours to change
      task.result.note = conflict;
    } else {
      task.result.Fail(owner.error());  // never written without knowing whose it is
    }
    if (o.dry_run == kube::DryRun::kNone && e.type == ChangeType::kAdded) cp.Set(e.manifest, e.key, std::nullopt);
    Tick();
    return;
  }
  if (!MayWrite(o)) return stopped();  // the fence (lock, revision record) right before the first write
  if (live != nullptr && live->fields != nullptr) {  // fields left to their writers stay theirs
    const auto it = o.yields.find(e.manifest);
    static const std::vector<manifest::YieldRule> kNone;
    const auto left = StripYielded(*task.object, e.identity, *live->fields, it == o.yields.end() ? kNone : it->second);
    if (!left.empty()) log_.Log(2, StrCat(e.manifest, ": ", e.key, " leaves to their writers: ", util::Join(left, ", ")));
  }
  const bool judge = JudgedOnApply(e, *task.object, o);
  const Marks marks{e.manifest, o.origin.Mark()};
  // Fields earlier apply tools share with tazuna are taken over around the apply (takeover_apply.hpp).
  ApplyTakeover takeover({client_, log_, o.takeover, o.dry_run}, live != nullptr ? live->takeover.get() : nullptr);
  std::string taken;  // what the take-over let the apply remove
  auto applied = Limited([&]() -> util::Result<kube::ApplyResult> {
    if (auto st = takeover.Before(*task.object); !st) return st.error();
    auto r = ApplyOrReplace(task, MarkedMetadata(*task.object, marks), judge || takeover.active(), o);
    if (r) taken = takeover.After(r->object);
    return r;
  });
  if (applied) {
    RecordApplied(task, *applied, live, conflict);
    if (judge) task.readiness = JudgeReadiness(applied->object);
    task.uid = applied->uid;
    if (!taken.empty()) task.result.note += (task.result.note.empty() ? "" : "; ") + taken;
    if (o.dry_run == kube::DryRun::kNone) {
      cp.Set(e.manifest, e.key, e.new_hash);
      if (!e.old_key.empty()) cp.Set(e.manifest, e.old_key, std::nullopt);
    }
  } else {
    task.result.Fail(applied.error());
    if (o.dry_run == kube::DryRun::kNone && e.type == ChangeType::kAdded && DefinitelyNotApplied(applied.error()) &&
        !ExistsMarked(*task.object, marks)) {
      cp.Set(e.manifest, e.key, std::nullopt);  // never created: drop the pending record
    }
  }
  log_.Log(2, StrCat(e.manifest, ": ", e.key, " ", VerbName(task.result.verb)));
  // Nothing reads an applied object again but a CRD's spec (WaitEstablished) and one a wait watches
  // (applied again if it vanishes): its memory goes to the rows that pile up meanwhile, so thousands of
  // objects do not need both at once.
  if (PhaseOf(e.parsed) != Phase::kCrd && !judge) *task.object = json();
  Tick();
  if (o.dry_run == kube::DryRun::kNone) {
    if (auto st = cp.MaybeFlush(); !st) Abort(st.error());  // progress that cannot be recorded: stop
  }
}

void SyncEngine::ApplyTasks(std::span<Task> tasks, Checkpointer& cp, const SyncOptions& o) {
  util::ParallelFor(tasks.size(), o.concurrency, [&](size_t i) { ApplyOne(tasks[i], cp, o); });
}

}  // namespace tazuna::state
