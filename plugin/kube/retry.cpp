#include "kube/retry.hpp"

#include <ctime>
#include <string>

namespace tazuna::kube {

std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now) {
  const std::string text(value);
  if (text.empty()) return std::nullopt;
  if (text.find_first_not_of("0123456789") == std::string::npos) {
    if (text.size() > 9) return std::nullopt;
    return std::chrono::seconds(std::stoll(text));
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
