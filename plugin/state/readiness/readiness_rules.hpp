#pragma once
// Internal to the readiness rules: one judge per kind (README.md, "Waiting for readiness", has the table).

#include <string_view>

#include <nlohmann/json.hpp>

#include "state/readiness/readiness.hpp"

namespace tazuna::state::readiness {

/// A rule: judges one live object of its kind.
using Judge = Readiness (*)(const nlohmann::json& object, const JudgeContext& context);

// readiness_workloads.cpp
Readiness JudgeDeployment(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgeStatefulSet(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgeDaemonSet(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgeReplicaSet(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgePod(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgeJob(const nlohmann::json& object, const JudgeContext& context);
/// A Job that completed or failed, a Pod that succeeded or failed: its outcome stands while it is deleted.
bool Finished(std::string_view kind, const nlohmann::json& object);

// readiness_platform.cpp
Readiness JudgeCrd(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgeApiService(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgePvc(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgeNamespace(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgePodDisruptionBudget(const nlohmann::json& object, const JudgeContext& context);
Readiness JudgeService(const nlohmann::json& object, const JudgeContext& context);

// readiness_generic.cpp
/// Any other kind: kstatus's generic rules over status.observedGeneration and the Stalled, Reconciling
/// and Ready conditions, stale conditions never decisive; for a custom resource whose CRD has a status
/// subresource, first a status written by a controller.
Readiness JudgeGeneric(const nlohmann::json& object, const JudgeContext& context);

}  // namespace tazuna::state::readiness
