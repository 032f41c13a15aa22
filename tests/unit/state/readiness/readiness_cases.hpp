#pragma once
// Table-driven readiness cases, shared by readiness_test.cpp and readiness_custom_test.cpp.

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <vector>

#include "state/readiness/readiness.hpp"

namespace tazuna::state::testing {

/// The judgement's "now" in the cases: 2026-01-01T00:05:00Z.
inline const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1767225600 + 300));

/// A wait that has polled the object (its CRD read, when it is a custom resource), watching it for
/// `seen`, with the default grace period (30 s).
inline JudgeContext Polled(StatusSubresource sub, std::chrono::seconds seen = std::chrono::seconds(0)) {
  return {sub, kNow, seen, std::chrono::seconds(30)};
}

struct ReadinessCase {
  std::string name;
  std::string object;  ///< a status document as the server returns it (trimmed to what the rules read)
  ReadyState want = ReadyState::kReady;
  std::string want_message;
  std::string want_warning = "";
  JudgeContext context = Polled(StatusSubresource::kNo);
};

/// Judges every case's object in its context and checks state, message and warning.
inline void CheckCases(const std::vector<ReadinessCase>& cases) {
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const Readiness got = JudgeReadiness(nlohmann::json::parse(c.object), c.context);
    CHECK(ReadyStateName(got.state) == std::string(ReadyStateName(c.want)));
    CHECK(got.message == c.want_message);
    CHECK(got.warning == c.want_warning);
  }
}

}  // namespace tazuna::state::testing
