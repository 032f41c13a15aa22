#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "state/readiness.hpp"
#include "state/state_key.hpp"
#include "util/clock.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

/// The judgement of an object a wait has not read yet (an unchanged one); reading it ready is not news.
inline constexpr char kNotReadYet[] = "not read yet";

/// One object a sync waits for.
struct WaitItem {
  std::string manifest;
  StateKey key;           ///< group, version, kind, namespace, name of the object
  Readiness last;         ///< the latest judgement (first from the apply response)
  bool timed_out = false; ///< its deadline passed while it was not ready
  std::chrono::steady_clock::time_point deadline;
  size_t row = 0;  ///< the caller's index of its result row
};

/// What a wait reports after every judgement that changed: the item, and how many of `total` still wait.
struct WaitUpdate {
  const WaitItem* item = nullptr;
  size_t waiting = 0;
  size_t total = 0;
  const std::vector<WaitItem>* items = nullptr;  ///< every item of this wait (valid during the call)
};
using WaitObserver = std::function<void(const WaitUpdate&)>;

/// Polling intervals: the first poll comes soon (a CRD is usually Established within milliseconds), then
/// the interval doubles up to `max`.
struct PollIntervals {
  std::chrono::milliseconds first{100};
  std::chrono::milliseconds max{1000};
};

/// Waits until applied objects are ready (JudgeReadiness), failed, or past their deadline.
/// Requests per poll: one per apiVersion, kind and namespace that still has objects waiting (a GET when
/// it is one object, else one LIST of that kind in that namespace), never one per object.
/// An object that is gone reads "not found" and keeps waiting.
class ReadinessWaiter {
 public:
  /// `client`, `clock` and `log` must outlive the waiter.
  ReadinessWaiter(kube::Client& client, util::Clock& clock, util::Logger& log) : client_(client), clock_(clock), log_(log) {}
  void set_intervals(PollIntervals intervals) { intervals_ = intervals; }

  /// Polls until no item is kInProgress within its deadline, or until one is kFailed (a failure ends
  /// the wait at once; the others keep their last judgement). Items hold their last judgement and
  /// timed_out. Every change of a judgement goes to `observe` (may be empty), except an unread item
  /// (kNotReadYet) found ready.
  void Wait(std::vector<WaitItem>& items, const WaitObserver& observe);

 private:
  void Poll(std::vector<WaitItem*>& group);

  kube::Client& client_;
  util::Clock& clock_;
  util::Logger& log_;
  PollIntervals intervals_;
};

/// True while `item` still needs polling: in progress and not timed out.
inline bool StillWaiting(const WaitItem& item) {
  return item.last.state == ReadyState::kInProgress && !item.timed_out;
}

}  // namespace tazuna::state
