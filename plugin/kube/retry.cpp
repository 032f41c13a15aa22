#include "kube/retry.hpp"

#include <charconv>
#include <ctime>
#include <string>

namespace tazuna::kube {

std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now) {
  const std::string text(value);
  if (text.empty()) return std::nullopt;
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    long long seconds = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (text.size() > 9 || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return std::chrono::seconds(seconds);
  }
  std::tm tm{};
  const char* end = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (end == nullptr || *end != '\0') return std::nullopt;
  const auto when = std::chrono::system_clock::from_time_t(timegm(&tm));
  if (when <= now) return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(when - now);
}

std::chrono::milliseconds Backoff(int attempt) {
  constexpr std::chrono::milliseconds kBase(200), kCap(5000);
  if (attempt >= 5) return kCap;
  const auto d = kBase * (1 << attempt);
  return d > kCap ? kCap : d;
}

}  // namespace tazuna::kube
