#include "util/clock.hpp"

#include <cstdio>
#include <ctime>
#include <thread>

namespace tazuna::util {

std::chrono::system_clock::time_point SystemClock::Now() { return std::chrono::system_clock::now(); }

std::chrono::steady_clock::time_point SystemClock::Steady() { return std::chrono::steady_clock::now(); }

void SystemClock::SleepFor(std::chrono::milliseconds duration) { std::this_thread::sleep_for(duration); }

namespace {

std::string FormatBase(std::chrono::system_clock::time_point t) {
  const std::time_t secs = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return buf;
}

}  // namespace

std::string FormatRfc3339(std::chrono::system_clock::time_point t) { return FormatBase(t) + "Z"; }

std::string FormatRfc3339Micro(std::chrono::system_clock::time_point t) {
  const auto micros =
      std::chrono::duration_cast<std::chrono::microseconds>(t.time_since_epoch()).count() % 1000000;
  char frac[16];
  std::snprintf(frac, sizeof frac, ".%06lld", static_cast<long long>(micros < 0 ? micros + 1000000 : micros));
  return FormatBase(t) + frac + "Z";
}

bool ParseRfc3339(const std::string& text, std::chrono::system_clock::time_point* out) {
  std::tm tm{};
  int consumed = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%n", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour,
                  &tm.tm_min, &tm.tm_sec, &consumed) != 6) {
    return false;
  }
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  size_t pos = static_cast<size_t>(consumed);
  long long micros = 0;
  if (pos < text.size() && text[pos] == '.') {
    ++pos;
    int digits = 0;
    while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9') {
      if (digits < 6) micros = micros * 10 + (text[pos] - '0');
      ++digits;
      ++pos;
    }
    for (; digits < 6; ++digits) micros *= 10;
  }
  long offset = 0;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
    int hh = 0, mm = 0;
    if (std::sscanf(text.c_str() + pos + 1, "%2d:%2d", &hh, &mm) != 2) return false;
    offset = (hh * 3600 + mm * 60) * (text[pos] == '+' ? 1 : -1);
  } else if (pos >= text.size() || (text[pos] != 'Z' && text[pos] != 'z')) {
    return false;
  }
  const std::time_t secs = timegm(&tm) - offset;
  *out = std::chrono::system_clock::from_time_t(secs) + std::chrono::microseconds(micros);
  return true;
}

}  // namespace tazuna::util
