#include "util/profile.hpp"

#include <time.h>

#include <array>
#include <atomic>
#include <cstdio>

namespace tazuna::util {

namespace {

struct Totals {
  std::atomic<int64_t> calls{0};
  std::atomic<int64_t> cpu_ns{0};
  std::atomic<int64_t> wall_ns{0};
  std::atomic<uint64_t> bytes{0};
};

std::atomic<bool> g_enabled{false};
std::array<Totals, static_cast<size_t>(ProfilePhase::kCount)> g_totals;

constexpr const char* kNames[] = {"render", "hash", "plan", "owners", "sync", "body", "send", "transport", "parse",
                                  "state-write"};
static_assert(sizeof(kNames) / sizeof(kNames[0]) == static_cast<size_t>(ProfilePhase::kCount));

int64_t Nanos(clockid_t id) {
  timespec ts{};
  clock_gettime(id, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

clockid_t CpuClock(ProfileClock clock) {
  return clock == ProfileClock::kThread ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID;
}

void PrintLine(std::ostream& err, const char* name, int64_t calls, int64_t cpu_ns, int64_t wall_ns, uint64_t bytes) {
  char line[200];
  std::snprintf(line, sizeof(line), "profile: %s calls=%lld cpu_ms=%.1f wall_ms=%.1f", name,
                static_cast<long long>(calls), static_cast<double>(cpu_ns) / 1e6, static_cast<double>(wall_ns) / 1e6);
  err << line;
  if (bytes > 0) err << " bytes=" << bytes;
  err << "\n";
}

}  // namespace

void EnableProfile() { g_enabled.store(true, std::memory_order_relaxed); }

bool ProfileEnabled() { return g_enabled.load(std::memory_order_relaxed); }

void ProfileBytes(ProfilePhase phase, uint64_t bytes) {
  if (ProfileEnabled()) g_totals[static_cast<size_t>(phase)].bytes += bytes;
}

void PrintProfile(std::ostream& err, std::chrono::steady_clock::duration wall) {
  if (!ProfileEnabled()) return;
  for (size_t i = 0; i < g_totals.size(); ++i) {
    const Totals& t = g_totals[i];
    if (t.calls == 0 && t.bytes == 0) continue;
    PrintLine(err, kNames[i], t.calls, t.cpu_ns, t.wall_ns, t.bytes);
  }
  PrintLine(err, "total", 1, Nanos(CLOCK_PROCESS_CPUTIME_ID),
            std::chrono::duration_cast<std::chrono::nanoseconds>(wall).count(), 0);
}

ProfileScope::ProfileScope(ProfilePhase phase, ProfileClock clock)
    : phase_(phase), clock_(clock), on_(ProfileEnabled()) {
  if (!on_) return;
  cpu0_ = Nanos(CpuClock(clock_));
  wall0_ = Nanos(CLOCK_MONOTONIC);
}

ProfileScope::~ProfileScope() {
  if (!on_) return;
  Totals& t = g_totals[static_cast<size_t>(phase_)];
  t.calls += 1;
  t.cpu_ns += Nanos(CpuClock(clock_)) - cpu0_;
  t.wall_ns += Nanos(CLOCK_MONOTONIC) - wall0_;
}

}  // namespace tazuna::util
