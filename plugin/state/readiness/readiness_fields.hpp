#pragma once
// Internal to the readiness rules (readiness*.cpp): field readers that tolerate any shape (a status
// written by a controller we do not know may hold anything), conditions, and the results rules give.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "state/readiness/readiness.hpp"

namespace tazuna::state::readiness {

/// object[a][b], or null when any step is missing or not an object.
const nlohmann::json& Field(const nlohmann::json& object, const char* a, const char* b = nullptr);
int64_t Int(const nlohmann::json& v, int64_t fallback = 0);
std::string Str(const nlohmann::json& v);
/// metadata.generation, or nullopt when absent.
std::optional<int64_t> Generation(const nlohmann::json& object);

/// The condition of this type in status.conditions, or null.
const nlohmann::json& Condition(const nlohmann::json& object, std::string_view type);
bool ConditionIs(const nlohmann::json& object, std::string_view type, std::string_view status);
/// A condition whose own observedGeneration (metav1.Condition) is older than metadata.generation: it
/// describes an older spec.
bool Stale(const nlohmann::json& object, const nlohmann::json& condition);
/// "Ready=True is for generation 1, not 2": why a stale condition does not count.
std::string StaleText(const nlohmann::json& object, const nlohmann::json& condition);
/// "Type=False Reason: message", the words kubectl describe shows for a condition.
std::string DescribeCondition(const nlohmann::json& c);
/// The first condition that is not True (what an object still lacks), or "".
std::string LackingCondition(const nlohmann::json& object);

inline Readiness Ready() { return {}; }
inline Readiness InProgress(std::string message) { return {ReadyState::kInProgress, std::move(message), ""}; }
inline Readiness Failed(std::string message) { return {ReadyState::kFailed, std::move(message), ""}; }
/// Ready without proof: `warning` says why it was counted ready.
inline Readiness ReadyWithWarning(std::string warning) { return {ReadyState::kReady, "", std::move(warning)}; }

/// "0/1 available (Available=False ...)": a count, with the condition that explains it when there is one.
Readiness Short(const nlohmann::json& object, std::string counts);

/// Controllers that report status.observedGeneration: until it reaches metadata.generation the status
/// describes an older spec. `required`: a missing observedGeneration means "not observed yet".
bool Unobserved(const nlohmann::json& object, bool required);
/// "generation 4 not yet observed (status is for 3)".
Readiness NotObserved(const nlohmann::json& object);

/// True once the grace period of `context` has passed for `object`: since its current spec was written
/// (its creation, or the newest write of the object itself in managedFields), or since the wait first
/// saw it, whichever is longer.
bool GracePassed(const nlohmann::json& object, const JudgeContext& context);
/// When status was last written through the status subresource (managedFields), if it says.
std::optional<std::chrono::system_clock::time_point> StatusWrittenAt(const nlohmann::json& object);
/// When the object itself (not a subresource) was last written, or created, if it says.
std::optional<std::chrono::system_clock::time_point> SpecWrittenAt(const nlohmann::json& object);
/// "30s".
std::string SecondsText(std::chrono::seconds s);


}  // namespace tazuna::state::readiness
