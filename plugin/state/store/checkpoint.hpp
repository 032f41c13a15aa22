#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "state/store/store.hpp"
#include "util/clock.hpp"

namespace tazuna::state {

/// Records what a sync changed and writes it to the state ConfigMaps as it goes, so a kill at any
/// moment loses at most the confirmations not yet written, never the record of an object that may
/// exist: that record is an intent (an empty hash) the caller writes with FlushAll before the apply.
/// Confirmations (MaybeFlush) are batched: at most one round of writes per interval, longer as the states
/// grow (RoundInterval: every rewrite costs the server the whole state), and a manifest is rewritten only
/// once its unwritten changes reach a quarter of its entries, so that the bytes written grow with the
/// changes, not with the state times the sync's duration. A lost confirmation costs a re-apply, never an
/// object: a kill loses the confirmations since the last write of each manifest, nothing else.
/// Writes are conditional on resourceVersion; on a conflict the state is re-read and this
/// run's changes are re-applied on top (a concurrent writer is merged, not overwritten).
/// Different manifests are written in parallel (kWritersAtOnce), each by one writer at a time. Thread-safe.
class Checkpointer {
 public:
  Checkpointer(StateStore& store, util::Clock& clock, std::chrono::milliseconds interval)
      : store_(store), clock_(clock), interval_(interval) {}

  /// Called before every state write; a failing fence fails the write (the sync lock was lost).
  void set_fence(std::function<util::Status()> fence) { fence_ = std::move(fence); }
  /// Starts tracking a manifest from its state as read.
  void Track(ManifestState state);
  /// Sets (or, with nullopt, erases) one entry of `manifest`.
  void Set(const std::string& manifest, const std::string& key, std::optional<std::string> hash);
  /// Whether this run set or erased any entry of `manifest` (written or not).
  bool Changed(const std::string& manifest) const;
  /// Replaces `_metadata` (written with the next flush).
  void SetMetadata(const std::string& manifest, const Metadata& metadata);
  /// Every write of `manifest` from now on records `origin` in `_metadata`, the first one included (an
  /// intent flush): the state is this repository's from its first write, whether the sync succeeds or not.
  /// Does not by itself cause a write.
  void SetOrigin(const std::string& manifest, const Origin& origin);
  /// Every write of `manifest` from now on records `context_namespace` in `_metadata` (as SetOrigin).
  void SetContextNamespace(const std::string& manifest, const std::string& context_namespace);
  /// When RoundInterval has passed since the last round, writes the manifests whose unwritten changes reach
  /// a quarter of their entries (at least one change); no-op while another flush runs.
  util::Status MaybeFlush();
  /// Writes every dirty manifest now.
  util::Status FlushAll();
  /// Writes one manifest now (even if clean when `force`).
  util::Status Flush(const std::string& manifest, bool force = false);
  /// Number of ConfigMap writes made (for reports).
  int writes() const { return writes_; }

 private:
  struct Tracked {
    ManifestState state;                                       ///< as last written or read
    std::map<std::string, std::optional<std::string>> changes; ///< every change of this run
    std::optional<Metadata> metadata;
    std::optional<Origin> origin;  ///< recorded by every write (SetOrigin)
    std::optional<std::string> context_namespace;  ///< recorded by every write (SetContextNamespace)
    long version = 0;          ///< bumped on every change
    long written_version = 0;  ///< version last written
    std::mutex flush_mu;       ///< one writer of this manifest at a time
  };

  static ManifestState SnapshotOf(const std::string& manifest, const Tracked& t);
  /// The interval, or 1 ms per entry of the tracked states when that is longer. Called with mu_ held.
  std::chrono::milliseconds RoundInterval() const;

  StateStore& store_;
  util::Clock& clock_;
  /// Which dirty manifests Dirty lists: every one, or those with enough unwritten changes for MaybeFlush.
  enum class Pending { kAny, kDue };
  std::vector<std::string> Dirty(Pending which);
  util::Status FlushEach(const std::vector<std::string>& names);

  std::chrono::milliseconds interval_;
  std::function<util::Status()> fence_;
  mutable std::mutex mu_;  // guards tracked_ (its nodes never move: a Tracked is used by pointer outside the lock)
  std::map<std::string, Tracked> tracked_;
  std::chrono::system_clock::time_point last_flush_{};  // guarded by mu_
  bool flushing_ = false;                                 // guarded by mu_
  int writes_ = 0;
};

}  // namespace tazuna::state
