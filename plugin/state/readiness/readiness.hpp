#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tazuna::state {

/// Where an object stands on its way to ready (kstatus's Current / InProgress / Failed / NotFound).
/// JudgeReadiness never answers kNotFound: a wait sets it for an object it cannot find.
enum class ReadyState { kReady, kInProgress, kFailed, kNotFound };
const char* ReadyStateName(ReadyState state);

/// One judgement of an object: its state and, when not ready, why ("2/3 updated, 1 available", a
/// condition). `warning`: a ready object that was counted ready without proof (a grace period passed).
struct Readiness {
  ReadyState state = ReadyState::kReady;
  std::string message{};
  std::string warning{};
  bool terminating = false;  ///< kInProgress because it has a deletionTimestamp (kstatus's Terminating)
  bool operator==(const Readiness&) const = default;
};

/// Whether the CRD of a custom resource serves a status subresource (then only a controller writes
/// its status, and an empty status means no controller has looked at it yet).
enum class StatusSubresource {
  kUnknown,  ///< not looked up yet: a custom resource is never concluded ready
  kYes,
  kNo,  ///< or the CRD could not be read: kstatus's rules
};

/// What a judgement knows beyond the object. The default is a first look (the apply's answer).
struct JudgeContext {
  StatusSubresource status_subresource = StatusSubresource::kUnknown;
  /// The local time of the judgement, for the grace period (compared with the server's timestamps,
  /// as kstatus's pod scheduling window is).
  std::chrono::system_clock::time_point now{};
  /// How long the wait has watched this object.
  std::chrono::seconds seen_for{0};
  /// Objects whose status nobody writes count as ready, with a warning, once this long has passed
  /// since their current spec was written (or the wait watched them this long); nullopt: never.
  std::optional<std::chrono::seconds> grace;
};

/// Judges a live object (as the server returned it) by the rules of its kind: kstatus's rules, stricter
/// where kstatus is wrong (the table in README.md, "Waiting for readiness"). A custom resource whose
/// CRD has a status subresource waits until a controller wrote status for its generation; a
/// condition whose own observedGeneration is older than metadata.generation is stale; an object with
/// a deletionTimestamp is in progress (a finished Job or Pod keeps its outcome).
Readiness JudgeReadiness(const nlohmann::json& object, const JudgeContext& context = {});

/// False for kinds that are ready as soon as they exist: built-in kinds (the core group, apps, batch,
/// policy, autoscaling, groups ending in .k8s.io) without a rule of their own, Namespaces, and Services
/// other than type LoadBalancer (`object` is the rendered or live object). True for the kinds with
/// rules and for every other group (custom resources may carry a Ready condition).
bool MayBeNotReady(std::string_view group, std::string_view kind, const nlohmann::json& object);


/// True for objects that run once and finish: Jobs, and Pods whose restartPolicy is Never or OnFailure.
/// Such an object that is gone after it ran is done for the content that ran.
bool RunsToCompletion(std::string_view group, std::string_view kind, const nlohmann::json& object);

}  // namespace tazuna::state
