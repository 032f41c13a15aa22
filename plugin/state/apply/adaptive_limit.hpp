#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace tazuna::state {

/// Limits requests in flight and adapts the limit (AIMD): it grows by about one per round of requests
/// while latency stays within what sharing the server among the requests in flight explains (up to 3x
/// the best seen times the limit), shrinks gently when latency climbs beyond that (the server does less
/// work, not just the same work for more requests at once), and halves on throttling (429 / APF Retry-After), at most once per round
/// (the requests in flight when the server pushed back all report it). Where it was throttled is
/// remembered: for kHoldReleases requests after, it grows no higher than one below that, so a server with
/// a fixed cap (--max-mutating-requests-inflight) is not probed again at once. A throttled request's time,
/// which includes its Retry-After wait, is no latency sample. Thread-safe.
class AdaptiveLimit {
 public:
  /// Requests after a throttle during which the limit stays below where it was throttled.
  static constexpr int kHoldReleases = 256;
  /// Starts at `initial`, never above `max` or below 1.
  AdaptiveLimit(int initial, int max);
  /// Blocks until a request may start.
  void Acquire();
  /// Reports a finished request: how long it took, and whether the server throttled while it ran.
  void Release(std::chrono::microseconds latency, bool throttled);
  /// The current limit (rounded down).
  int limit() const;
  /// The lowest the limit has been (rounded down).
  int lowest() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  double limit_;
  double lowest_;
  const int max_;
  int in_flight_ = 0;
  std::chrono::microseconds best_{std::chrono::microseconds::max()};
  int since_cut_ = 0;  ///< requests released since the last halving
  int round_ = 0;      ///< the limit (before halving) at the last halving: a round is this many releases
  int ceiling_ = 0;    ///< during the hold, the limit stays below this (0: no hold)
};

/// Runs `request` as one request in flight under `limit`: waits for a slot, then reports its latency and
/// whether `client` (anything with `throttled()`, the count of 429 answers) was throttled meanwhile.
template <class Client, class F>
auto RunLimited(AdaptiveLimit& limit, const Client& client, F&& request) -> decltype(request()) {
  limit.Acquire();
  const uint64_t throttled = client.throttled();
  const auto start = std::chrono::steady_clock::now();
  auto result = request();
  limit.Release(std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start),
                client.throttled() != throttled);
  return result;
}

}  // namespace tazuna::state
