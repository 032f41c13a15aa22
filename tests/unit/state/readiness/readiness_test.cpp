#include "state/readiness/readiness.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "readiness_cases.hpp"

namespace tazuna::state {
namespace {

using std::chrono::seconds;
using testing::Polled;
using Case = testing::ReadinessCase;

void Check(const std::vector<Case>& cases) { testing::CheckCases(cases); }

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
      {"rolling out", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":3},"spec":{"replicas":3},
           "status":{"observedGeneration":3,"replicas":4,"updatedReplicas":2,"availableReplicas":1,"readyReplicas":2}})",
       ReadyState::kInProgress, "2/3 updated, 1 available"},
      {"old replicas terminating", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":3},"spec":{"replicas":1},
           "status":{"observedGeneration":3,"replicas":2,"updatedReplicas":1,"availableReplicas":1,"readyReplicas":1}})",
       ReadyState::kInProgress, "1 old replica pending termination"},
      {"spec changed, status older", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":4},"spec":{"replicas":1},
           "status":{"observedGeneration":3,"replicas":1,"updatedReplicas":1,"availableReplicas":1,"readyReplicas":1}})",
       ReadyState::kInProgress, "generation 4 not yet observed (status is for 3)"},
      {"deadline exceeded", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},
           "status":{"observedGeneration":1,"replicas":1,"updatedReplicas":1,
           "conditions":[{"type":"Progressing","status":"False","reason":"ProgressDeadlineExceeded","message":"ReplicaSet \"web-5d\" has timed out progressing."}]}})",
       ReadyState::kFailed, "Progressing=False ProgressDeadlineExceeded: ReplicaSet \"web-5d\" has timed out progressing."},
      {"available", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":2},"spec":{"replicas":2},
           "status":{"observedGeneration":2,"replicas":2,"updatedReplicas":2,"readyReplicas":2,"availableReplicas":2,
           "conditions":[{"type":"Available","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"available but being deleted", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":3,
           "deletionTimestamp":"2026-01-01T00:04:00Z","finalizers":["foregroundDeletion"]},"spec":{"replicas":1},
           "status":{"observedGeneration":3,"replicas":1,"updatedReplicas":1,"readyReplicas":1,"availableReplicas":1}})",
       ReadyState::kInProgress, "being deleted (since 2026-01-01T00:04:00Z), waiting for finalizers foregroundDeletion"},
      {"scaled to zero", R"({"apiVersion":"apps/v1","kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":0},
           "status":{"observedGeneration":1}})",
       ReadyState::kReady, ""},
  });
}

TEST_CASE("readiness: StatefulSet") {
  Check({
      {"not ready", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":1},"spec":{"replicas":3},
           "status":{"observedGeneration":1,"replicas":1,"readyReplicas":1,"updatedReplicas":1}})",
       ReadyState::kInProgress, "1/3 ready, 1 updated"},
      {"scaled down, pods still terminating", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},"spec":{"replicas":2},
           "status":{"observedGeneration":2,"replicas":3,"readyReplicas":3,"updatedReplicas":3,"currentRevision":"db-1","updateRevision":"db-1"}})",
       ReadyState::kInProgress, "1 pod pending termination"},
      {"rolling", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},"spec":{"replicas":2},
           "status":{"observedGeneration":2,"replicas":2,"readyReplicas":2,"updatedReplicas":2,"currentRevision":"db-1","updateRevision":"db-2"}})",
       ReadyState::kInProgress, "rolling out revision db-2 (2/2 updated)"},
      {"ready", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},"spec":{"replicas":2},
           "status":{"observedGeneration":2,"replicas":2,"readyReplicas":2,"updatedReplicas":2,"currentRevision":"db-2","updateRevision":"db-2"}})",
       ReadyState::kReady, ""},
      {"partitioned", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},
           "spec":{"replicas":3,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":2}}},
           "status":{"observedGeneration":2,"replicas":3,"readyReplicas":3,"updatedReplicas":1,"currentRevision":"db-1","updateRevision":"db-2"}})",
       ReadyState::kReady, ""},
      {"partition not reached", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},
           "spec":{"replicas":3,"updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"partition":1}}},
           "status":{"observedGeneration":2,"replicas":3,"readyReplicas":3,"updatedReplicas":1,"currentRevision":"db-1","updateRevision":"db-2"}})",
       ReadyState::kInProgress, "1/2 updated"},
      {"on delete", R"({"apiVersion":"apps/v1","kind":"StatefulSet","metadata":{"generation":2},
           "spec":{"replicas":1,"updateStrategy":{"type":"OnDelete"}},
           "status":{"observedGeneration":2,"replicas":1,"readyReplicas":1,"currentRevision":"db-1","updateRevision":"db-2"}})",
       ReadyState::kReady, ""},
  });
}

TEST_CASE("readiness: DaemonSet and ReplicaSet") {
  Check({
      {"ds not observed", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1}})",
       ReadyState::kInProgress, "generation 1 not yet observed"},
      {"ds not scheduled everywhere", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
           "status":{"observedGeneration":1,"desiredNumberScheduled":2,"currentNumberScheduled":1,"updatedNumberScheduled":1,"numberAvailable":1,"numberReady":1}})",
       ReadyState::kInProgress, "1/2 scheduled"},
      {"ds rolling", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":2},
           "status":{"observedGeneration":2,"desiredNumberScheduled":3,"currentNumberScheduled":3,"updatedNumberScheduled":1,"numberAvailable":2,"numberReady":2}})",
       ReadyState::kInProgress, "1/3 updated, 2 available"},
      {"ds OnDelete: old pods stay until someone deletes them", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":2},
           "spec":{"updateStrategy":{"type":"OnDelete"}},
           "status":{"observedGeneration":2,"desiredNumberScheduled":2,"currentNumberScheduled":2,"updatedNumberScheduled":0,"numberAvailable":2,"numberReady":2}})",
       ReadyState::kReady, ""},
      {"ds unavailable", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
           "status":{"observedGeneration":1,"desiredNumberScheduled":2,"currentNumberScheduled":2,"updatedNumberScheduled":2,"numberAvailable":1,"numberReady":1}})",
       ReadyState::kInProgress, "1/2 available"},
      {"ds ready", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
           "status":{"observedGeneration":1,"desiredNumberScheduled":2,"currentNumberScheduled":2,"updatedNumberScheduled":2,"numberAvailable":2,"numberReady":2}})",
       ReadyState::kReady, ""},
      {"ds on no node", R"({"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"generation":1},
           "status":{"observedGeneration":1,"desiredNumberScheduled":0}})",
       ReadyState::kReady, ""},
      {"rs unavailable", R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"generation":1},"spec":{"replicas":2},
           "status":{"observedGeneration":1,"replicas":2,"availableReplicas":0}})",
       ReadyState::kInProgress, "0/2 available"},
      {"rs cannot create pods", R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"generation":1},"spec":{"replicas":2},
           "status":{"observedGeneration":1,"replicas":0,"conditions":[{"type":"ReplicaFailure","status":"True","reason":"FailedCreate",
           "message":"pods \"web-\" is forbidden: exceeded quota"}]}})",
       ReadyState::kInProgress, "ReplicaFailure=True FailedCreate: pods \"web-\" is forbidden: exceeded quota"},
      {"rs scaled down, pods terminating", R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"generation":2},"spec":{"replicas":1},
           "status":{"observedGeneration":2,"replicas":3,"availableReplicas":1,"readyReplicas":1}})",
       ReadyState::kInProgress, "2 pods pending termination"},
      {"rs ready", R"({"apiVersion":"apps/v1","kind":"ReplicaSet","metadata":{"generation":1},"spec":{"replicas":2},
           "status":{"observedGeneration":1,"replicas":2,"availableReplicas":2,"readyReplicas":2}})",
       ReadyState::kReady, ""},
  });
}

TEST_CASE("readiness: Pod") {
  Check({
      {"unschedulable", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Pending","conditions":[{"type":"PodScheduled",
           "status":"False","reason":"Unschedulable","message":"0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector."}]}})",
       ReadyState::kInProgress,
       "phase Pending (PodScheduled=False Unschedulable: 0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector.)"},
      {"just created", R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"}})", ReadyState::kInProgress, "phase Pending"},
      {"ready", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"ready for an older generation", R"({"apiVersion":"v1","kind":"Pod","metadata":{"generation":2},"status":{"phase":"Running",
           "conditions":[{"type":"Ready","status":"True","observedGeneration":1}]}})",
       ReadyState::kInProgress, "Ready=True is for generation 1, not 2"},
      {"succeeded", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Succeeded"}})", ReadyState::kReady, ""},
      {"succeeded, being deleted", R"({"apiVersion":"v1","kind":"Pod","metadata":{"deletionTimestamp":"2026-01-01T00:04:00Z"},
           "status":{"phase":"Succeeded"}})", ReadyState::kReady, ""},
      {"running, being deleted", R"({"apiVersion":"v1","kind":"Pod","metadata":{"deletionTimestamp":"2026-01-01T00:04:00Z"},
           "status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kInProgress, "being deleted (since 2026-01-01T00:04:00Z)"},
      {"failed", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Failed","message":"exit code 1"}})",
       ReadyState::kFailed, "phase Failed: exit code 1"},
      {"crash loop", R"({"apiVersion":"v1","kind":"Pod","status":{"phase":"Running","containerStatuses":[{"name":"app",
           "state":{"waiting":{"reason":"CrashLoopBackOff","message":"back-off 40s restarting failed container"}}}]}})",
       ReadyState::kFailed, "container app CrashLoopBackOff: back-off 40s restarting failed container"},
  });
}

TEST_CASE("readiness: Job") {
  Check({
      {"running", R"({"apiVersion":"batch/v1","kind":"Job","spec":{"completions":3},"status":{"active":1,"succeeded":1}})",
       ReadyState::kInProgress, "1 active, 1/3 succeeded"},
      {"complete", R"({"apiVersion":"batch/v1","kind":"Job","status":{"succeeded":1,"conditions":[{"type":"Complete","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"complete, deleted by its TTL (foreground)", R"({"apiVersion":"batch/v1","kind":"Job","metadata":{
           "deletionTimestamp":"2026-01-01T00:04:00Z","finalizers":["foregroundDeletion"]},
           "status":{"succeeded":1,"conditions":[{"type":"SuccessCriteriaMet","status":"True"},{"type":"Complete","status":"True"}]}})",
       ReadyState::kReady, ""},
      {"running, being deleted", R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"deletionTimestamp":"2026-01-01T00:04:00Z",
           "finalizers":["foregroundDeletion"]},"status":{"active":1}})",
       ReadyState::kInProgress, "being deleted (since 2026-01-01T00:04:00Z), waiting for finalizers foregroundDeletion"},
      {"failed", R"({"apiVersion":"batch/v1","kind":"Job","status":{"failed":1,"conditions":[{"type":"Failed","status":"True",
           "reason":"DeadlineExceeded","message":"Job was active longer than specified deadline"}]}})",
       ReadyState::kFailed, "Failed=True DeadlineExceeded: Job was active longer than specified deadline"},
      {"failing (pods still stopping)", R"({"apiVersion":"batch/v1","kind":"Job","status":{"failed":1,"active":1,"conditions":[
           {"type":"FailureTarget","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"}]}})",
       ReadyState::kFailed, "FailureTarget=True BackoffLimitExceeded: Job has reached the specified backoff limit"},
      {"suspended", R"({"apiVersion":"batch/v1","kind":"Job","spec":{"suspend":true}})", ReadyState::kReady, ""},
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
      {"crd not accepted", R"({"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","status":{"conditions":[
           {"type":"Established","status":"False","reason":"NotAccepted","message":"not all names are accepted"}]}})",
       ReadyState::kFailed, "Established=False NotAccepted: not all names are accepted"},
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

// A PodDisruptionBudget as the apiserver answers its creation (status zeroed, no observedGeneration).
constexpr char kNewPdb[] = R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"generation":1,
    "creationTimestamp":"2026-01-01T00:04:50Z","managedFields":[{"manager":"tazuna","operation":"Apply",
    "time":"2026-01-01T00:04:50Z"}]},"spec":{"minAvailable":1},
    "status":{"currentHealthy":0,"desiredHealthy":0,"disruptionsAllowed":0,"expectedPods":0}})";

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) text.replace(at, from.size(), to);
  return text;
}

TEST_CASE("readiness: PodDisruptionBudget") {
  const std::string old_pdb = ReplaceAll(kNewPdb, "00:04:50Z", "00:01:00Z");
  Check({
      {"first look at a new one", kNewPdb, ReadyState::kInProgress, "waiting for the disruption controller to compute it",
       "", JudgeContext{}},
      {"within the grace period", kNewPdb, ReadyState::kInProgress, "waiting for the disruption controller to compute it",
       "", Polled(StatusSubresource::kNo, seconds(10))},
      {"no disruption controller: watched past the grace period", kNewPdb, ReadyState::kReady, "",
       "no disruption controller wrote its status within 30s; counted as ready", Polled(StatusSubresource::kNo, seconds(30))},
      {"no disruption controller: created long ago", old_pdb, ReadyState::kReady, "",
       "no disruption controller wrote its status within 30s; counted as ready"},
      {"computed", R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"generation":1},
           "status":{"observedGeneration":1,"currentHealthy":0,"desiredHealthy":1,"disruptionsAllowed":0,"expectedPods":1,
           "conditions":[{"type":"DisruptionAllowed","status":"False","reason":"InsufficientPods","observedGeneration":1}]}})",
       ReadyState::kReady, ""},
      {"spec changed since", R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"generation":2},
           "status":{"observedGeneration":1,"disruptionsAllowed":1}})",
       ReadyState::kInProgress, "generation 2 not yet observed (status is for 1)"},
      {"controller cannot compute it (as the disruption controller writes it: no observedGeneration)",
       R"({"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"generation":1,"creationTimestamp":"2026-01-01T00:00:00Z"},
           "status":{"conditions":[{"lastTransitionTime":"2026-11-25T15:51:25Z","message":"configmaps does not implement the scale subresource",
           "reason":"SyncFailed","status":"False","type":"DisruptionAllowed"}],"currentHealthy":0,"desiredHealthy":0,
           "disruptionsAllowed":0,"expectedPods":0}})",
       ReadyState::kInProgress, "DisruptionAllowed=False SyncFailed: configmaps does not implement the scale subresource"},
  });
}

TEST_CASE("readiness: Service") {
  constexpr char kLb[] = R"({"apiVersion":"v1","kind":"Service","metadata":{"creationTimestamp":"2026-01-01T00:04:50Z"},
      "spec":{"type":"LoadBalancer","clusterIP":"10.0.0.7"},"status":{"loadBalancer":{}}})";
  Check({
      {"cluster IP", R"({"apiVersion":"v1","kind":"Service","spec":{"type":"ClusterIP","clusterIP":"10.0.0.5"}})", ReadyState::kReady, ""},
      {"load balancer without an address", kLb, ReadyState::kInProgress, "waiting for a load balancer address"},
      {"no load balancer controller", kLb, ReadyState::kReady, "",
       "no load balancer controller gave it an address within 30s; counted as ready", Polled(StatusSubresource::kNo, seconds(31))},
      {"a controller took it and is still at work", R"({"apiVersion":"v1","kind":"Service","metadata":{
           "creationTimestamp":"2026-01-01T00:00:00Z","finalizers":["service.kubernetes.io/load-balancer-cleanup"]},
           "spec":{"type":"LoadBalancer","clusterIP":"10.0.0.7"},"status":{"loadBalancer":{}}})",
       ReadyState::kInProgress, "waiting for a load balancer address"},
      {"address assigned", R"({"apiVersion":"v1","kind":"Service","spec":{"type":"LoadBalancer","clusterIP":"10.0.0.7"},
           "status":{"loadBalancer":{"ingress":[{"hostname":"a1b2.elb.example.com"}]}}})",
       ReadyState::kReady, ""},
  });
}

}  // namespace
}  // namespace tazuna::state
