#include "util/ulid.hpp"

#include <doctest/doctest.h>

#include <vector>


namespace tazuna::util {
namespace {

struct StepClock : Clock {
  std::chrono::system_clock::time_point now = std::chrono::system_clock::time_point(std::chrono::seconds(1767225600));
  std::chrono::system_clock::time_point Now() override { return now; }
  std::chrono::steady_clock::time_point Steady() override { return std::chrono::steady_clock::time_point(); }
  void SleepFor(std::chrono::milliseconds d) override { now += d; }
};

TEST_CASE("ulid: encoding of time and randomness") {
  struct Case {
    std::string name;
    uint64_t ms;
    uint16_t hi;
    uint64_t lo;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"zero", 0, 0, 0, "00000000000000000000000000"},
      {"the spec's time", 1469918176385, 0x1234, 0x0123456789ABCDEF, "01ARYZ6S4128T028T5CY4TQKFF"},
      {"largest", (uint64_t{1} << 48) - 1, 0xFFFF, ~uint64_t{0}, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(EncodeUlid(c.ms, c.hi, c.lo) == c.want);
    CHECK(IsUlid(c.want));
  }
}

TEST_CASE("ulid: IsUlid rejects what is not one") {
  for (const std::string bad : {"", "01ARYZ6S41", "81ARYZ6S4128T028T5CY4TQKFF", "01ARYZ6S4128T028T5CY4TQKFU",
                                "01ARYZ6S4128T028T5CY4TQKF-"}) {
    CAPTURE(bad);
    CHECK_FALSE(IsUlid(bad));
  }
  CHECK(IsUlid("01aryz6s4128t028t5cy4tqkff"));
}

TEST_CASE("ulid: monotonic in one millisecond, after a step back, and when the random part is used up") {
  StepClock clock;
  std::vector<uint64_t> draws = {5, ~uint64_t{0}, 0xFFFF, ~uint64_t{0}, 7, 9};
  size_t i = 0;
  UlidGenerator gen(clock, [&] { return draws[i++ % draws.size()]; });
  const uint64_t ms = 1767225600000;
  CHECK(gen.Next() == EncodeUlid(ms, 5, ~uint64_t{0}));
  CHECK(gen.Next() == EncodeUlid(ms, 6, 0));  // same millisecond: carry into the high bits
  clock.now -= std::chrono::seconds(1);       // a clock that stepped back keeps the last time
  CHECK(gen.Next() == EncodeUlid(ms, 6, 1));
  clock.now += std::chrono::seconds(1) + std::chrono::milliseconds(1);
  CHECK(gen.Next() == EncodeUlid(ms + 1, 0xFFFF, ~uint64_t{0}));
  CHECK(gen.Next() == EncodeUlid(ms + 2, 7, 9));  // random part used up: the next millisecond
  CHECK(gen.Next() == EncodeUlid(ms + 2, 7, 10));
}

}  // namespace
}  // namespace tazuna::util
