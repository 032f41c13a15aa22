#include "state/apply/adaptive_limit.hpp"

#include <algorithm>
#include <cmath>

namespace tazuna::state {

AdaptiveLimit::AdaptiveLimit(int initial, int max)
    : limit_(std::clamp(initial, 1, std::max(1, max))), lowest_(limit_), max_(std::max(1, max)) {}

void AdaptiveLimit::Acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return in_flight_ < static_cast<int>(limit_); });
  ++in_flight_;
}

void AdaptiveLimit::Release(std::chrono::microseconds latency, bool throttled) {
  int free_slots = 0;
  {
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
    ++since_cut_;
    if (throttled) {
      if (round_ == 0 || since_cut_ >= round_) {  // once per round: one push-back reaches every request in flight
        round_ = std::max(1, static_cast<int>(limit_));
        ceiling_ = round_;
        limit_ = std::max(1.0, limit_ / 2);
        since_cut_ = 0;
      }
    } else {
      if (ceiling_ > 0 && since_cut_ >= kHoldReleases) ceiling_ = 0;  // probe above it again
      const double cap = ceiling_ > 0 ? std::max(1, ceiling_ - 1) : max_;
      best_ = std::min(best_, latency);
      // Requests in flight share the server: `limit_` of them take up to `limit_` times as long as one alone
      // without the server doing any less. Only latency beyond that (3x) says it is doing less.
      const double shared = std::max(1.0, std::floor(limit_));
      if (latency <= best_ * 3 * shared + std::chrono::milliseconds(5)) {
        limit_ = std::max(limit_, std::min<double>(cap, limit_ + 1.0 / limit_));  // about +1 per round trip
      } else {
        limit_ = std::max(1.0, limit_ - 0.5 / limit_);  // queueing: back off slowly
      }
    }
    lowest_ = std::min(lowest_, limit_);
    free_slots = static_cast<int>(limit_) - in_flight_;
  }
  // Waking every waiter for one free slot sends all but one back to sleep: thousands of context switches
  // per sync on the cores the server needs.
  if (free_slots == 1) {
    cv_.notify_one();
  } else if (free_slots > 1) {
    cv_.notify_all();
  }
}

int AdaptiveLimit::limit() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(limit_);
}

int AdaptiveLimit::lowest() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(lowest_);
}

}  // namespace tazuna::state
