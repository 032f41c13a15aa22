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

/// How many times an idempotent request is retried after a broken connection, a stall or a 5xx.
constexpr int kMaxRetries = 5;
/// A request refused with 429 is sent again at least this many times (client-go's rest client retries
/// 10 times) and for at least kThrottledFor: on a small in-flight limit shared with other clients, one
/// request can lose the race for a slot many times in a row before the sync's adaptive concurrency
/// has come down. A 429 is a refusal before any work, so sending again is safe whatever the method.
constexpr int kMaxThrottleRetries = 10;
constexpr std::chrono::seconds kThrottledFor{120};
/// The longest Retry-After honoured.
constexpr std::chrono::seconds kMaxRetryAfter{60};
/// How long a request that cannot reach a server the client has reached before (refused, reset during
/// the handshake: an apiserver restarting) keeps trying; the first contact fails at once, as kubectl's.
constexpr std::chrono::seconds kUnreachableFor{60};
/// The longest wait between two attempts to reach a restarting server.
constexpr std::chrono::seconds kUnreachableBackoffCap{2};

}  // namespace tazuna::kube
