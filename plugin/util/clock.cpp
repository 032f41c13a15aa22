#include "util/clock.hpp"

#include <charconv>
#include <cstdio>
#include <ctime>
#include <optional>
#include <string_view>
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

namespace {

// The decimal number spelled by exactly `len` digits at text[pos], or -1.
int Digits(std::string_view text, size_t pos, size_t len) {
  if (pos + len > text.size()) return -1;
  int value = 0;
  const char* first = text.data() + pos;
  const auto [end, ec] = std::from_chars(first, first + len, value);
  if (ec != std::errc() || end != first + len || *first < '0' || *first > '9') return -1;
  return value;
}

// Reads an optional fraction at text[*pos] as microseconds (digits past the sixth are dropped).
long long Fraction(std::string_view text, size_t* pos) {
  long long micros = 0;
  if (*pos >= text.size() || text[*pos] != '.') return 0;
  int digits = 0;
  for (++*pos; *pos < text.size() && text[*pos] >= '0' && text[*pos] <= '9'; ++*pos, ++digits) {
    if (digits < 6) micros = micros * 10 + (text[*pos] - '0');
  }
  for (; digits < 6; ++digits) micros *= 10;
  return micros;
}

// The zone suffix at text[pos] ("Z" or "+hh:mm") as seconds east of UTC; nullopt when malformed.
std::optional<long> ZoneOffset(std::string_view text, size_t pos) {
  if (pos + 1 == text.size() && (text[pos] == 'Z' || text[pos] == 'z')) return 0;
  if (pos + 6 != text.size() || (text[pos] != '+' && text[pos] != '-') || text[pos + 3] != ':') return std::nullopt;
  const int hh = Digits(text, pos + 1, 2), mm = Digits(text, pos + 4, 2);
  if (hh < 0 || hh > 23 || mm < 0 || mm > 59) return std::nullopt;
  return (hh * 3600L + mm * 60L) * (text[pos] == '+' ? 1 : -1);
}

}  // namespace

bool ParseRfc3339(const std::string& text, std::chrono::system_clock::time_point* out) {
  // YYYY-MM-DDTHH:MM:SS, every field exactly its width and in range.
  std::tm tm{};
  tm.tm_year = Digits(text, 0, 4) - 1900;
  tm.tm_mon = Digits(text, 5, 2) - 1;
  tm.tm_mday = Digits(text, 8, 2);
  tm.tm_hour = Digits(text, 11, 2);
  tm.tm_min = Digits(text, 14, 2);
  tm.tm_sec = Digits(text, 17, 2);
  // Years outside 1678..2261 do not fit system_clock's int64 nanoseconds.
  if (text.size() < 19 || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' ||
      text[16] != ':' || tm.tm_year < 1678 - 1900 || tm.tm_year > 2261 - 1900 || tm.tm_mon < 0 ||
      tm.tm_mon > 11 || tm.tm_mday < 1 || tm.tm_mday > 31 || tm.tm_hour < 0 || tm.tm_hour > 23 || tm.tm_min < 0 ||
      tm.tm_min > 59 || tm.tm_sec < 0 || tm.tm_sec > 60) {
    return false;
  }
  size_t pos = 19;
  const long long micros = Fraction(text, &pos);
  const std::optional<long> offset = ZoneOffset(text, pos);
  if (!offset) return false;
  const std::time_t secs = timegm(&tm) - *offset;
  *out = std::chrono::system_clock::from_time_t(secs) + std::chrono::microseconds(micros);
  return true;
}

}  // namespace tazuna::util
