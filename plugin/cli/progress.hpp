#pragma once

#include <chrono>
#include <mutex>
#include <ostream>

namespace tazuna::cli {

/// A progress bar on stderr, drawn only when `enabled` (stderr is a terminal and NO_COLOR unset)
/// and the work has run for about a second. Thread-safe.
class Progress {
 public:
  Progress(std::ostream& err, bool enabled) : err_(err), enabled_(enabled) {}
  void Update(size_t done, size_t total);
  /// Clears the bar line.
  void Done();

 private:
  std::ostream& err_;
  bool enabled_;
  bool drawn_ = false;
  std::mutex mu_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace tazuna::cli
