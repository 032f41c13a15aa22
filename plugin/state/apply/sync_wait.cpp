// SyncEngine's readiness waits: CRDs until Established (when custom resources of them follow), and the
// objects of a layer until ready (WaitPolicy), objects that vanished meanwhile included.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "state/apply/sync_engine.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using util::StrCat;

namespace {

bool WasApplied(Verb verb) { return verb == Verb::kCreated || verb == Verb::kConfigured || verb == Verb::kAdopted; }

std::string Seconds(std::chrono::seconds s) { return StrCat(s.count(), "s"); }

// The row of an object that did not become ready: it was applied (its state entry stays), but the run fails.
void MarkNotReady(SyncResult& row, const WaitItem& item, std::chrono::seconds timeout, const char* what) {
  const char* done = WasApplied(row.verb) ? "applied" : "unchanged";
  std::string message;
  if (item.last.state == ReadyState::kFailed) {
    message = StrCat(done, ", but failed: ", item.last.message);
  } else if (item.last.state == ReadyState::kNotFound) {
    message = StrCat(done, ", but deleted while it was waited for");
  } else if (item.timed_out) {
    message = StrCat(done, ", but not ", what, " after ", Seconds(timeout), ": ", item.last.message);
  } else {
    message = StrCat(done, ", but not ", what, " when the wait stopped (another object failed): ", item.last.message);
  }
  row.Fail(util::MakeError(util::ErrorKind::kNotReady, std::move(message)));
}

}  // namespace

// Only CRDs whose custom resources this run applies are waited for (all at once): a CRD nothing in the
// run depends on is ready for nobody sooner by waiting, and its GETs can be large.
void SyncEngine::WaitEstablished(std::span<Task> crds, const SyncOptions& o) {
  if (o.dry_run == kube::DryRun::kAll) return;
  std::vector<WaitItem> items;
  const auto deadline = clock_.Steady() + o.crd_timeout;
  for (size_t i = 0; i < crds.size(); ++i) {
    const Task& t = crds[i];
    if (!WasApplied(t.result.verb)) continue;
    const nlohmann::json& spec = util::JsonObject(*t.object, "spec");
    const std::string group = util::JsonString(spec, "group");
    const std::string kind = util::JsonString(util::JsonObject(spec, "names"), "kind");
    if (applied_kinds_.count({group, kind}) == 0) continue;
    items.push_back({t.result.manifest, t.result.Parsed(), t.readiness, false, deadline, i});
  }
  if (items.empty()) return;
  ReadinessWaiter waiter(client_, clock_, log_);
  waiter.set_intervals({std::chrono::milliseconds(50), std::chrono::milliseconds(500)});
  waiter.Wait(items, o.wait.observe);
  for (const auto& item : items) {
    if (item.last.state != ReadyState::kReady) {
      MarkNotReady(crds[item.row].result, item, o.crd_timeout, "established");
    } else {
      crds[item.row].readiness = item.last;  // a wait after the layer knows it is ready: no second line for it
    }
  }
}

// What a wait knows of each object beyond its WaitItem.
struct SyncEngine::Waited {
  const SyncInput* input = nullptr;
  const DesiredObject* desired = nullptr;  ///< the rendered object (kept in memory while it is waited for)
  std::string state_key{};                 ///< the key of its state entry
  bool unchanged = false;                  ///< no row yet: one is made when the wait has news of it
  bool reapplied = false;                  ///< it was missing and this wait applied it again
  bool settled = false;                    ///< its row already says what became of it
};

struct SyncEngine::PlannedWait {
  std::vector<WaitItem> items;
  std::vector<Waited> objects;  ///< parallel to items
};

namespace {

// The key a wait polls: the state key with the namespace the object is applied in.
StateKey WhereApplied(StateKey key, const ObjectIdentity& identity) {
  key.namespace_name = identity.namespace_name;
  return key;
}

// How long the objects of `manifest` are waited for after its layer; nullopt: not at all.
std::optional<std::chrono::seconds> TimeoutOf(const WaitPolicy& w, const std::string& manifest) {
  if (const auto after = w.after.find(manifest); after != w.after.end()) return after->second;
  if (w.depended_on.count(manifest) > 0) return w.timeout;
  return std::nullopt;
}

std::chrono::seconds GraceOf(const WaitPolicy& w, const std::string& manifest) {
  const auto it = w.status_grace_of.find(manifest);
  return it != w.status_grace_of.end() ? it->second : w.status_grace;
}

constexpr size_t kNoRow = static_cast<size_t>(-1);

// The key under which the state holds an unchanged object: its rendered key, or the stored key that
// differs from it only in the namespace segment (the Go tool's keys of cluster-scoped objects), which
// Diff pairs and keeps as written.
std::string StoredKeyOf(const SyncInput& in, const DesiredObject& d) {
  if (in.stored.entries.count(d.key_string) > 0) return d.key_string;
  // Where a stored key puts a namespaced object: its namespace segment, else the context namespace (a key
  // recorded in another one was moved to name it). A cluster-scoped object is named by any segment.
  const auto same_place = [&](const StateKey& k) {
    const std::string& ns = k.namespace_name.empty() ? in.context_namespace : k.namespace_name;
    return d.identity.namespace_name.empty() || ns == d.identity.namespace_name;
  };
  for (const auto& [key, hash] : in.stored.entries) {
    auto parsed = ParseStateKey(key);
    if (parsed && hash == d.hash && parsed->group == d.key.group && parsed->version == d.key.version &&
        parsed->kind == d.key.kind && parsed->name == d.key.name && same_place(*parsed)) {
      return key;
    }
  }
  return d.key_string;
}

}  // namespace

// Unchanged objects may not be ready either (a rerun after a failed wait), or may be gone: they are
// read, not trusted. Kinds that are ready once they exist are left out (MayBeNotReady), so a no-op
// rerun costs little.
void SyncEngine::AddUnchanged(const SyncInput& in, const WaitPolicy& w, PlannedWait& plan) {
  std::vector<bool> touched(in.desired.objects.size(), false);
  for (const auto& e : in.diff) {
    if (e.object_index >= 0) touched[e.object_index] = true;
  }
  const auto deadline = clock_.Steady() + *TimeoutOf(w, in.desired.name);
  for (size_t i = 0; i < in.desired.objects.size(); ++i) {
    const DesiredObject& d = in.desired.objects[i];
    if (touched[i] || !MayBeNotReady(d.key.group, d.key.kind, d.object)) continue;
    WaitItem item{in.desired.name, WhereApplied(d.key, d.identity), {ReadyState::kInProgress, kNotReadYet, ""},
                  false, deadline, kNoRow};
    item.grace = GraceOf(w, in.desired.name);
    plan.items.push_back(std::move(item));
    plan.objects.push_back({&in, &d, StoredKeyOf(in, d), true});
  }
}

void SyncEngine::WaitReady(const LayerRun& run, const SyncOptions& o, std::vector<SyncResult>& out) {
  if (!o.wait.enabled || o.dry_run == kube::DryRun::kAll) return;
  PlannedWait plan;
  const auto now = clock_.Steady();
  for (size_t i = 0; i < run.applied.size(); ++i) {
    const Task& t = run.applied[i];
    const SyncResult& row = out[run.first_row + i];
    const auto timeout = TimeoutOf(o.wait, row.manifest);
    if (!timeout || !WasApplied(row.verb)) continue;
    WaitItem item{row.manifest, WhereApplied(row.Parsed(), t.entry->identity), t.readiness, false, now + *timeout,
                  run.first_row + i};
    item.grace = GraceOf(o.wait, row.manifest);
    item.uid = t.uid;
    plan.items.push_back(std::move(item));
    const SyncInput* in = nullptr;
    for (size_t idx : run.layer) in = run.inputs[idx].desired.name == row.manifest ? &run.inputs[idx] : in;
    plan.objects.push_back({in, in == nullptr ? nullptr : &in->desired.objects[t.entry->object_index], t.entry->key});
  }
  for (size_t idx : run.layer) {
    if (TimeoutOf(o.wait, run.inputs[idx].desired.name)) AddUnchanged(run.inputs[idx], o.wait, plan);
  }
  if (std::none_of(plan.items.begin(), plan.items.end(), StillWaiting) && !WaitEnds(plan.items)) return;
  ReadinessWaiter waiter(client_, clock_, log_);
  waiter.set_intervals(o.wait.intervals);
  do {
    waiter.Wait(plan.items, o.wait.observe);
  } while (ResolveMissing(plan, run, o, out));
  FinishWait(plan, run, o, out);
}

// The rows of what did not get ready. A Job (or a Pod that runs once) that did not finish is recorded
// as pending (an empty hash): its content has not run to the end, so once it is gone (a person deleted
// the failed Job, TTL) the next sync runs it again instead of counting it done.
void SyncEngine::FinishWait(PlannedWait& plan, const LayerRun& run, const SyncOptions& o,
                            std::vector<SyncResult>& out) {
  for (size_t i = 0; i < plan.items.size(); ++i) {
    const WaitItem& item = plan.items[i];
    Waited& w = plan.objects[i];
    if (item.last.state == ReadyState::kReady || w.settled) continue;
    size_t row = RowOf(plan, i, out);
    MarkNotReady(out[row], item, *TimeoutOf(o.wait, item.manifest), "ready");
    if (w.desired != nullptr && RunsToCompletion(item.key.group, item.key.kind, w.desired->object)) {
      run.cp.Set(item.manifest, w.state_key, "");
    }
  }
}

// The row of plan item `i`, made now for an unchanged object (it then has no "unchanged" row at the end).
size_t SyncEngine::RowOf(PlannedWait& plan, size_t i, std::vector<SyncResult>& out) {
  WaitItem& item = plan.items[i];
  Waited& w = plan.objects[i];
  if (item.row != kNoRow) return item.row;
  out.push_back(MakeResult(item.manifest, w.state_key, w.desired->identity.namespace_name, Verb::kUnchanged, w.desired->hash));
  unchanged_rows_.insert(w.desired->key_string);
  item.row = out.size() - 1;
  return item.row;
}

// What became of an object that runs once, that this run applied and that is gone before the wait saw
// it finish (ttlSecondsAfterFinished: 0 deletes it at once): the events the Job controller recorded
// for its uid ("Completed", or the reason it failed) say, else it did not finish as far as anyone knows.
Readiness SyncEngine::OutcomeOfGone(const WaitItem& item) {
  Readiness unknown{ReadyState::kFailed, "deleted before it was seen to finish", ""};
  if (item.uid.empty() || item.key.kind != "Job") return unknown;
  auto events = client_.List("v1", "Event", item.key.namespace_name);
  if (!events) {
    unknown.message += StrCat(" (its events cannot be read: ", events.error().message, ")");
    return unknown;
  }
  static constexpr std::string_view kFailures[] = {"BackoffLimitExceeded", "DeadlineExceeded", "PodFailurePolicy",
                                                   "FailedIndexes", "MaxFailedIndexesExceeded"};
  for (const auto& e : *events) {
    const auto& involved = e.value("involvedObject", nlohmann::json::object());
    if (!involved.is_object() || involved.value("uid", "") != item.uid) continue;
    const std::string reason = e.value("reason", "");
    if (reason == "Completed") return {ReadyState::kReady, "completed, then deleted", ""};
    if (std::find(std::begin(kFailures), std::end(kFailures), reason) != std::end(kFailures)) {
      return {ReadyState::kFailed, StrCat("failed, then deleted: ", reason, ": ", e.value("message", "")), ""};
    }
  }
  return unknown;
}

// Objects the wait found gone. One that runs once (a Job) and is unchanged ran to its end in an earlier
// sync (one that saw it fail or not finish recorded it pending, so it would not be unchanged): it is
// done for that content and is not run again. One this run applied, or this wait saw unfinished, is
// done when its events say it completed. Any other object is applied again, once, with the checks of
// every apply (its owner read again), and waited for until its old deadline. True when anything
// changed: the wait goes on.
bool SyncEngine::ResolveMissing(PlannedWait& plan, const LayerRun& run, const SyncOptions& o,
                                std::vector<SyncResult>& out) {
  bool changed = false;
  for (size_t i = 0; i < plan.items.size(); ++i) {
    WaitItem& item = plan.items[i];
    Waited& w = plan.objects[i];
    if (item.last.state != ReadyState::kNotFound) continue;
    changed = true;
    if (w.desired == nullptr || w.reapplied) {
      item.last = {ReadyState::kFailed, w.reapplied ? "deleted again after it was created again" : "deleted", ""};
    } else if (RunsToCompletion(item.key.group, item.key.kind, w.desired->object)) {
      // Gone before this wait read it: it ran in an earlier sync. Read running, then gone: its events say.
      const bool ran_before = w.unchanged && item.uid.empty();
      const Readiness done{ReadyState::kReady, "gone after it ran; not run again for the same content", ""};
      item.last = ran_before ? done : OutcomeOfGone(item);
      if (item.last.state == ReadyState::kReady) out[RowOf(plan, i, out)].note = item.last.message;
    } else {
      ApplyMissing(plan, i, run, o, out);
    }
    if (o.wait.observe) o.wait.observe({&item, CountWaiting(plan.items), plan.items.size(), &plan.items});
  }
  return changed;
}

// Applies a missing object again as it is rendered (the same content its state records), through
// ApplyOne: the owner of whatever is there now is read first (the run's LIST saw it before it was gone).
void SyncEngine::ApplyMissing(PlannedWait& plan, size_t i, const LayerRun& run, const SyncOptions& o,
                              std::vector<SyncResult>& out) {
  WaitItem& item = plan.items[i];
  Waited& w = plan.objects[i];
  const DesiredObject& d = *w.desired;
  auto parsed = ParseStateKey(w.state_key);
  const DiffEntry e{item.manifest, ChangeType::kModified, w.state_key, parsed ? *parsed : d.key, "", d.hash, d.hash,
                    static_cast<int>(&d - w.input->desired.objects.data()), d.identity, true};
  nlohmann::json object = d.object;  // ApplyOne releases what it applied; the render stays for the next
  SyncOptions again = o;
  again.live_owners.erase(d.identity);
  again.unknown_owners.insert(d.identity);
  Task t{&e, &object, MakeResult(item.manifest, w.state_key, d.identity.namespace_name, Verb::kFailed, d.hash), {}};
  ++total_;
  ApplyOne(t, run.cp, again);
  w.reapplied = true;
  if (t.result.verb == Verb::kCreated) t.result.note = "was missing", t.result.repair = Repair::kMissing;
  const bool applied = WasApplied(t.result.verb);
  out[RowOf(plan, i, out)] = std::move(t.result);
  if (!applied) {
    w.settled = true;  // its row (failed, conflict) says why
    item.last = {ReadyState::kFailed, "missing, and applying it again did not succeed", ""};
    return;
  }
  item.last = t.readiness;
  item.uid = t.uid;
}

}  // namespace tazuna::state
