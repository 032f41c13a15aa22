#include "state/adaptive_limit.hpp"

#include <algorithm>

namespace tazuna::state {

AdaptiveLimit::AdaptiveLimit(int initial, int max)
    : limit_(std::clamp(initial, 1, std::max(1, max))), max_(std::max(1, max)) {}

void AdaptiveLimit::Acquire() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return in_flight_ < static_cast<int>(limit_); });
  ++in_flight_;
}

void AdaptiveLimit::Release(std::chrono::microseconds latency, bool throttled) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    --in_flight_;
    best_ = std::min(best_, latency);
    if (throttled) {
      limit_ = std::max(1.0, limit_ / 2);
    } else if (latency <= best_ * 3 + std::chrono::milliseconds(5)) {
      limit_ = std::min<double>(max_, limit_ + 1.0 / limit_);  // about +1 per round trip of the window
    } else {
      limit_ = std::max(1.0, limit_ - 0.5 / limit_);  // queueing: back off slowly
    }
  }
  cv_.notify_all();
}

int AdaptiveLimit::limit() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int>(limit_);
}

}  // namespace tazuna::state
