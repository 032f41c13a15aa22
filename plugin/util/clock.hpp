#pragma once

#include <chrono>
#include <string>

namespace tazuna::util {

/// Time source (leases, backoff, timestamps); fake in unit tests.
struct Clock {
  virtual ~Clock() = default;
  virtual std::chrono::system_clock::time_point Now() = 0;
  /// Monotonic time (keeps counting while the process is stopped); for judging how long ago, never
  /// for timestamps.
  virtual std::chrono::steady_clock::time_point Steady() = 0;
  virtual void SleepFor(std::chrono::milliseconds duration) = 0;
};

/// The real clock.
struct SystemClock : Clock {
  std::chrono::system_clock::time_point Now() override;
  std::chrono::steady_clock::time_point Steady() override;
  void SleepFor(std::chrono::milliseconds duration) override;
};

/// RFC 3339 UTC with seconds precision: 2026-11-22T05:09:40Z.
std::string FormatRfc3339(std::chrono::system_clock::time_point t);
/// RFC 3339 with microseconds (Lease MicroTime): 2026-11-22T05:09:40.123456Z.
std::string FormatRfc3339Micro(std::chrono::system_clock::time_point t);
/// Parses RFC 3339 (Z or +hh:mm offsets, optional fraction); false when malformed or outside the
/// years 1678..2261 that system_clock holds.
bool ParseRfc3339(const std::string& text, std::chrono::system_clock::time_point* out);

}  // namespace tazuna::util
