#include "state/adaptive_limit.hpp"

#include <doctest/doctest.h>

namespace tazuna::state {

using std::chrono::milliseconds;

TEST_CASE("adaptive limit: grows while latency holds, halves on throttling, stays within bounds") {
  AdaptiveLimit limit(4, 16);
  CHECK(limit.limit() == 4);
  for (int i = 0; i < 200; ++i) {
    limit.Acquire();
    limit.Release(milliseconds(10), false);
  }
  CHECK(limit.limit() == 16);  // capped at max
  limit.Acquire();
  limit.Release(milliseconds(10), true);
  CHECK(limit.limit() == 8);
  for (int i = 0; i < 10; ++i) {
    limit.Acquire();
    limit.Release(milliseconds(10), true);
  }
  CHECK(limit.limit() == 1);  // never below one
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

}  // namespace tazuna::state
