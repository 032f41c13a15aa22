#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace tazuna::state {

/// Limits requests in flight and adapts the limit (AIMD): it grows by about one per round of
/// requests while latency stays near the best seen, shrinks gently when latency climbs (the server
/// is saturated: more in flight only queues), and halves on throttling (429 / APF Retry-After).
/// Thread-safe.
class AdaptiveLimit {
 public:
  /// Starts at `initial`, never above `max` or below 1.
  AdaptiveLimit(int initial, int max);
  /// Blocks until a request may start.
  void Acquire();
  /// Reports a finished request.
  void Release(std::chrono::microseconds latency, bool throttled);
  /// The current limit (rounded down).
  int limit() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  double limit_;
  const int max_;
  int in_flight_ = 0;
  std::chrono::microseconds best_{std::chrono::microseconds::max()};
};

}  // namespace tazuna::state
