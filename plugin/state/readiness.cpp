#include "state/readiness.hpp"

#include <cstdint>
#include <utility>

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
  }
  return "unknown";
}

namespace {

// Field readers that tolerate any shape: a status written by a controller we do not know may hold anything.
const json& Field(const json& object, const char* a, const char* b = nullptr) {
  static const json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(a);
  if (it == object.end()) return kNull;
  if (b == nullptr) return *it;
  return Field(*it, b);
}

int64_t Int(const json& v, int64_t fallback = 0) { return v.is_number_integer() ? v.get<int64_t>() : fallback; }
std::string Str(const json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }

// The condition of this type in status.conditions, or null.
const json& Condition(const json& object, std::string_view type) {
  static const json kNull;
  const json& conditions = Field(object, "status", "conditions");
  if (!conditions.is_array()) return kNull;
  for (const auto& c : conditions) {
    if (c.is_object() && Str(Field(c, "type")) == type) return c;
  }
  return kNull;
}

bool ConditionIs(const json& object, std::string_view type, std::string_view status) {
  return Str(Field(Condition(object, type), "status")) == status;
}

// "Type=False Reason: message", the words kubectl describe shows for a condition.
std::string DescribeCondition(const json& c) {
  std::string out = StrCat(Str(Field(c, "type")), "=", Str(Field(c, "status")));
  if (const std::string reason = Str(Field(c, "reason")); !reason.empty()) out += " " + reason;
  if (const std::string message = Str(Field(c, "message")); !message.empty()) out += ": " + message;
  return out;
}

// The first condition that is not True (what an object still lacks), for the message of a wait.
std::string LackingCondition(const json& object) {
  const json& conditions = Field(object, "status", "conditions");
  if (!conditions.is_array()) return "";
  for (const auto& c : conditions) {
    if (c.is_object() && Str(Field(c, "status")) != "True") return DescribeCondition(c);
  }
  return "";
}

Readiness Ready() { return {}; }
Readiness InProgress(std::string message) { return {ReadyState::kInProgress, std::move(message)}; }
Readiness Failed(std::string message) { return {ReadyState::kFailed, std::move(message)}; }

// A counted shortfall, with the condition that explains it when there is one: "0/1 available (Available=False ...)".
Readiness Short(const json& object, int64_t have, int64_t want, const char* what) {
  std::string message = StrCat(have, "/", want, " ", what);
  if (const std::string lacking = LackingCondition(object); !lacking.empty()) message += " (" + lacking + ")";
  return InProgress(std::move(message));
}

// Controllers that report status.observedGeneration: until it reaches metadata.generation the status
// describes an older spec. `required`: a missing observedGeneration means "not observed yet".
bool Unobserved(const json& object, bool required) {
  const json& observed = Field(object, "status", "observedGeneration");
  if (!observed.is_number_integer() && !required) return false;
  return Int(observed) < Int(Field(object, "metadata", "generation"));
}

Readiness NotObserved(const json& object) {
  return InProgress(StrCat("generation ", Int(Field(object, "metadata", "generation")), " not yet observed"));
}

int64_t DesiredReplicas(const json& object) { return Int(Field(object, "spec", "replicas"), 1); }

Readiness JudgeDeployment(const json& d) {
  if (Unobserved(d, true)) return NotObserved(d);
  const json& progressing = Condition(d, "Progressing");
  if (Str(Field(progressing, "reason")) == "ProgressDeadlineExceeded") return Failed(DescribeCondition(progressing));
  const int64_t want = DesiredReplicas(d);
  const json& s = Field(d, "status");
  if (Int(Field(s, "updatedReplicas")) < want) return Short(d, Int(Field(s, "updatedReplicas")), want, "updated");
  if (Int(Field(s, "replicas")) > want) {
    return InProgress(StrCat(Int(Field(s, "replicas")) - want, " old replicas pending termination"));
  }
  if (Int(Field(s, "availableReplicas")) < want) return Short(d, Int(Field(s, "availableReplicas")), want, "available");
  if (Int(Field(s, "readyReplicas")) < want) return Short(d, Int(Field(s, "readyReplicas")), want, "ready");
  return Ready();
}

Readiness JudgeStatefulSet(const json& s) {
  if (Unobserved(s, true)) return NotObserved(s);
  const int64_t want = DesiredReplicas(s);
  const json& st = Field(s, "status");
  if (Int(Field(st, "readyReplicas")) < want) return Short(s, Int(Field(st, "readyReplicas")), want, "ready");
  if (Str(Field(Field(s, "spec", "updateStrategy"), "type")) == "OnDelete") return Ready();
  const int64_t partition = Int(Field(Field(Field(s, "spec", "updateStrategy"), "rollingUpdate"), "partition"));
  if (Int(Field(st, "updatedReplicas")) < want - partition) {
    return Short(s, Int(Field(st, "updatedReplicas")), want - partition, "updated");
  }
  const std::string update = Str(Field(st, "updateRevision")), current = Str(Field(st, "currentRevision"));
  if (partition == 0 && !update.empty() && update != current) {
    return InProgress(StrCat("rolling out revision ", update));
  }
  return Ready();
}

Readiness JudgeDaemonSet(const json& d) {
  if (Unobserved(d, true)) return NotObserved(d);
  const json& s = Field(d, "status");
  const int64_t want = Int(Field(s, "desiredNumberScheduled"));
  if (Int(Field(s, "updatedNumberScheduled")) < want) {
    return Short(d, Int(Field(s, "updatedNumberScheduled")), want, "updated");
  }
  if (Int(Field(s, "numberAvailable")) < want) return Short(d, Int(Field(s, "numberAvailable")), want, "available");
  if (Int(Field(s, "numberReady")) < want) return Short(d, Int(Field(s, "numberReady")), want, "ready");
  return Ready();
}

Readiness JudgeReplicaSet(const json& r) {
  if (Unobserved(r, true)) return NotObserved(r);
  const int64_t want = DesiredReplicas(r);
  const json& s = Field(r, "status");
  if (Int(Field(s, "availableReplicas")) < want) return Short(r, Int(Field(s, "availableReplicas")), want, "available");
  if (Int(Field(s, "readyReplicas")) < want) return Short(r, Int(Field(s, "readyReplicas")), want, "ready");
  return Ready();
}

Readiness JudgePod(const json& p) {
  const std::string phase = Str(Field(p, "status", "phase"));
  if (phase == "Succeeded") return Ready();
  if (phase == "Failed") {
    return Failed(StrCat("phase Failed", Str(Field(p, "status", "message")).empty() ? "" : ": ",
                         Str(Field(p, "status", "message"))));
  }
  const json& containers = Field(p, "status", "containerStatuses");
  for (const auto& c : containers.is_array() ? containers : json::array()) {
    const json& waiting = Field(Field(c, "state"), "waiting");
    if (Str(Field(waiting, "reason")) == "CrashLoopBackOff") {
      return Failed(StrCat("container ", Str(Field(c, "name")), " CrashLoopBackOff: ", Str(Field(waiting, "message"))));
    }
  }
  if (ConditionIs(p, "Ready", "True")) return Ready();
  const std::string lacking = LackingCondition(p);
  return InProgress(StrCat("phase ", phase.empty() ? "Pending" : phase, lacking.empty() ? "" : " (", lacking,
                           lacking.empty() ? "" : ")"));
}

Readiness JudgeJob(const json& j) {
  if (ConditionIs(j, "Failed", "True")) return Failed(DescribeCondition(Condition(j, "Failed")));
  if (ConditionIs(j, "Complete", "True")) return Ready();
  if (Field(j, "spec", "suspend") == true) return Ready();  // a suspended Job does not run: nothing to wait for
  const json& s = Field(j, "status");
  return InProgress(StrCat(Int(Field(s, "active")), " active, ", Int(Field(s, "succeeded")), "/",
                           Int(Field(j, "spec", "completions"), 1), " succeeded"));
}

Readiness JudgeCrd(const json& c) {
  if (ConditionIs(c, "Established", "True")) return Ready();
  if (ConditionIs(c, "NamesAccepted", "False")) return Failed(DescribeCondition(Condition(c, "NamesAccepted")));
  const std::string lacking = LackingCondition(c);
  return InProgress(lacking.empty() ? "not established" : lacking);
}

Readiness JudgeApiService(const json& a) {
  if (ConditionIs(a, "Available", "True")) return Ready();
  const json& available = Condition(a, "Available");
  return InProgress(available.is_null() ? "not available" : DescribeCondition(available));
}

Readiness JudgePvc(const json& p) {
  const std::string phase = Str(Field(p, "status", "phase"));
  if (phase == "Bound") return Ready();
  if (phase == "Lost") return Failed("phase Lost: its PersistentVolume is gone");
  return InProgress(StrCat("phase ", phase.empty() ? "Pending" : phase));
}

Readiness JudgeNamespace(const json& n) {
  const std::string phase = Str(Field(n, "status", "phase"));
  if (phase == "Active") return Ready();
  return InProgress(StrCat("phase ", phase.empty() ? "unknown" : phase));
}

// Any other kind: kstatus's generic rules over status.observedGeneration and the Ready, Stalled and
// Reconciling conditions. An object without them is ready once applied.
Readiness JudgeGeneric(const json& o) {
  if (Unobserved(o, false)) return NotObserved(o);
  if (ConditionIs(o, "Stalled", "True")) return Failed(DescribeCondition(Condition(o, "Stalled")));
  if (ConditionIs(o, "Reconciling", "True")) return InProgress(DescribeCondition(Condition(o, "Reconciling")));
  const json& ready = Condition(o, "Ready");
  if (ready.is_null() || Str(Field(ready, "status")) == "True") return Ready();
  return InProgress(DescribeCondition(ready));
}

struct Rule {
  std::string_view group, kind;
  Readiness (*judge)(const json&);
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
};

}  // namespace

bool MayBeNotReady(std::string_view group, std::string_view kind) {
  if (group == "" && kind == "Namespace") return false;  // Active from its creation until it is deleted
  for (const Rule& rule : kRules) {
    if (rule.group == group && rule.kind == kind) return true;
  }
  constexpr std::string_view kBuiltinSuffix = ".k8s.io";
  const bool builtin = group.empty() || group == "apps" || group == "batch" || group == "autoscaling" ||
                       group == "policy" ||
                       (group.size() > kBuiltinSuffix.size() && group.substr(group.size() - kBuiltinSuffix.size()) == kBuiltinSuffix);
  return !builtin;
}

Readiness JudgeReadiness(const json& object) {
  const std::string group = util::SplitApiVersion(Str(Field(object, "apiVersion"))).group;
  const std::string kind = Str(Field(object, "kind"));
  for (const Rule& rule : kRules) {
    if (rule.group == group && rule.kind == kind) return rule.judge(object);
  }
  return JudgeGeneric(object);
}

}  // namespace tazuna::state
