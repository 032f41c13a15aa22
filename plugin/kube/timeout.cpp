#include <cctype>
#include <charconv>
#include <cmath>

#include "kube/rest_config.hpp"

namespace tazuna::kube {
namespace {

constexpr char kInvalidTimeout[] =
    "Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a "
    "corresponding time unit (e.g. 1s | 2m | 3h)";
// Go's time.Duration is int64 nanoseconds: longer durations are invalid there too.
constexpr long long kMaxSeconds = 9'223'372'036;
constexpr double kMaxMillis = 9.223372036854e15;

// Milliseconds per unit of Go's time.ParseDuration; 0 for an unknown unit.
double UnitMillis(const std::string& unit) {
  if (unit == "ns") return 1e-6;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1e-3;
  if (unit == "ms") return 1;
  if (unit == "s") return 1e3;
  if (unit == "m") return 60e3;
  if (unit == "h") return 3600e3;
  return 0;
}

// Go duration syntax: one or more <decimal><unit> terms, e.g. "1h30m" or "1.5s".
bool ParseGoDuration(const std::string& text, double* millis) {
  size_t i = 0;
  *millis = 0;
  if (text.empty()) return false;
  while (i < text.size()) {
    const size_t start = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data() + start, text.data() + i, value, std::chars_format::fixed);
    if (i == start || ec != std::errc() || end != text.data() + i) return false;
    const size_t unit_start = i;
    while (i < text.size() && !std::isdigit(static_cast<unsigned char>(text[i])) && text[i] != '.') ++i;
    const double unit = UnitMillis(text.substr(unit_start, i - unit_start));
    if (unit == 0) return false;
    *millis += value * unit;
  }
  return true;
}

}  // namespace

util::Result<std::chrono::milliseconds> ParseTimeout(const std::string& text) {
  if (text.empty() || text == "0") return std::chrono::milliseconds(0);
  const bool all_digits = text.find_first_not_of("0123456789") == std::string::npos;
  if (all_digits) {
    long long seconds = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec == std::errc() && seconds <= kMaxSeconds) return std::chrono::milliseconds(seconds * 1000);
    return util::MakeError(util::ErrorKind::kInput, kInvalidTimeout);
  }
  double millis = 0;
  if (!ParseGoDuration(text, &millis) || millis < 0 || millis > kMaxMillis) {
    return util::MakeError(util::ErrorKind::kInput, kInvalidTimeout);
  }
  return std::chrono::milliseconds(static_cast<long long>(std::llround(millis)));
}

}  // namespace tazuna::kube
