#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tazuna::util {

/// Calls fn(i) for i in [0, n) on up to `concurrency` threads; returns when all calls returned.
/// Items are started in index order. fn should not throw (our code returns errors as values); if it
/// does anyway (a bug), no further item is started and the first exception is rethrown here, on the
/// calling thread, once every worker has stopped: an exception never escapes a worker thread (which
/// would end the process through std::terminate with no message).
inline void ParallelFor(size_t n, int concurrency, const std::function<void(size_t)>& fn) {
  if (n == 0) return;
  const size_t workers = std::max<size_t>(1, std::min<size_t>(n, concurrency > 0 ? concurrency : 1));
  std::atomic<size_t> next{0};
  std::mutex mu;
  std::exception_ptr first;
  const auto work = [&] {
    for (size_t i = next++; i < n; i = next++) {
      try {
        fn(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mu);
        if (!first) first = std::current_exception();
        next = n;  // start nothing more
      }
    }
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (size_t t = 1; t < workers; ++t) threads.emplace_back(work);
  work();
  for (auto& t : threads) t.join();
  if (first) std::rethrow_exception(first);
}

}  // namespace tazuna::util
