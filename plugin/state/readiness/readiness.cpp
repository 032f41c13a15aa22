// Which rule judges an object, and what every rule shares: an object being deleted is not ready.
#include "state/readiness/readiness.hpp"

#include <algorithm>
#include <vector>

#include "state/readiness/readiness_fields.hpp"
#include "state/readiness/readiness_rules.hpp"
#include "state/store/state_key.hpp"
#include "util/api_version.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

const char* ReadyStateName(ReadyState state) {
  switch (state) {
    case ReadyState::kReady: return "ready";
    case ReadyState::kInProgress: return "in progress";
    case ReadyState::kFailed: return "failed";
    case ReadyState::kNotFound: return "not found";
  }
  return "unknown";
}

namespace {

using namespace readiness;  // NOLINT(google-build-using-namespace): this file dispatches to its rules

struct Rule {
  std::string_view group, kind;
  Judge judge;
};

constexpr Rule kRules[] = {
    {"apps", "Deployment", JudgeDeployment},
    {"apps", "StatefulSet", JudgeStatefulSet},
    {"apps", "DaemonSet", JudgeDaemonSet},
    {"apps", "ReplicaSet", JudgeReplicaSet},
    {"", "Pod", JudgePod},
    {"batch", "Job", JudgeJob},
    {"apiextensions.k8s.io", "CustomResourceDefinition", JudgeCrd},
    {"apiregistration.k8s.io", "APIService", JudgeApiService},
    {"", "PersistentVolumeClaim", JudgePvc},
    {"", "Namespace", JudgeNamespace},
    {"policy", "PodDisruptionBudget", JudgePodDisruptionBudget},
    {"", "Service", JudgeService},
};

const Rule* RuleOf(std::string_view group, std::string_view kind) {
  for (const Rule& rule : kRules) {
    if (rule.group == group && rule.kind == kind) return &rule;
  }
  return nullptr;
}

// kstatus's Terminating: a deletionTimestamp means the object is going away, whatever its status says.
Readiness Terminating(const json& object) {
  std::string message = StrCat("being deleted (since ", Str(Field(object, "metadata", "deletionTimestamp")), ")");
  const json& finalizers = Field(object, "metadata", "finalizers");
  if (finalizers.is_array() && !finalizers.empty()) {
    std::vector<std::string> names;
    for (const auto& f : finalizers) names.push_back(Str(f));
    message += ", waiting for finalizers " + util::Join(names, ", ");
  }
  Readiness r = InProgress(std::move(message));
  r.terminating = true;
  return r;
}

}  // namespace

Readiness JudgeReadiness(const json& object, const JudgeContext& context) {
  const std::string group = util::SplitApiVersion(Str(Field(object, "apiVersion"))).group;
  const std::string kind = Str(Field(object, "kind"));
  const bool deleting = !Str(Field(object, "metadata", "deletionTimestamp")).empty();
  if (deleting && !((group == "batch" || group.empty()) && Finished(kind, object))) return Terminating(object);
  const Rule* rule = RuleOf(group, kind);
  return rule != nullptr ? rule->judge(object, context) : JudgeGeneric(object, context);
}

bool MayBeNotReady(std::string_view group, std::string_view kind, const json& object) {
  if (group == "" && kind == "Namespace") return false;  // Active from its creation until it is deleted
  if (group == "" && kind == "Service") return Str(Field(object, "spec", "type")) == "LoadBalancer";
  return RuleOf(group, kind) != nullptr || !BuiltinGroup(group);
}

bool RunsToCompletion(std::string_view group, std::string_view kind, const json& object) {
  if (group == "batch" && kind == "Job") return true;
  const std::string restart = Str(Field(object, "spec", "restartPolicy"));
  return group == "" && kind == "Pod" && (restart == "Never" || restart == "OnFailure");
}

}  // namespace tazuna::state
