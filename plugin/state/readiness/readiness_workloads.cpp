// Readiness rules of the built-in workloads: Deployment, StatefulSet, DaemonSet, ReplicaSet, Pod, Job.
// Their controllers report status.observedGeneration, so a status older than the spec is never read.
#include "state/readiness/readiness_rules.hpp"

#include "state/readiness/readiness_fields.hpp"
#include "util/strings.hpp"

namespace tazuna::state::readiness {

using nlohmann::json;
using util::StrCat;

namespace {

int64_t DesiredReplicas(const json& object) { return Int(Field(object, "spec", "replicas"), 1); }

// kstatus's "extra pods": replicas above spec are pods (or old ReplicaSets' pods) still terminating.
Readiness PendingTermination(int64_t extra, const char* what) {
  return InProgress(StrCat(extra, " ", what, extra == 1 ? "" : "s", " pending termination"));
}

}  // namespace

Readiness JudgeDeployment(const json& d, const JudgeContext&) {
  if (Unobserved(d, true)) return NotObserved(d);
  const json& progressing = Condition(d, "Progressing");
  if (Str(Field(progressing, "reason")) == "ProgressDeadlineExceeded") return Failed(DescribeCondition(progressing));
  const int64_t want = DesiredReplicas(d);
  const json& s = Field(d, "status");
  const int64_t updated = Int(Field(s, "updatedReplicas")), available = Int(Field(s, "availableReplicas"));
  if (updated < want) return Short(d, StrCat(updated, "/", want, " updated, ", available, " available"));
  if (Int(Field(s, "replicas")) > want) return PendingTermination(Int(Field(s, "replicas")) - want, "old replica");
  if (available < want) return Short(d, StrCat(available, "/", want, " available"));
  const int64_t ready = Int(Field(s, "readyReplicas"));
  if (ready < want) return Short(d, StrCat(ready, "/", want, " ready"));
  return Ready();
}

Readiness JudgeStatefulSet(const json& s, const JudgeContext&) {
  if (Unobserved(s, true)) return NotObserved(s);
  const int64_t want = DesiredReplicas(s);
  const json& st = Field(s, "status");
  const int64_t ready = Int(Field(st, "readyReplicas")), updated = Int(Field(st, "updatedReplicas"));
  if (ready < want) return Short(s, StrCat(ready, "/", want, " ready, ", updated, " updated"));
  if (Int(Field(st, "replicas")) > want) return PendingTermination(Int(Field(st, "replicas")) - want, "pod");
  const json& strategy = Field(s, "spec", "updateStrategy");
  if (Str(Field(strategy, "type")) == "OnDelete") return Ready();
  const int64_t partition = Int(Field(Field(strategy, "rollingUpdate"), "partition"));
  if (updated < want - partition) return Short(s, StrCat(updated, "/", want - partition, " updated"));
  if (partition > 0) return Ready();  // the pods below the partition keep the old revision on purpose
  const std::string update = Str(Field(st, "updateRevision")), current = Str(Field(st, "currentRevision"));
  if (!update.empty() && update != current) {
    return InProgress(StrCat("rolling out revision ", update, " (", updated, "/", want, " updated)"));
  }
  return Ready();
}

Readiness JudgeDaemonSet(const json& d, const JudgeContext&) {
  if (Unobserved(d, true)) return NotObserved(d);
  const json& s = Field(d, "status");
  const int64_t want = Int(Field(s, "desiredNumberScheduled"));
  const int64_t scheduled = Int(Field(s, "currentNumberScheduled")), updated = Int(Field(s, "updatedNumberScheduled"));
  const int64_t available = Int(Field(s, "numberAvailable"));
  if (scheduled < want) return Short(d, StrCat(scheduled, "/", want, " scheduled"));
  // OnDelete: pods take a new template only when someone deletes them; kstatus waits for them forever.
  const bool on_delete = Str(Field(Field(d, "spec", "updateStrategy"), "type")) == "OnDelete";
  if (updated < want && !on_delete) return Short(d, StrCat(updated, "/", want, " updated, ", available, " available"));
  if (available < want) return Short(d, StrCat(available, "/", want, " available"));
  if (Int(Field(s, "numberReady")) < want) return Short(d, StrCat(Int(Field(s, "numberReady")), "/", want, " ready"));
  return Ready();
}

Readiness JudgeReplicaSet(const json& r, const JudgeContext&) {
  if (Unobserved(r, true)) return NotObserved(r);
  if (ConditionIs(r, "ReplicaFailure", "True")) return InProgress(DescribeCondition(Condition(r, "ReplicaFailure")));
  const int64_t want = DesiredReplicas(r);
  const json& s = Field(r, "status");
  const int64_t available = Int(Field(s, "availableReplicas"));
  if (available < want) return Short(r, StrCat(available, "/", want, " available"));
  const int64_t ready = Int(Field(s, "readyReplicas"));
  if (ready < want) return Short(r, StrCat(ready, "/", want, " ready"));
  if (Int(Field(s, "replicas")) > want) return PendingTermination(Int(Field(s, "replicas")) - want, "pod");
  return Ready();
}

Readiness JudgePod(const json& p, const JudgeContext&) {
  const std::string phase = Str(Field(p, "status", "phase"));
  if (phase == "Succeeded") return Ready();
  if (phase == "Failed") {
    const std::string message = Str(Field(p, "status", "message"));
    return Failed(StrCat("phase Failed", message.empty() ? "" : ": ", message));
  }
  const json& containers = Field(p, "status", "containerStatuses");
  for (const auto& c : containers.is_array() ? containers : json::array()) {
    const json& waiting = Field(Field(c, "state"), "waiting");
    if (Str(Field(waiting, "reason")) == "CrashLoopBackOff") {
      return Failed(StrCat("container ", Str(Field(c, "name")), " CrashLoopBackOff: ", Str(Field(waiting, "message"))));
    }
  }
  const json& ready = Condition(p, "Ready");
  if (Stale(p, ready)) return InProgress(StaleText(p, ready));
  if (Str(Field(ready, "status")) == "True") return Ready();
  const std::string lacking = LackingCondition(p);
  return InProgress(StrCat("phase ", phase.empty() ? "Pending" : phase, lacking.empty() ? "" : " (", lacking,
                           lacking.empty() ? "" : ")"));
}

Readiness JudgeJob(const json& j, const JudgeContext&) {
  if (ConditionIs(j, "Failed", "True")) return Failed(DescribeCondition(Condition(j, "Failed")));
  // FailureTarget (Kubernetes 1.31+): the Job has failed and only waits for its pods to stop.
  if (ConditionIs(j, "FailureTarget", "True")) return Failed(DescribeCondition(Condition(j, "FailureTarget")));
  if (ConditionIs(j, "Complete", "True")) return Ready();
  if (Field(j, "spec", "suspend") == true) return Ready();  // a suspended Job does not run: nothing to wait for
  const json& s = Field(j, "status");
  return InProgress(StrCat(Int(Field(s, "active")), " active, ", Int(Field(s, "succeeded")), "/",
                           Int(Field(j, "spec", "completions"), 1), " succeeded"));
}

bool Finished(std::string_view kind, const json& object) {
  if (kind == "Job") return ConditionIs(object, "Complete", "True") || ConditionIs(object, "Failed", "True");
  const std::string phase = Str(Field(object, "status", "phase"));
  return kind == "Pod" && (phase == "Succeeded" || phase == "Failed");
}

}  // namespace tazuna::state::readiness
