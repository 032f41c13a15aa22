#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "state/readiness/readiness.hpp"
#include "state/store/state_key.hpp"
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
  /// Objects whose status nobody writes count as ready this long after their spec (JudgeContext::grace).
  std::chrono::seconds grace{30};
  /// When the wait started watching it; set by Wait when left at its default.
  std::chrono::steady_clock::time_point since{};
  std::string uid{};  ///< the uid last seen (from the apply answer, then from every read)
  bool told = false;  ///< its judgement went to the observer at least once
  /// Why the latest read of it failed (a timeout, a 5xx after retries, a kind not served); empty after a
  /// read that answered. Its judgement is then the one before.
  std::string read_error{};
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

/// Waits until applied objects are ready (JudgeReadiness), failed, gone, or past their deadline.
/// Requests per poll: one per apiVersion, kind and namespace that still has objects waiting (a GET when
/// it is one object, else one LIST of that kind in that namespace), never one per object; plus, once per
/// kind of custom resource, a GET of its CRD (does it have a status subresource?).
class ReadinessWaiter {
 public:
  /// `client`, `clock` and `log` must outlive the waiter.
  ReadinessWaiter(kube::Client& client, util::Clock& clock, util::Logger& log)
      : client_(client), clock_(clock), log_(log) {}
  void set_intervals(PollIntervals intervals) { intervals_ = intervals; }

  /// Polls until no item is kInProgress within its deadline, or until one is kFailed or kNotFound (a
  /// failure or a missing object ends the wait at once, so the caller can act; the others keep their
  /// last judgement). The caller resolves kNotFound items before it waits again with them. Items hold
  /// their last judgement and timed_out. Every change of a judgement goes to `observe` (may be empty),
  /// except an unread item (kNotReadYet) found ready; so does, when the wait starts, the first
  /// judgement of an item not yet told (what it waits for, from the apply's answer).
  void Wait(std::vector<WaitItem>& items, const WaitObserver& observe);
  /// Reads and judges every one of `items` once, now: the one reader behind Wait and any check of how
  /// recorded objects stand. One request per apiVersion, kind and namespace (a GET for one object, else a
  /// LIST); an object the server does not have is kNotFound; one that could not be read (a timeout, a 5xx
  /// after retries) keeps its last judgement.
  void Read(const std::vector<WaitItem*>& items);

 private:
  /// `items` grouped by apiVersion, kind and namespace, the order polls go in.
  static std::vector<std::vector<WaitItem*>> ByKindAndNamespace(const std::vector<WaitItem*>& items);
  void Poll(std::vector<WaitItem*>& group);
  void Judge(WaitItem& item, const nlohmann::json& object);
  /// Whether custom resources of `key`'s kind have a status subresource (their CRD, read once).
  StatusSubresource StatusSubresourceOf(const StateKey& key);

  kube::Client& client_;
  util::Clock& clock_;
  util::Logger& log_;
  PollIntervals intervals_;
  std::map<std::string, StatusSubresource> subresources_;  ///< "apiVersion/Kind" -> answer
  std::map<std::string, std::string> crd_errors_;  ///< "apiVersion/Kind" -> why its CRD could not be read
};

/// True when the wait must stop: an item failed, or is gone.
bool WaitEnds(const std::vector<WaitItem>& items);

/// True while `item` still needs polling: in progress and not timed out.
inline bool StillWaiting(const WaitItem& item) {
  return item.last.state == ReadyState::kInProgress && !item.timed_out;
}
/// How many of `items` are StillWaiting.
size_t CountWaiting(const std::vector<WaitItem>& items);

}  // namespace tazuna::state
