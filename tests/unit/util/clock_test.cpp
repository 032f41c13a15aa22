#include "util/clock.hpp"

#include <doctest/doctest.h>

namespace tazuna::util {
namespace {

TEST_CASE("clock: ParseRfc3339 reads Z, offsets and fractions") {
  struct {
    const char* in;
    long long micros;  // since the epoch
  } const cases[] = {
      {"2026-01-01T00:00:00Z", 1767225600000000},
      {"2026-01-01T00:00:00z", 1767225600000000},
      {"2026-01-01T09:00:00+09:00", 1767225600000000},
      {"2025-12-31T23:30:00-00:30", 1767225600000000},
      {"2026-01-01T00:00:00.5Z", 1767225600500000},
      {"2026-01-01T00:00:00.1234567Z", 1767225600123456},
  };
  for (const auto& c : cases) {
    CAPTURE(c.in);
    std::chrono::system_clock::time_point t;
    REQUIRE(ParseRfc3339(c.in, &t));
    CHECK(std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count() == c.micros);
  }
  CHECK(FormatRfc3339(std::chrono::system_clock::from_time_t(1767225600)) == "2026-01-01T00:00:00Z");
}

TEST_CASE("clock: ParseRfc3339 rejects anything else") {
  for (const char* in : {"", "2026-01-01", "2026-01-01T00:00:00", "2026-01-01 00:00:00Z", "2026-1-01T00:00:00Z",
                         " 2026-01-01T00:00:00Z", "+026-01-01T00:00:00Z", "2026-13-01T00:00:00Z",
                         "2026-01-32T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z",
                         "2026-01-01T00:00:00Zjunk", "2026-01-01T00:00:00+0900", "2026-01-01T00:00:00+09:00x",
                         "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00-1:00", "9999999999-01-01T00:00:00Z",
                         // found by tests/fuzz (exec_credential): beyond system_clock's range was undefined behaviour
                         "1145-01-02T03:04:05.123456+09:00", "2262-01-01T00:00:00Z"}) {
    CAPTURE(in);
    std::chrono::system_clock::time_point t;
    CHECK_FALSE(ParseRfc3339(in, &t));
  }
}

}  // namespace
}  // namespace tazuna::util
