#pragma once

#include <atomic>
#include <cstddef>
#include <functional>
#include <thread>
#include <vector>

namespace tazuna::util {

/// Calls fn(i) for i in [0, n) on up to `concurrency` threads; returns when all calls returned.
/// fn must not throw. Items are started in index order.
inline void ParallelFor(size_t n, int concurrency, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  const size_t workers = std::max<size_t>(1, std::min<size_t>(n, concurrency > 0 ? concurrency : 1));
  std::atomic<size_t> next{0};
  const auto work = [&] {
    for (size_t i = next++; i < n; i = next++) fn(i);
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (size_t t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
}

}  // namespace tazuna::util
