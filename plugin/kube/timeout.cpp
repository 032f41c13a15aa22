#include <cctype>
#include <cmath>
#include <cstdlib>

#include "kube/rest_config.hpp"

namespace tazuna::kube {
namespace {

constexpr char kInvalidTimeout[] =
    "Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a "
    "corresponding time unit (e.g. 1s | 2m | 3h)";

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
    if (i == start) return false;
    const double value = std::strtod(text.substr(start, i - start).c_str(), nullptr);
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
  if (all_digits) return std::chrono::milliseconds(std::strtoll(text.c_str(), nullptr, 10) * 1000);
  double millis = 0;
  if (!ParseGoDuration(text, &millis) || millis < 0) {
    return util::MakeError(util::ErrorKind::kInput, kInvalidTimeout);
  }
  return std::chrono::milliseconds(static_cast<long long>(std::llround(millis)));
}

}  // namespace tazuna::kube
