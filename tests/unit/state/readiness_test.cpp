#include "state/readiness.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace tazuna::state {
namespace {

struct Case {
  std::string name;
  std::string object;  // a status document as the server returns it (trimmed to what the rules read)
  ReadyState want = ReadyState::kReady;
  std::string want_message;
};

void Check(const std::vector<Case>& cases) {
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const Readiness got = JudgeReadiness(nlohmann::json::parse(c.object));
    CHECK(ReadyStateName(got.state) == std::string(ReadyStateName(c.want)));
    CHECK(got.message == c.want_message);
  }
}

TEST_CASE("readiness: Deployment") {
  Check({
      {"just created, not observed", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":2}})",
       ReadyState::kInProgress, "generation 1 not yet observed"},
      {"pods not available",
       R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":2},
           "status":{"observedGeneration":1,"replicas":2,"updatedReplicas":2,"readyReplicas":1,"availableReplicas":1,
           "conditions":[{"type":"Available","status":"False","reason":"MinimumReplicasUnavailable","message":"Deployment does not have minimum availability."},
                         {"type":"Progressing","status":"True","reason":"ReplicaSetUpdated"}]}})",
       ReadyState::kInProgress,
       "1/2 available (Available=False MinimumReplicasUnavailable: Deployment does not have minimum availability.)"},
      {"rolling out", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":3},"spec":{"replicas":2},
           "status":{"observedGeneration":3,"replicas":2,"updatedReplicas":1,"availableReplicas":2,"readyReplicas":2}})",
       ReadyState::kInProgress, "1/2 updated"},
      {"old replicas terminating", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":3},"spec":{"replicas":1},
           "status":{"observedGeneration":3,"replicas":2,"updatedReplicas":1,"availableReplicas":1,"readyReplicas":1}})",
       ReadyState::kInProgress, "1 old replicas pending termination"},
      {"spec changed, status older", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":4},"spec":{"replicas":1},
           "status":{"observedGeneration":3,"replicas":1,"updatedReplicas":1,"availableReplicas":1,"readyReplicas":1}})",
       ReadyState::kInProgress, "generation 4 not yet observed"},
      {"deadline exceeded", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},
           "status":{"observedGeneration":1,"replicas":1,"updatedReplicas":1,
           "conditions":[{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded","message":"ReplicaSet \"web-5d\" has timed out progressing."}]}})",
       ReadyState::kFailed, "Progressing=False ProgressDeadlineExceeded: ReplicaSet \"web-5d\" has timed out progressing."},
      {"available", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":2},"spec":{"replicas":2},
           "status":{"observedGeneration":2,"replicas":2,"updatedReplicas":2,"readyReplicas":2,"availableReplicas":2,
           "conditions":[{"type":"Available","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"scaled to zero", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":0},
           "status":{"observedGeneration":1}})",
       ReadyState::kReady, ""},
  });
}

TEST_CASE("readiness: StatefulSet, DaemonSet, ReplicaSet") {
  Check({
      {"sts not ready", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":1},"spec":{"replicas":3},
           "status":{"observedGeneration":1,"replicas":1,"readyReplicas":1}})",
       ReadyState::kInProgress, "1/3 ready"},
      {"sts rolling", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},"spec":{"replicas":2},
           "status":{"observedGeneration":2,"replicas":2,"readyReplicas":2,"updatedReplicas":2,"currentRevision":"db-1","updateRevision":"db-2"}})",
       ReadyState::kInProgress, "rolling out revision db-2"},
      {"sts ready", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},"spec":{"replicas":2},
           "status":{"observedGeneration":2,"replicas":2,"readyReplicas":2,"updatedReplicas":2,"currentRevision":"db-2","updateRevision":"db-2"}})",
       ReadyState::kReady, ""},
      {"sts partitioned", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},
           "spec":{"replicas":3,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2}}},
           "status":{"observedGeneration":2,"replicas":3,"readyReplicas":3,"updatedReplicas":1,"currentRevision":"db-1","updateRevision":"db-2"}})",
       ReadyState::kReady, ""},
      {"ds not observed", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1}})",
       ReadyState::kInProgress, "generation 1 not yet observed"},
      {"ds unavailable", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
           "status":{"observedGeneration":1,"desiredNumberScheduled":2,"updatedNumberScheduled":2,"numberAvailable":1,"numberReady":1}})",
       ReadyState::kInProgress, "1/2 available"},
      {"ds ready", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
           "status":{"observedGeneration":1,"desiredNumberScheduled":2,"updatedNumberScheduled":2,"numberAvailable":2,"numberReady":2}})",
       ReadyState::kReady, ""},
      {"ds on no node", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
           "status":{"observedGeneration":1,"desiredNumberScheduled":0}})",
       ReadyState::kReady, ""},
      {"rs unavailable", R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"generation":1},"spec":{"replicas":2},
           "status":{"observedGeneration":1,"replicas":2,"availableReplicas":0}})",
       ReadyState::kInProgress, "0/2 available"},
      {"rs ready", R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"generation":1},"spec":{"replicas":2},
           "status":{"observedGeneration":1,"replicas":2,"availableReplicas":2,"readyReplicas":2}})",
       ReadyState::kReady, ""},
  });
}

TEST_CASE("readiness: Pod and Job") {
  Check({
      {"pod unschedulable", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Pending","conditions":[{"type":"PodScheduled",
           "status":"False","reason":"Unschedulable","message":"0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector."}]}})",
       ReadyState::kInProgress,
       "phase Pending (PodScheduled=False Unschedulable: 0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.)"},
      {"pod just created", R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})", ReadyState::kInProgress, "phase Pending"},
      {"pod ready", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"pod succeeded", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Succeeded"}})", ReadyState::kReady, ""},
      {"pod failed", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Failed","message":"exit code 1"}})",
       ReadyState::kFailed, "phase Failed: exit code 1"},
      {"pod crash loop", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Running","containerStatuses":[{"name":"app",
           "state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 40s restarting failed container"}}}]}})",
       ReadyState::kFailed, "container app CrashLoopBackOff: back-off 40s restarting failed container"},
      {"job running", R"({"apiVersion":"batch/v1","kind":"Job","spec":{"completions":3},"status":{"active":1,"succeeded":1}})",
       ReadyState::kInProgress, "1 active, 1/3 succeeded"},
      {"job complete", R"({"apiVersion":"batch/v1","kind":"Job","status":{"succeeded":1,"conditions":[{"type":"Complete","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"job failed", R"({"apiVersion":"batch/v1","kind":"Job","status":{"failed":1,"conditions":[{"type":"Failed","status":"True",
           "reason":"DeadlineExceeded","message":"Job was active longer than specified deadline"}]}})",
       ReadyState::kFailed, "Failed=True DeadlineExceeded: Job was active longer than specified deadline"},
      {"job suspended", R"({"apiVersion":"batch/v1","kind":"Job","spec":{"suspend":true}})", ReadyState::kReady, ""},
  });
}

TEST_CASE("readiness: CRD, APIService, PVC, Namespace") {
  Check({
      {"crd new", R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","status":{"conditions":[
           {"type":"NamesAccepted","status":"True"},{"type":"Established","status":"False","reason":"Installing"}]}})",
       ReadyState::kInProgress, "Established=False Installing"},
      {"crd no status", R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition"})",
       ReadyState::kInProgress, "not established"},
      {"crd names taken", R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","status":{"conditions":[
           {"type":"NamesAccepted","status":"False","reason":"ListKindConflict","message":"\"WidgetList\" is already in use"}]}})",
       ReadyState::kFailed, "NamesAccepted=False ListKindConflict: \"WidgetList\" is already in use"},
      {"crd established", R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","status":{"conditions":[
           {"type":"Established","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"apiservice down", R"({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","status":{"conditions":[
           {"type":"Available","status":"False","reason":"MissingEndpoints","message":"endpoints for service/metrics-server in \"kube-system\" have no addresses"}]}})",
       ReadyState::kInProgress,
       "Available=False MissingEndpoints: endpoints for service/metrics-server in \"kube-system\" have no addresses"},
      {"apiservice up", R"({"apiVersion":"apiregistration.k8s.io/v1","kind":"APIService","status":{"conditions":[{"type":"Available","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"pvc pending", R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","status":{"phase":"Pending"}})",
       ReadyState::kInProgress, "phase Pending"},
      {"pvc bound", R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","status":{"phase":"Bound"}})", ReadyState::kReady, ""},
      {"pvc lost", R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","status":{"phase":"Lost"}})",
       ReadyState::kFailed, "phase Lost: its PersistentVolume is gone"},
      {"namespace active", R"({"apiVersion":"v1","kind":"Namespace","status":{"phase":"Active"}})", ReadyState::kReady, ""},
      {"namespace terminating", R"({"apiVersion":"v1","kind":"Namespace","status":{"phase":"Terminating"}})",
       ReadyState::kInProgress, "phase Terminating"},
  });
}

TEST_CASE("readiness: other kinds follow a Ready condition, else are ready once applied") {
  Check({
      {"configmap", R"({"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"}})", ReadyState::kReady, ""},
      {"custom resource without status", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1}})",
       ReadyState::kReady, ""},
      {"custom resource not ready", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1},
           "status":{"conditions":[{"type":"Ready","status":"False","reason":"Waiting","message":"issuer not found"}]}})",
       ReadyState::kInProgress, "Ready=False Waiting: issuer not found"},
      {"custom resource ready but stale", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":2},
           "status":{"observedGeneration":1,"conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kInProgress, "generation 2 not yet observed"},
      {"custom resource ready", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":2},
           "status":{"observedGeneration":2,"conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"custom resource stalled", R"({"apiVersion":"example.com/v1","kind":"Widget","status":{"conditions":[
           {"type":"Stalled","status":"True","reason":"InvalidSpec","message":"bad"}]}})",
       ReadyState::kFailed, "Stalled=True InvalidSpec: bad"},
      {"odd status shapes", R"({"apiVersion":"example.com/v1","kind":"Widget","status":{"conditions":"yes","observedGeneration":"1"}})",
       ReadyState::kReady, ""},
      {"not an object", R"([1,2])", ReadyState::kReady, ""},
  });
}

}  // namespace
}  // namespace tazuna::state
