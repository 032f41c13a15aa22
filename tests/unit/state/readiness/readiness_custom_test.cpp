// Readiness of custom resources and other kinds without a rule: generations, status subresources, grace.
// The documents follow what the controllers named write (cert-manager, Gateway API, Cluster API, Flux).
#include "state/readiness/readiness.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "readiness_cases.hpp"

namespace tazuna::state {
namespace {

using std::chrono::seconds;
using testing::kNow;
using testing::Polled;
using Case = testing::ReadinessCase;

const JudgeContext kWithStatus = Polled(StatusSubresource::kYes);
const JudgeContext kNoStatus = Polled(StatusSubresource::kNo);

void Check(const std::vector<Case>& cases) { testing::CheckCases(cases); }

// A Certificate just applied: the create dropped its status (status subresource).
constexpr char kNewCertificate[] = R"({"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"web",
    "generation":1,"creationTimestamp":"2026-01-01T00:04:58Z","managedFields":[{"manager":"tazuna","operation":"Apply",
    "apiVersion":"cert-manager.io/v1","time":"2026-01-01T00:04:58Z","fieldsType":"FieldsV1","fieldsV1":{}}]},
    "spec":{"secretName":"web-tls"}})";

// The same Certificate after a spec change (generation 2) before cert-manager looked again: its Ready
// condition carries the generation it was written for.
constexpr char kModifiedCertificate[] = R"({"apiVersion":"cert-manager.io/v1","kind":"Certificate","metadata":{"name":"web",
    "generation":2,"creationTimestamp":"2026-01-01T00:00:00Z","managedFields":[
      {"manager":"tazuna","operation":"Apply","time":"2026-01-01T00:04:58Z"},
      {"manager":"cert-manager-certificates-readiness","operation":"Update","subresource":"status","time":"2026-01-01T00:00:03Z"}]},
    "status":{"conditions":[{"type":"Ready","status":"True","reason":"Ready","message":"Certificate is up to date and has not expired",
      "observedGeneration":1,"lastTransitionTime":"2026-01-01T00:00:03Z"}],"notAfter":"2026-04-01T00:00:00Z"}})";

TEST_CASE("readiness: a custom resource waits for its controller's status (status subresource)") {
  const std::string current = [] {
    std::string s = kModifiedCertificate;
    s.replace(s.find("\"observedGeneration\":1"), 22, "\"observedGeneration\":2");
    return s;
  }();
  Check({
      {"first look (the apply's answer): nothing concluded", kNewCertificate, ReadyState::kInProgress,
       "status not read yet", "", JudgeContext{}},
      {"new, no status yet", kNewCertificate, ReadyState::kInProgress,
       "waiting for a controller to write its status", "", kWithStatus},
      {"new, no status: kstatus's answer when the CRD has no status subresource", kNewCertificate,
       ReadyState::kReady, "", "", kNoStatus},
      {"new, no controller within the grace period", kNewCertificate, ReadyState::kReady, "",
       "no controller wrote its status within 30s; counted as ready", Polled(StatusSubresource::kYes, seconds(30))},
      {"grace 0: at once", kNewCertificate, ReadyState::kReady, "",
       "no controller wrote its status within 0s; counted as ready",
       JudgeContext{StatusSubresource::kYes, kNow, seconds(0), seconds(0)}},
      {"modified: Ready=True of the previous generation", kModifiedCertificate, ReadyState::kInProgress,
       "status is for generation 1, not 2", "", kWithStatus},
      {"modified: a stale condition never counts, even without the CRD", kModifiedCertificate,
       ReadyState::kInProgress,
       "Ready=True Ready: Certificate is up to date and has not expired is for generation 1, not 2", "", kNoStatus},
      {"modified: stale past the grace period still waits (a controller writes generations)", kModifiedCertificate,
       ReadyState::kInProgress, "status is for generation 1, not 2", "", Polled(StatusSubresource::kYes, seconds(600))},
      {"current", current, ReadyState::kReady, "", "", kWithStatus},
  });
}

// A Gateway as the apiserver stores it before any controller: the CRD's schema defaults its conditions
// ("Waiting for controller"), so its status is not empty, but nobody wrote it.
constexpr char kDefaultedGateway[] = R"({"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw",
    "generation":1,"creationTimestamp":"2026-01-01T00:04:55Z","managedFields":[{"manager":"tazuna","operation":"Apply",
    "time":"2026-01-01T00:04:55Z"}]},"spec":{"gatewayClassName":"example"},
    "status":{"conditions":[
      {"type":"Accepted","status":"Unknown","reason":"Pending","message":"Waiting for controller","lastTransitionTime":"1970-01-01T00:00:00Z"},
      {"type":"Programmed","status":"Unknown","reason":"Pending","message":"Waiting for controller","lastTransitionTime":"1970-01-01T00:00:00Z"}]}})";

constexpr char kAcceptedGateway[] = R"({"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw",
    "generation":1,"managedFields":[{"manager":"tazuna","operation":"Apply","time":"2026-01-01T00:04:55Z"},
      {"manager":"gateway-controller","operation":"Update","subresource":"status","time":"2026-01-01T00:04:57Z"}]},
    "status":{"conditions":[
      {"type":"Accepted","status":"True","reason":"Accepted","observedGeneration":1},
      {"type":"Programmed","status":"True","reason":"Programmed","observedGeneration":1}]}})";

// An HTTPRoute after a spec change: its controller writes generations only in status.parents[].conditions.
constexpr char kModifiedRoute[] = R"({"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"web",
    "generation":2,"managedFields":[{"manager":"tazuna","operation":"Apply","time":"2026-01-01T00:04:55Z"},
      {"manager":"gateway-controller","operation":"Update","subresource":"status","time":"2026-01-01T00:01:00Z"}]},
    "status":{"parents":[{"parentRef":{"name":"gw"},"controllerName":"example.com/gateway",
      "conditions":[{"type":"Accepted","status":"True","reason":"Accepted","observedGeneration":1},
                    {"type":"ResolvedRefs","status":"True","reason":"ResolvedRefs","observedGeneration":1}]}]}})";

TEST_CASE("readiness: CRD defaults are not a controller's status") {
  Check({
      {"defaulted conditions, nobody wrote them", kDefaultedGateway, ReadyState::kInProgress,
       "waiting for a controller to write its status", "", kWithStatus},
      {"no gateway controller", kDefaultedGateway, ReadyState::kReady, "",
       "no controller wrote its status within 30s; counted as ready", Polled(StatusSubresource::kYes, seconds(45))},
      {"accepted for its generation", kAcceptedGateway, ReadyState::kReady, "", "", kWithStatus},
      {"a route's parents speak for an older generation", kModifiedRoute, ReadyState::kInProgress,
       "status is for generation 1, not 2", "", kWithStatus},
  });
}

TEST_CASE("readiness: statuses that name no generation, status.observedGeneration, kstatus's conditions") {
  Check({
      {"written through the subresource, no generation named: its conditions decide",
       R"({"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"generation":1,"managedFields":[
           {"manager":"kubectl-patch","operation":"Update","subresource":"status","time":"2026-01-01T00:04:00Z"}]},
           "status":{"conditions":[{"type":"Ready","status":"False","reason":"Test","message":"set by the test"}]}})",
       ReadyState::kInProgress, "Ready=False Test: set by the test", "", kWithStatus},
      {"status.observedGeneration behind (Cluster API, Flux)",
       R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Cluster","metadata":{"generation":3},
           "status":{"observedGeneration":2,"conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kInProgress, "generation 3 not yet observed (status is for 2)", "", kWithStatus},
      {"status.observedGeneration current, Ready",
       R"({"apiVersion":"cluster.x-k8s.io/v1beta1","kind":"Cluster","metadata":{"generation":3},
           "status":{"observedGeneration":3,"conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kReady, "", "", kWithStatus},
      {"reconciling (Flux)",
       R"({"apiVersion":"kustomize.toolkit.fluxcd.io/v1","kind":"Kustomization","metadata":{"generation":1},
           "status":{"observedGeneration":1,"conditions":[{"type":"Reconciling","status":"True","reason":"Progressing",
           "message":"Building manifests","observedGeneration":1},{"type":"Ready","status":"Unknown","reason":"Progressing","observedGeneration":1}]}})",
       ReadyState::kInProgress, "Reconciling=True Progressing: Building manifests", "", kWithStatus},
      {"stalled", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":2},"status":{"conditions":[
           {"type":"Stalled","status":"True","reason":"InvalidSpec","message":"bad","observedGeneration":2}]}})",
       ReadyState::kFailed, "Stalled=True InvalidSpec: bad", "", kWithStatus},
      {"stalled for an older generation: the new spec may fix it",
       R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":3},"status":{"conditions":[
           {"type":"Stalled","status":"True","reason":"InvalidSpec","message":"bad","observedGeneration":2}]}})",
       ReadyState::kInProgress, "Stalled=True InvalidSpec: bad is for generation 2, not 3", "", kNoStatus},
      {"not ready", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1},
           "status":{"conditions":[{"type":"Ready","status":"False","reason":"Waiting","message":"issuer not found"}]}})",
       ReadyState::kInProgress, "Ready=False Waiting: issuer not found", "", kNoStatus},
      {"being deleted", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,
           "deletionTimestamp":"2026-01-01T00:04:00Z","finalizers":["example.com/cleanup"]},
           "status":{"observedGeneration":1,"conditions":[{"type":"Ready","status":"True"}]}})",
       ReadyState::kInProgress, "being deleted (since 2026-01-01T00:04:00Z), waiting for finalizers example.com/cleanup", "", kWithStatus},
  });
}

TEST_CASE("readiness: other kinds, odd shapes") {
  Check({
      {"configmap", R"({"apiVersion":"v1","kind":"ConfigMap","data":{"a":"1"}})", ReadyState::kReady, "", "", JudgeContext{}},
      {"built-in kind without a rule, first look", R"({"apiVersion":"networking.k8s.io/v1","kind":"Ingress"})",
       ReadyState::kReady, "", "", JudgeContext{}},
      {"odd status shapes", R"({"apiVersion":"example.com/v1","kind":"Widget","status":{"conditions":"yes","observedGeneration":"1"}})",
       ReadyState::kReady, "", "", kNoStatus},
      {"odd managedFields", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1,"managedFields":[1,{"time":5},
           {"subresource":"status","time":"yesterday"}]},"status":{"phase":"x"}})",
       ReadyState::kInProgress, "waiting for a controller to write its status", "", kWithStatus},
      {"status written, no managedFields to date it", R"({"apiVersion":"example.com/v1","kind":"Widget","metadata":{"generation":1},
           "status":{"phase":"Running"}})",
       ReadyState::kReady, "", "", kWithStatus},
      {"not an object", R"([1,2])", ReadyState::kReady, "", "", kNoStatus},
  });
}

TEST_CASE("readiness: kinds that can be not ready after they exist") {
  const nlohmann::json none = nlohmann::json::object();
  CHECK(MayBeNotReady("apps", "Deployment", none));
  CHECK(MayBeNotReady("", "Pod", none));
  CHECK(MayBeNotReady("apiregistration.k8s.io", "APIService", none));
  CHECK(MayBeNotReady("cert-manager.io", "ClusterIssuer", none));
  CHECK(MayBeNotReady("cluster.x-k8s.io", "Cluster", none));
  CHECK(MayBeNotReady("gateway.networking.k8s.io", "Gateway", none));  // a CRD, though its group ends in .k8s.io
  CHECK(MayBeNotReady("snapshot.storage.k8s.io", "VolumeSnapshot", none));
  CHECK(MayBeNotReady("policy", "PodDisruptionBudget", none));
  CHECK(MayBeNotReady("", "Service", nlohmann::json::parse(R"({"spec":{"type":"LoadBalancer"}})")));
  CHECK_FALSE(MayBeNotReady("", "Service", nlohmann::json::parse(R"({"spec":{"type":"ClusterIP"}})")));
  CHECK_FALSE(MayBeNotReady("", "Service", none));
  CHECK_FALSE(MayBeNotReady("", "ConfigMap", none));
  CHECK_FALSE(MayBeNotReady("", "Namespace", none));
  CHECK_FALSE(MayBeNotReady("rbac.authorization.k8s.io", "ClusterRole", none));
  CHECK_FALSE(MayBeNotReady("networking.k8s.io", "Ingress", none));
}

TEST_CASE("readiness: objects that run once") {
  CHECK(RunsToCompletion("batch", "Job", nlohmann::json::object()));
  CHECK(RunsToCompletion("", "Pod", nlohmann::json::parse(R"({"spec":{"restartPolicy":"Never"}})")));
  CHECK(RunsToCompletion("", "Pod", nlohmann::json::parse(R"({"spec":{"restartPolicy":"OnFailure"}})")));
  CHECK_FALSE(RunsToCompletion("", "Pod", nlohmann::json::parse(R"({"spec":{}})")));  // Always
  CHECK_FALSE(RunsToCompletion("batch", "CronJob", nlohmann::json::object()));
  CHECK_FALSE(RunsToCompletion("apps", "Deployment", nlohmann::json::object()));
}

}  // namespace
}  // namespace tazuna::state
