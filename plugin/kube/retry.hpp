#pragma once

#include <chrono>
#include <optional>
#include <string_view>

namespace tazuna::kube {

/// Parses a Retry-After value: delay-seconds ("3") or an HTTP-date ("Wed, 21 Oct 2015 07:28:00 GMT",
/// relative to `now`, never negative). nullopt when malformed.
std::optional<std::chrono::milliseconds> ParseRetryAfter(std::string_view value,
                                                         std::chrono::system_clock::time_point now);

/// Exponential backoff for retry `attempt` (0-based): 200ms doubling, capped at 5s.
std::chrono::milliseconds Backoff(int attempt);

/// How many times a request is retried after 429, 5xx (GET) or a connection reset.
constexpr int kMaxRetries = 5;

}  // namespace tazuna::kube
