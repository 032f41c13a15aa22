#include "cli/progress.hpp"

#include <string>

namespace tazuna::cli {

void Progress::Update(size_t done, size_t total) {
  if (!enabled_ || total == 0) return;
  std::lock_guard<std::mutex> lock(mu_);
  const auto now = std::chrono::steady_clock::now();
  if (now - start_ < std::chrono::seconds(1) || now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  constexpr size_t kWidth = 30;
  const size_t filled = kWidth * done / total;
  err_ << "\r[" << std::string(filled, '#') << std::string(kWidth - filled, ' ') << "] " << done << "/" << total
       << std::flush;
  drawn_ = true;
}

void Progress::Done() {
  std::lock_guard<std::mutex> lock(mu_);
  if (drawn_) err_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace tazuna::cli
