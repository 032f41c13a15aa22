#include "state/sync_engine.hpp"

#include <algorithm>
#include <set>

#include "state/live_compare.hpp"
#include "state/marks.hpp"
#include "state/ownership.hpp"
#include "state/readiness.hpp"
#include "state/secret_key.hpp"
#include "util/json_get.hpp"
#include "state/takeover_apply.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

const char* VerbName(Verb verb) {
  switch (verb) {
    case Verb::kCreated: return "created";
    case Verb::kConfigured: return "configured";
    case Verb::kUnchanged: return "unchanged";
    case Verb::kDeleted: return "deleted";
    case Verb::kKept: return "kept";
    case Verb::kAdopted: return "adopted";
    case Verb::kConflict: return "conflict";
    case Verb::kSkipped: return "skipped";
    case Verb::kFailed: return "failed";
  }
  return "unknown";
}

StateKey SyncResult::Parsed() const {
  auto parsed = ParseStateKey(key);
  return parsed ? *parsed : StateKey{};
}

const util::Error& SyncResult::Error() const {
  static const util::Error kNone;
  return error ? *error : kNone;
}

namespace {

enum class Phase { kNamespace, kCrd, kRest };

Phase PhaseOf(const StateKey& k) {
  if (k.group.empty() && k.kind == "Namespace") return Phase::kNamespace;
  if (k.group == "apiextensions.k8s.io" && k.kind == "CustomResourceDefinition") return Phase::kCrd;
  return Phase::kRest;
}

bool IsApply(const DiffEntry& e) { return e.type != ChangeType::kRemoved; }


// Why `live` may not be deleted to be created again, or "": tazuna's field manager must own fields of it,
// no other manifest or repository may have marked it, and no controller may own it (a StatefulSet's Pod,
// a CronJob's Job would be replaced behind the controller's back).
std::string NotOursToRecreate(const json& live, const Marks& marks) {
  const LiveOwner owner = OwnerOf(live);
  if (!owner.tazuna_manager) return "managed by " + (owner.managers.empty() ? std::string("nobody") : util::Join(owner.managers, ", "));
  if (!owner.manifest.empty() && owner.manifest != marks.manifest) return "owned by manifest " + util::Quote(owner.manifest);
  if (!owner.origin.empty() && owner.origin != marks.origin) return "owned by repository " + Origin::FromMark(owner.origin).Describe();
  for (const auto& ref : util::JsonArray(util::JsonObject(live, "metadata"), "ownerReferences")) {
    if (util::JsonBool(ref, "controller")) return StrCat("controlled by ", util::JsonString(ref, "kind"), " ", util::JsonString(ref, "name"));
  }
  return "";
}

bool IsRecreatable(const json& object) {
  const std::string api_version = util::JsonString(object, "apiVersion"), kind = util::JsonString(object, "kind");
  return (api_version == "batch/v1" && kind == "Job") || (api_version == "v1" && kind == "Pod");
}

// An Invalid answer whose every cause is an immutable field (a Job's template or selector, a Pod's spec):
// the one answer that recreating the object can cure.
bool OnlyImmutableFields(const util::Error& e) {
  if (!kube::IsReason(e, "Invalid")) return false;
  const auto immutable = [](const std::string& cause) {
    return cause.find("field is immutable") != std::string::npos ||
           cause.find("pod updates may not change fields") != std::string::npos;
  };
  if (e.detail_lines.empty()) return immutable(e.message);
  return std::all_of(e.detail_lines.begin(), e.detail_lines.end(), immutable);
}

// An apply the server rejected outright (the object was not created): 4xx other than 429.
bool DefinitelyNotApplied(const util::Error& e) {
  return e.kind == util::ErrorKind::kApi && e.http_code >= 400 && e.http_code < 500 && e.http_code != 429;
}

// True when WaitPolicy waits for some manifest of this layer.
bool WaitsAfterLayer(const std::vector<SyncInput>& inputs, const std::vector<size_t>& layer, const WaitPolicy& w) {
  return w.enabled && std::any_of(layer.begin(), layer.end(), [&](size_t idx) {
           const std::string& name = inputs[idx].desired.name;
           return w.after.count(name) > 0 || w.depended_on.count(name) > 0;
         });
}

// Whether the sync leaves `in`'s state exactly the record of its render (so that the render's digest may be
// recorded with it): rendered now, not always-sync, and every row of it applied, unchanged or deleted.
bool LeftAsRendered(const SyncInput& in, const std::vector<SyncResult>& results) {
  if (in.desired.input_digest.empty() || in.desired.from_state || in.desired.always_sync) return false;
  for (const auto& d : in.desired.objects) {  // RecordsRender would refuse it; a digest of Secret inputs is not kept
    if (IsSecret(d.key)) return false;
  }
  return std::all_of(results.begin(), results.end(), [&](const SyncResult& r) {
    return r.manifest != in.desired.name || r.verb == Verb::kCreated || r.verb == Verb::kConfigured ||
           r.verb == Verb::kAdopted || r.verb == Verb::kUnchanged || r.verb == Verb::kDeleted;
  });
}

}  // namespace

// What every state write of `in`'s manifest records from the first on, even if this sync fails later:
// the repository it is managed from, the context namespace, and the stored entries RelocateStored moved
// (written before anything is applied in the new context namespace).
void SyncEngine::Record(const SyncInput& in, const SyncOptions& o, Checkpointer& cp) {
  const std::string& name = in.desired.name;
  if (!o.origin.empty()) cp.SetOrigin(name, o.origin);
  if (!in.context_namespace.empty()) cp.SetContextNamespace(name, in.context_namespace);
  for (const auto& r : in.relocations) {
    cp.Set(name, r.from, std::nullopt);
    cp.Set(name, r.to, r.hash);
  }
}

void SyncEngine::Tick() {
  const size_t done = ++done_;
  if (progress_) progress_(done, total_);
}

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

util::Result<kube::ApplyResult> SyncEngine::ApplyOrReplace(Task& task, const json& metadata, bool want_object,
                                                           const SyncOptions& o) {
  const json& object = *task.object;
  kube::ApplyOptions apply;
  apply.dry_run = o.dry_run;
  apply.metadata = &metadata;
  apply.want_object = want_object;
  auto applied = client_.ApplyObject(object, apply);
  // A custom resource whose CRD was established moments ago: discovery can lag for a few seconds.
  const int retries = crds_applied_ ? 40 : 0;  // an unknown kind with no new CRD fails at once
  for (int i = 0; i < retries && !applied && applied.error().kind == util::ErrorKind::kNotFound; ++i) {
    clock_.SleepFor(std::chrono::milliseconds(250));
    applied = client_.ApplyObject(object, apply);
  }
  if (applied || o.dry_run == kube::DryRun::kAll || !IsRecreatable(object) || !OnlyImmutableFields(applied.error())) {
    return applied;
  }
  task.recreated = true;
  return Recreate(object, apply, Marks{task.entry->manifest, o.origin.Mark()});
}

// A create whose answer was lost is sent again (server-side apply), and the second answer may refuse what
// the first created (an admission rule on updates): the object with our marks on the server says so.
bool SyncEngine::ExistsMarked(const json& object, const Marks& marks) {
  const kube::ObjectRef ref = RefOf(object);
  auto live = client_.Get(ref);
  return !live ? !kube::IsReason(live.error(), "NotFound") : CarriesMarks(*live, marks);  // unknown: keep it
}

// Jobs and Pods cannot change most fields in place: when the server answered only that such fields are
// immutable, the object is deleted and created again, as the Go tool does, if it is ours to delete
// (NotOursToRecreate). Before the delete, a dry-run create of the new object must pass validation and
// admission (AlreadyExists is the answer that says so), so that a Job which could not be created again
// is never deleted.
util::Result<kube::ApplyResult> SyncEngine::Recreate(const json& object, const kube::ApplyOptions& apply,
                                                     const Marks& marks) {
  const kube::ObjectRef ref = RefOf(object);
  auto live = client_.Get(ref);
  if (!live) return kube::IsReason(live.error(), "NotFound") ? client_.ApplyObject(object, apply) : live.error();
  if (auto why = NotOursToRecreate(*live, marks); !why.empty()) {
    auto e = util::MakeError(util::ErrorKind::kConflict,
                             StrCat("fields that cannot change changed, and the live ", ref.kind, " is not tazuna's to "
                                    "delete and create again: ", why));
    e.hint = "Delete it yourself (kubectl delete), then sync again.";
    return e;
  }
  json marked = object;
  marked["metadata"] = *apply.metadata;
  if (auto probe = client_.Create(marked, kube::DryRun::kAll); !probe && !kube::IsReason(probe.error(), "AlreadyExists")) {
    return probe.error();
  }
  const std::string uid = util::MetaString(*live, "uid");
  if (auto st = client_.Delete(ref, kube::Propagation::kBackground, kube::DryRun::kNone, {uid, ""});
      !st && !kube::IsReason(st.error(), "NotFound")) {
    return st.error();
  }
  for (int i = 0; i < 300; ++i) {  // until that object is gone (or replaced by someone else's)
    auto got = client_.Get(ref);
    if (!got && kube::IsReason(got.error(), "NotFound")) break;
    if (got && util::MetaString(*got, "uid") != uid) break;
    clock_.SleepFor(std::chrono::seconds(1));
  }
  return client_.ApplyObject(object, apply);
}

void SyncEngine::Abort(const util::Error& error) {
  std::lock_guard<std::mutex> lock(abort_mu_);
  if (!abort_) abort_ = error;
}

std::optional<util::Error> SyncEngine::aborted() {
  std::lock_guard<std::mutex> lock(abort_mu_);
  return abort_;
}

bool SyncEngine::MayWrite(const SyncOptions& o) {
  if (aborted()) return false;
  if (!o.fence) return true;
  auto st = o.fence();
  if (!st) Abort(st.error());
  return static_cast<bool>(st);
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
}

void SyncEngine::ApplyOne(Task& task, Checkpointer& cp, const SyncOptions& o) {
  const DiffEntry& e = *task.entry;
  if (!MayWrite(o)) {
    task.result.verb = Verb::kSkipped;
    task.result.note = "sync stopped";
    Tick();
    return;
  }
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

util::Status SyncEngine::ApplyLayer(std::vector<SyncInput>& inputs, const std::vector<size_t>& layer,
                                    Checkpointer& cp, const SyncOptions& o, std::vector<SyncResult>& out) {
  // One array in apply order (Namespaces, CRDs, the rest), sized once: with thousands of objects, growing
  // and regrouping per-phase copies of the rows was a large part of a sync's peak memory.
  size_t counts[3] = {0, 0, 0};
  for (size_t idx : layer) {
    for (const auto& e : inputs[idx].diff) counts[static_cast<int>(PhaseOf(e.parsed))] += IsApply(e) ? 1 : 0;
  }
  std::vector<Task> applied;
  applied.reserve(counts[0] + counts[1] + counts[2]);
  for (int phase = 0; phase < 3; ++phase) {
    for (size_t idx : layer) {
      SyncInput& in = inputs[idx];
      for (const auto& e : in.diff) {
        if (!IsApply(e) || static_cast<int>(PhaseOf(e.parsed)) != phase) continue;
        applied.push_back(Task{&e, &in.desired.objects[e.object_index].object,
                               MakeResult(e.manifest, e.key, e.identity.namespace_name, Verb::kFailed, e.new_hash), {}});
        // Record intent before the object can exist: an empty hash reads back as "modified", so a
        // run killed after this point re-applies it (or prunes it) instead of forgetting it.
        if (e.type == ChangeType::kAdded && o.dry_run == kube::DryRun::kNone) cp.Set(e.manifest, e.key, "");
        // An object recorded under another apiVersion or group (Diff, PairGroupMoves: the same object) is
        // recorded under the key it is applied with first: the old key may name a version no longer served,
        // through which a later prune would find nothing and forget the object.
        if (!e.old_key.empty() && o.dry_run == kube::DryRun::kNone) {
          cp.Set(e.manifest, e.key, "");
          cp.Set(e.manifest, e.old_key, std::nullopt);
        }
      }
    }
  }
  if (o.dry_run == kube::DryRun::kNone) {
    if (auto st = cp.FlushAll(); !st) return st;
  }
  const size_t first_row = out.size();
  const std::span<Task> all(applied);
  const std::span<Task> phases[3] = {all.first(counts[0]), all.subspan(counts[0], counts[1]),
                                     all.subspan(counts[0] + counts[1])};
  for (int phase = 0; phase < 3; ++phase) {
    ApplyTasks(phases[phase], cp, o);
    if (phase == static_cast<int>(Phase::kCrd)) {
      WaitEstablished(phases[phase], o);
      crds_applied_ = crds_applied_ || !phases[phase].empty();
    }
  }
  for (auto& t : applied) out.push_back(std::move(t.result));
  const bool waits = WaitsAfterLayer(inputs, layer, o.wait);
  // What the layer applied is recorded before a wait that may be long, or be interrupted.
  if (waits && o.dry_run == kube::DryRun::kNone) {
    if (auto st = cp.FlushAll(); !st) return st;
  }
  if (waits) WaitReady({inputs, layer, applied, first_row, cp}, o, out);
  // No flush here: the next layer's intent flush, or the final one with `_metadata`, writes what this
  // layer confirmed (until then its objects are recorded as pending, which is safe).
  return util::Ok();
}

void SyncEngine::SkipLayer(const std::vector<SyncInput>& inputs, const std::vector<size_t>& layer,
                           std::vector<SyncResult>& out) {
  for (size_t idx : layer) {
    for (const auto& e : inputs[idx].diff) {
      if (!IsApply(e)) continue;
      out.push_back(MakeResult(e.manifest, e.key, e.identity.namespace_name, Verb::kSkipped, e.new_hash));
      out.back().note = "an earlier dependsOn layer failed";
      Tick();
    }
  }
}

util::Result<SyncReport> SyncEngine::Run(std::vector<SyncInput>& inputs, const std::vector<std::vector<size_t>>& layers,
                                         const SyncOptions& o, const ProgressFn& progress) {
  progress_ = progress;
  done_ = 0;
  total_ = 0;
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) total_ += IsApply(e) || o.prune ? 1 : 0;
  }
  limit_ = std::make_unique<AdaptiveLimit>(o.concurrency, o.concurrency);  // start wide; back off on signals
  size_t rows = 0;  // at most one per diff entry and one per unchanged object
  for (const auto& in : inputs) rows += in.diff.size() + in.desired.objects.size();
  Checkpointer cp(store_, clock_, o.checkpoint_interval);
  cp.set_fence(o.fence);
  abort_.reset();
  stored_meta_.clear();
  for (auto& in : inputs) {
    cp.Track(in.stored);
    stored_meta_[in.desired.name] = &in.stored.metadata;
    if (o.dry_run == kube::DryRun::kNone) Record(in, o, cp);
  }
  applied_kinds_.clear();
  unchanged_rows_.clear();
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) {
      if (IsApply(e)) applied_kinds_.emplace(e.parsed.group, e.parsed.kind);
    }
  }
  SyncReport report;
  report.results.reserve(rows);
  for (const auto& layer : layers) {
    if (std::any_of(report.results.begin(), report.results.end(), [](const SyncResult& r) { return IsFailure(r.verb); })) {
      SkipLayer(inputs, layer, report.results);  // as the Go tool, a failed layer stops the ones after it
      continue;
    }
    if (auto st = ApplyLayer(inputs, layer, cp, o, report.results); !st) return st.error();
    if (auto stop = aborted()) return *stop;
  }
  Prune(inputs, cp, o, report.results);
  if (auto stop = aborted()) return *stop;
  for (const auto& in : inputs) {
    std::vector<bool> touched(in.desired.objects.size(), false);
    for (const auto& e : in.diff) {
      if (e.object_index >= 0) touched[e.object_index] = true;
    }
    for (size_t i = 0; i < in.desired.objects.size(); ++i) {
      const DesiredObject& d = in.desired.objects[i];
      if (!touched[i] && unchanged_rows_.count(d.key_string) == 0) {
        report.results.push_back(MakeResult(in.desired.name, d.key_string, d.identity.namespace_name, Verb::kUnchanged, d.hash));
      }
    }
  }
  for (const auto& r : report.results) {
    report.failed += IsFailure(r.verb) ? 1 : 0;
    report.refused += r.refused ? 1 : 0;
  }
  if (o.dry_run == kube::DryRun::kNone) {
    if (report.failed == 0 && report.refused == 0) {
      for (const auto& in : inputs) {
        Metadata meta{o.git_commit, util::FormatRfc3339(clock_.Now()), o.origin, {}, in.stored.metadata.taken_from,
                      in.context_namespace};
        if (LeftAsRendered(in, report.results)) {
          meta.render_digest = in.desired.input_digest;
          meta.crd_scopes = in.desired.crd_scopes;
          meta.kind_scopes = in.desired.kind_scopes;
        }
        if (meta.origin.empty()) meta.origin = in.stored.metadata.origin;
        cp.SetMetadata(in.desired.name, meta);
      }
    }
    if (auto st = cp.FlushAll(); !st) return st.error();
  }
  report.state_writes = cp.writes();
  report.throttled = client_.throttled();
  report.concurrency = o.concurrency;
  report.concurrency_low = limit_->lowest();
  return report;
}

}  // namespace tazuna::state
