#include "state/apply/adaptive_limit.hpp"

#include <doctest/doctest.h>

namespace tazuna::state {

using std::chrono::milliseconds;

void Release(AdaptiveLimit& limit, int n, bool throttled, milliseconds latency = milliseconds(10)) {
  for (int i = 0; i < n; ++i) {
    limit.Acquire();
    limit.Release(latency, throttled);
  }
}

TEST_CASE("adaptive limit: grows while latency holds, halves on throttling once per round, stays within bounds") {
  AdaptiveLimit limit(4, 16);
  CHECK(limit.limit() == 4);
  Release(limit, 200, false);
  CHECK(limit.limit() == 16);  // capped at max
  // One push-back reaches every request in flight: the 16 that report it halve the limit once.
  Release(limit, 16, true);
  CHECK(limit.limit() == 8);
  // Throttled round after round: halved each round, never below one.
  for (int round = 0; round < 10; ++round) Release(limit, std::max(1, limit.limit()), true);
  CHECK(limit.limit() == 1);
  CHECK(limit.lowest() == 1);
}

TEST_CASE("adaptive limit: after a throttle it stays below where it was throttled for a while, then probes") {
  AdaptiveLimit limit(4, 16);
  Release(limit, 4, true);  // throttled at 4: halved to 2
  CHECK(limit.limit() == 2);
  Release(limit, AdaptiveLimit::kHoldReleases - 10, false);
  CHECK(limit.limit() == 3);  // grows back to one below 4, and no higher
  Release(limit, 100, false);
  CHECK(limit.limit() > 4);  // the hold is over: probing above it again
}

TEST_CASE("adaptive limit: a throttled request's time is no latency sample") {
  AdaptiveLimit limit(8, 8);
  Release(limit, 1, false, milliseconds(5));
  Release(limit, 1, true, milliseconds(1500));  // it waited out a Retry-After
  Release(limit, 200, false, milliseconds(5));
  CHECK(limit.limit() == 7);  // back to one below where it was throttled, not shrunk by a 1.5 s "latency"
}

TEST_CASE("adaptive limit: rising latency shrinks the limit slowly") {
  AdaptiveLimit limit(16, 16);
  limit.Acquire();
  limit.Release(milliseconds(5), false);
  for (int i = 0; i < 64; ++i) {
    limit.Acquire();
    limit.Release(milliseconds(500), false);
  }
  CHECK(limit.limit() < 16);
  CHECK(limit.limit() >= 12);
}

TEST_CASE("adaptive limit: latency that sharing the server among the requests in flight explains is no queueing") {
  AdaptiveLimit limit(32, 32);
  Release(limit, 1, false, milliseconds(2));  // one alone: 2 ms
  Release(limit, 5000, false, milliseconds(60));  // 32 at once on a busy server: 30x as long, same work done
  CHECK(limit.limit() == 32);
  Release(limit, 64, false, milliseconds(400));  // 200x: beyond sharing, the server does less
  CHECK(limit.limit() < 32);
  CHECK(limit.limit() >= 28);
}

}  // namespace tazuna::state
