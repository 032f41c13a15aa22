// SyncEngine's readiness waits: CRDs until Established (when custom resources of them follow), and the
// objects of a layer until ready (WaitPolicy).
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "state/sync_engine.hpp"
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
    if (item.last.state != ReadyState::kReady) MarkNotReady(crds[item.row].result, item, o.crd_timeout, "established");
  }
}

namespace {

// The key a wait polls: the state key with the namespace the object is applied in.
StateKey WhereApplied(StateKey key, const ObjectIdentity& identity) {
  key.namespace_name = identity.namespace_name;
  return key;
}

bool AnyFailed(const std::vector<WaitItem>& items) {
  return std::any_of(items.begin(), items.end(), [](const WaitItem& i) { return i.last.state == ReadyState::kFailed; });
}

// How long the objects of `manifest` are waited for after its layer; nullopt: not at all.
std::optional<std::chrono::seconds> TimeoutOf(const WaitPolicy& w, const std::string& manifest) {
  if (const auto after = w.after.find(manifest); after != w.after.end()) return after->second;
  if (w.depended_on.count(manifest) > 0) return w.timeout;
  return std::nullopt;
}

// The objects of one wait; unchanged ones have no row yet (item index -> the object it reads).
struct PlannedWait {
  std::vector<WaitItem> items;
  std::map<size_t, const DesiredObject*> unchanged;
};

constexpr size_t kNoRow = static_cast<size_t>(-1);

// Unchanged objects may not be ready either (a rerun after a failed wait): they are read, not trusted.
// Kinds that are ready once they exist are left out (MayBeNotReady), so a no-op rerun costs little.
void AddUnchanged(const SyncInput& in, std::chrono::seconds timeout, std::chrono::steady_clock::time_point now,
                  PlannedWait& plan) {
  std::vector<bool> touched(in.desired.objects.size(), false);
  for (const auto& e : in.diff) {
    if (e.object_index >= 0) touched[e.object_index] = true;
  }
  for (size_t i = 0; i < in.desired.objects.size(); ++i) {
    const DesiredObject& d = in.desired.objects[i];
    if (touched[i] || !MayBeNotReady(d.key.group, d.key.kind)) continue;
    plan.items.push_back({in.desired.name, WhereApplied(d.key, d.identity), {ReadyState::kInProgress, kNotReadYet},
                          false, now + timeout, kNoRow});
    plan.unchanged[plan.items.size() - 1] = &d;
  }
}

}  // namespace

void SyncEngine::WaitReady(const LayerRun& run, const SyncOptions& o, std::vector<SyncResult>& out) {
  if (!o.wait.enabled || o.dry_run == kube::DryRun::kAll) return;
  PlannedWait plan;
  const auto now = clock_.Steady();
  for (size_t i = 0; i < run.applied.size(); ++i) {
    const SyncResult& row = out[run.first_row + i];
    const auto timeout = TimeoutOf(o.wait, row.manifest);
    if (!timeout || !WasApplied(row.verb)) continue;
    plan.items.push_back({row.manifest, WhereApplied(row.Parsed(), run.applied[i].entry->identity),
                          run.applied[i].readiness, false, now + *timeout, run.first_row + i});
  }
  for (size_t idx : run.layer) {
    if (const auto timeout = TimeoutOf(o.wait, run.inputs[idx].desired.name)) {
      AddUnchanged(run.inputs[idx], *timeout, now, plan);
    }
  }
  if (std::none_of(plan.items.begin(), plan.items.end(), StillWaiting) && !AnyFailed(plan.items)) return;
  ReadinessWaiter waiter(client_, clock_, log_);
  waiter.set_intervals(o.wait.intervals);
  waiter.Wait(plan.items, o.wait.observe);
  for (size_t i = 0; i < plan.items.size(); ++i) {
    const WaitItem& item = plan.items[i];
    if (item.last.state == ReadyState::kReady) continue;
    size_t row = item.row;
    if (const auto d = plan.unchanged.find(i); d != plan.unchanged.end()) {  // its row says why the run failed
      out.push_back(MakeResult(item.manifest, d->second->key_string, Verb::kUnchanged, d->second->hash));
      failed_unchanged_.insert(d->second->key_string);
      row = out.size() - 1;
    }
    MarkNotReady(out[row], item, *TimeoutOf(o.wait, item.manifest), "ready");
  }
}

}  // namespace tazuna::state
