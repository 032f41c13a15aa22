#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace tazuna::state {

/// Where an object stands on its way to ready (kstatus's Current / InProgress / Failed).
enum class ReadyState { kReady, kInProgress, kFailed };
const char* ReadyStateName(ReadyState state);

/// One judgement of an object: its state and, when not ready, why ("1/2 available", a condition message).
struct Readiness {
  ReadyState state = ReadyState::kReady;
  std::string message;
  bool operator==(const Readiness&) const = default;
};

/// Judges a live object (as the server returned it) by the rules of its kind, kstatus's rules:
/// Deployment, StatefulSet, DaemonSet, ReplicaSet, Pod, Job (Failed is kFailed), CustomResourceDefinition
/// (Established), APIService (Available), PersistentVolumeClaim (Bound), Namespace (Active); any other
/// object with a `Ready` condition follows it (not ready while status.observedGeneration, when present,
/// lags metadata.generation; a `Stalled` condition that is True is kFailed); everything else is ready.
Readiness JudgeReadiness(const nlohmann::json& object);

/// False for kinds that are ready as soon as they exist: built-in kinds (the core group, apps, batch,
/// groups ending in .k8s.io) without a rule of their own above, and Namespaces. True for the kinds with
/// rules and for every other group (custom resources may carry a Ready condition).
bool MayBeNotReady(std::string_view group, std::string_view kind);

}  // namespace tazuna::state
