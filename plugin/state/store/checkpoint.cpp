#include "state/store/checkpoint.hpp"

#include <algorithm>
#include <atomic>

#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

namespace {

void ApplyChanges(ManifestState& state, const std::map<std::string, std::optional<std::string>>& changes) {
  for (const auto& [key, hash] : changes) {
    if (hash) {
      state.entries[key] = *hash;
    } else {
      state.entries.erase(key);
    }
  }
}

constexpr int kConflictRetries = 10;
/// Manifests whose states are written at once: the round trips overlap, and each writer holds a few copies of
/// its state (snapshot, data, request body) meanwhile.
constexpr int kWritersAtOnce = 8;
/// A confirmation checkpoint rewrites a manifest's whole state: it waits for changes worth a quarter of it.
constexpr size_t kRewritesPerState = 4;
/// And a round of them waits this long per entry of the states (RoundInterval): 5,000 entries, 5 s.
constexpr std::chrono::microseconds kRoundIntervalPerEntry{1000};

}  // namespace

void Checkpointer::Track(ManifestState state) {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string name = state.manifest;
  tracked_[name].state = std::move(state);
}

void Checkpointer::Set(const std::string& manifest, const std::string& key, std::optional<std::string> hash) {
  std::lock_guard<std::mutex> lock(mu_);
  Tracked& t = tracked_[manifest];
  t.changes[key] = std::move(hash);
  ++t.version;
}

bool Checkpointer::Changed(const std::string& manifest) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto it = tracked_.find(manifest);
  return it != tracked_.end() && !it->second.changes.empty();
}

void Checkpointer::SetMetadata(const std::string& manifest, const Metadata& metadata) {
  std::lock_guard<std::mutex> lock(mu_);
  Tracked& t = tracked_[manifest];
  t.metadata = metadata;
  ++t.version;
}

void Checkpointer::SetOrigin(const std::string& manifest, const Origin& origin) {
  std::lock_guard<std::mutex> lock(mu_);
  tracked_[manifest].origin = origin;
}

void Checkpointer::SetContextNamespace(const std::string& manifest, const std::string& context_namespace) {
  std::lock_guard<std::mutex> lock(mu_);
  tracked_[manifest].context_namespace = context_namespace;
}

// What a write of `t` stores now: the state as last written or read with this run's changes on top, and the
// `_metadata` every write records. Called with mu_ held.
ManifestState Checkpointer::SnapshotOf(const std::string& manifest, const Tracked& t) {
  ManifestState snapshot = t.state;
  snapshot.manifest = manifest;
  ApplyChanges(snapshot, t.changes);
  if (t.metadata) snapshot.metadata = *t.metadata;  // Write names the shards itself
  // A render is recorded only with the entries the final write leaves: any other write drops it.
  if (!t.metadata || snapshot.metadata.render_digest.empty()) {
    snapshot.metadata.render_digest.clear();
    snapshot.metadata.crd_scopes.clear();
    snapshot.metadata.kind_scopes.clear();
  }
  snapshot.metadata.entries_digest =
      snapshot.metadata.render_digest.empty() ? "" : EntriesDigest(snapshot.entries, snapshot.metadata);
  if (t.origin) snapshot.metadata.origin = *t.origin;
  if (t.context_namespace) snapshot.metadata.context_namespace = *t.context_namespace;
  return snapshot;
}

util::Status Checkpointer::Flush(const std::string& manifest, bool force) {
  Tracked* tracked = nullptr;
  {
    std::lock_guard<std::mutex> lock(mu_);
    tracked = &tracked_[manifest];
  }
  std::lock_guard<std::mutex> flush_lock(tracked->flush_mu);
  for (int attempt = 0;; ++attempt) {
    ManifestState snapshot;
    long version = 0;
    {
      std::lock_guard<std::mutex> lock(mu_);
      Tracked& t = *tracked;
      if (!force && t.version == t.written_version) return util::Ok();
      snapshot = SnapshotOf(manifest, t);
      version = t.version;
    }
    if (fence_) {
      if (auto fenced = fence_(); !fenced) return fenced;
    }
    auto st = store_.Write(snapshot);
    if (st) {
      std::lock_guard<std::mutex> lock(mu_);
      Tracked& t = *tracked;
      t.state = std::move(snapshot);
      t.written_version = version;
      ++writes_;
      return util::Ok();
    }
    if (st.error().kind != util::ErrorKind::kConflict || attempt >= kConflictRetries) {
      return st.error().WithContext(util::StrCat("write state of manifest ", manifest));
    }
    auto fresh = store_.Read(manifest);  // another writer got there first: merge onto its state
    if (!fresh) return fresh.error();
    std::lock_guard<std::mutex> lock(mu_);
    Tracked& t = *tracked;
    t.state = std::move(*fresh);
    if (t.metadata) t.metadata->render_digest.clear();  // merged entries are no render's record
  }
}

std::vector<std::string> Checkpointer::Dirty(Pending which) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  for (const auto& [name, t] : tracked_) {
    const auto unwritten = static_cast<size_t>(t.version - t.written_version);
    const size_t due = which == Pending::kDue ? std::max<size_t>(1, t.state.entries.size() / kRewritesPerState) : 1;
    if (unwritten >= due) names.push_back(name);
  }
  return names;
}

// Each manifest's write is whole by itself (store.hpp), so one failing does not undo the others: the writes
// started end, none starts after a failure, and the error returned is the first in `names`' order.
util::Status Checkpointer::FlushEach(const std::vector<std::string>& names) {
  std::vector<util::Status> done(names.size());
  std::atomic<bool> failed{false};
  util::ParallelFor(names.size(), kWritersAtOnce, [&](size_t i) {
    if (failed) return;
    done[i] = Flush(names[i]);
    if (!done[i]) failed = true;
  });
  for (auto& st : done) {
    if (!st) return std::move(st);
  }
  return util::Ok();
}

util::Status Checkpointer::FlushAll() { return FlushEach(Dirty(Pending::kAny)); }

std::chrono::milliseconds Checkpointer::RoundInterval() const {
  size_t entries = 0;
  for (const auto& [name, t] : tracked_) entries += t.state.entries.size();
  const auto scaled = std::chrono::duration_cast<std::chrono::milliseconds>(kRoundIntervalPerEntry * entries);
  return std::max(interval_, scaled);
}

util::Status Checkpointer::MaybeFlush() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    const auto now = clock_.Now();
    if (flushing_ || now - last_flush_ < RoundInterval()) return util::Ok();
    flushing_ = true;
    last_flush_ = now;
  }
  auto st = FlushEach(Dirty(Pending::kDue));
  std::lock_guard<std::mutex> lock(mu_);
  flushing_ = false;
  return st;
}

}  // namespace tazuna::state
