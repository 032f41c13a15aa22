#include "state/apply/sync_engine.hpp"

#include <algorithm>
#include <set>

#include "state/apply/apply_order.hpp"
#include "state/diff/live_compare.hpp"
#include "state/diff/marks.hpp"
#include "state/apply/ownership.hpp"
#include "state/readiness/readiness.hpp"
#include "state/store/secret_key.hpp"
#include "util/json_get.hpp"
#include "state/apply/takeover_apply.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// True when WaitPolicy waits for some manifest of this layer.
bool WaitsAfterLayer(const std::vector<SyncInput>& inputs, const std::vector<size_t>& layer, const WaitPolicy& w) {
  return w.enabled && std::any_of(layer.begin(), layer.end(), [&](size_t idx) {
           const std::string& name = inputs[idx].desired.name;
           return w.after.count(name) > 0 || w.depended_on.count(name) > 0;
         });
}

// Whether a sync that leaves `in`'s state as rendered records the render's digest with it.
bool RecordsRenderDigest(const SyncInput& in) {
  if (in.desired.input_digest.empty() || in.desired.from_state || in.desired.always_sync) return false;
  return std::none_of(in.desired.objects.begin(), in.desired.objects.end(),  // RecordsRender would refuse it;
                      [](const DesiredObject& d) { return IsSecret(d.key); });  // a digest of Secret inputs is not kept
}

// Whether the sync leaves `in`'s state exactly the record of its render (so that the render's digest may be
// recorded with it): rendered now, not always-sync, and every row of it applied, unchanged or deleted.
bool LeftAsRendered(const SyncInput& in, const std::vector<SyncResult>& results) {
  if (!RecordsRenderDigest(in)) return false;
  return std::all_of(results.begin(), results.end(), [&](const SyncResult& r) {
    return r.manifest != in.desired.name || r.verb == Verb::kCreated || r.verb == Verb::kConfigured ||
           r.verb == Verb::kAdopted || r.verb == Verb::kUnchanged || r.verb == Verb::kDeleted;
  });
}

}  // namespace

bool ChangesNothing(const SyncInput& in, const SyncOptions& o) {
  const Metadata& m = in.stored.metadata;
  if (!in.stored.exists() || !in.relocations.empty()) return false;
  if (!o.origin.empty() && !(m.origin == o.origin)) return false;
  if (!in.context_namespace.empty() && m.context_namespace != in.context_namespace) return false;
  if (in.desired.from_state) return true;  // its state is the record of this very render, digest and all
  // A state with rows still to do (kept entries), or of a render whose digest is not kept, records no render.
  if (!in.diff.empty() || !RecordsRenderDigest(in)) return m.render_digest.empty();
  return m.render_digest == in.desired.input_digest && m.crd_scopes == in.desired.crd_scopes &&
         m.kind_scopes == in.desired.kind_scopes && m.entries_digest == EntriesDigest(in.stored.entries, m);
}

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

// Resets the run's counters and bookkeeping, and records what every state write carries from the first on.
void SyncEngine::Begin(std::vector<SyncInput>& inputs, const SyncOptions& o, Checkpointer& cp) {
  done_ = 0;
  total_ = 0;
  for (const auto& in : inputs) {
    for (const auto& e : in.diff) total_ += IsApply(e) || o.prune ? 1 : 0;
  }
  limit_ = std::make_unique<AdaptiveLimit>(o.concurrency, o.concurrency);  // start wide; back off on signals
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
}

// An `unchanged` row for every rendered object no diff row and no wait row named.
void SyncEngine::AddUnchangedRows(const std::vector<SyncInput>& inputs, std::vector<SyncResult>& out) const {
  for (const auto& in : inputs) {
    std::vector<bool> touched(in.desired.objects.size(), false);
    for (const auto& e : in.diff) {
      if (e.object_index >= 0) touched[e.object_index] = true;
    }
    for (size_t i = 0; i < in.desired.objects.size(); ++i) {
      const DesiredObject& d = in.desired.objects[i];
      if (!touched[i] && unchanged_rows_.count(d.key_string) == 0) {
        out.push_back(MakeResult(in.desired.name, d.key_string, d.identity.namespace_name, Verb::kUnchanged, d.hash));
      }
    }
  }
}

// A run with no failed or refused row records each state's `_metadata` anew (and the render digest where the
// state is left exactly as rendered), except a state whose entries it did not change and whose `_metadata`
// already says so (ChangesNothing); every run then writes what is pending.
util::Status SyncEngine::Finish(const std::vector<SyncInput>& inputs, const SyncOptions& o, const SyncReport& report,
                                Checkpointer& cp) {
  if (o.dry_run != kube::DryRun::kNone) return util::Ok();
  if (report.failed == 0 && report.refused == 0) {
    for (const auto& in : inputs) {
      if (!cp.Changed(in.desired.name) && ChangesNothing(in, o)) continue;  // nothing to record
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
  return cp.FlushAll();
}

util::Result<SyncReport> SyncEngine::Run(std::vector<SyncInput>& inputs, const std::vector<std::vector<size_t>>& layers,
                                         const SyncOptions& o, const ProgressFn& progress) {
  progress_ = progress;
  Checkpointer cp(store_, clock_, o.checkpoint_interval);
  Begin(inputs, o, cp);
  size_t rows = 0;  // at most one per diff entry and one per unchanged object
  for (const auto& in : inputs) rows += in.diff.size() + in.desired.objects.size();
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
  AddUnchangedRows(inputs, report.results);
  for (const auto& r : report.results) {
    report.failed += IsFailure(r.verb) ? 1 : 0;
    report.refused += r.refused ? 1 : 0;
  }
  if (auto st = Finish(inputs, o, report, cp); !st) return st.error();
  report.state_writes = cp.writes();
  report.throttled = client_.throttled();
  report.concurrency = o.concurrency;
  report.concurrency_low = limit_->lowest();
  return report;
}

}  // namespace tazuna::state
