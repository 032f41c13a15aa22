#include "state/wait.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "../kube/fakes.hpp"

namespace tazuna::state {
namespace {

using kube::testing::FakeClock;
using kube::testing::FakeProcesses;
using kube::testing::FakeTransport;

constexpr char kAggCT[] = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
constexpr char kCore[] = R"({"kind":"APIGroupDiscoveryList","items":[]})";
constexpr char kGroups[] =
    R"({"kind":"APIGroupDiscoveryList","items":[)"
    R"({"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"deployments","responseKind":{"kind":"Deployment"},"scope":"Namespaced"}]}]},)"
    R"({"metadata":{"name":"batch"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"jobs","responseKind":{"kind":"Job"},"scope":"Namespaced"}]}]}]})";

std::string Deployment(const std::string& name, int available) {
  return nlohmann::json({{"apiVersion", "apps/v1"},
                         {"kind", "Deployment"},
                         {"metadata", {{"name", name}, {"namespace", "a"}, {"generation", 1}}},
                         {"spec", {{"replicas", 1}}},
                         {"status",
                          {{"observedGeneration", 1}, {"replicas", 1}, {"updatedReplicas", 1},
                           {"readyReplicas", available}, {"availableReplicas", available}}}})
      .dump();
}

std::string ListOf(const std::vector<std::string>& items) {
  std::string out = R"({"kind":"List","metadata":{},"items":[)";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i];
  return out + "]}";
}

WaitItem Item(const std::string& group, const std::string& kind, const std::string& name,
              std::chrono::steady_clock::time_point deadline) {
  WaitItem item;
  item.manifest = "m";
  item.key = StateKey{"m", group, "v1", kind, "a", name};
  item.last = {ReadyState::kInProgress, "new"};
  item.deadline = deadline;
  return item;
}

struct Harness : kube::testing::FakeClient {
  Harness() : FakeClient(kCore, kGroups) {}
  size_t Requests(const std::string& method_path) {
    size_t n = 0;
    for (const auto& r : transport.requests) {
      std::string path = r.url.substr(r.url.find('/', r.url.find("//") + 2));
      n += r.method + " " + path.substr(0, path.find('?')) == method_path ? 1 : 0;
    }
    return n;
  }
};

}  // namespace

TEST_CASE("wait: many objects of one kind and namespace cost one LIST per poll, none per object") {
  Harness h;
  const auto deadline = h.clock.Steady() + std::chrono::seconds(60);
  h.transport.Add("GET /apis/apps/v1/namespaces/a/deployments", 200,
                  ListOf({Deployment("d0", 0), Deployment("d1", 1), Deployment("d2", 0)}));
  h.transport.Add("GET /apis/apps/v1/namespaces/a/deployments", 200,
                  ListOf({Deployment("d0", 1), Deployment("d1", 1), Deployment("d2", 1)}));
  std::vector<WaitItem> items = {Item("apps", "Deployment", "d0", deadline), Item("apps", "Deployment", "d1", deadline),
                                 Item("apps", "Deployment", "d2", deadline)};
  std::vector<std::string> seen;
  ReadinessWaiter waiter(*h.client, h.clock, h.log);
  waiter.Wait(items, [&](const WaitUpdate& u) { seen.push_back(u.item->key.name + ":" + u.item->last.message + ":" + std::to_string(u.waiting)); });
  for (const auto& item : items) CHECK(item.last.state == ReadyState::kReady);
  CHECK(h.Requests("GET /apis/apps/v1/namespaces/a/deployments") == 2);
  CHECK(h.Requests("GET /apis/apps/v1/namespaces/a/deployments/d0") == 0);
  CHECK(seen == std::vector<std::string>{"d0:0/1 available:2", "d1::2", "d2:0/1 available:2", "d0::0", "d2::0"});
  CHECK(h.clock.sleeps == std::vector<std::chrono::milliseconds>{std::chrono::milliseconds(100), std::chrono::milliseconds(200)});
}

TEST_CASE("wait: one object is read with a GET; past its deadline it is timed out with its last judgement") {
  Harness h;
  const auto deadline = h.clock.Steady() + std::chrono::seconds(3);
  h.transport.Add("GET /apis/apps/v1/namespaces/a/deployments/d0", 200, Deployment("d0", 0));
  std::vector<WaitItem> items = {Item("apps", "Deployment", "d0", deadline)};
  ReadinessWaiter waiter(*h.client, h.clock, h.log);
  waiter.Wait(items, nullptr);
  CHECK(items[0].timed_out);
  CHECK(items[0].last == Readiness{ReadyState::kInProgress, "0/1 available"});
  // 100 + 200 + 400 + 800 + 1000 + 1000 ms: the poll after the deadline is the last.
  CHECK(h.Requests("GET /apis/apps/v1/namespaces/a/deployments/d0") == 6);
  CHECK(h.Requests("GET /apis/apps/v1/namespaces/a/deployments") == 0);
}

TEST_CASE("wait: a failure ends the wait at once; a missing object keeps waiting as not found") {
  Harness h;
  const auto deadline = h.clock.Steady() + std::chrono::seconds(300);
  h.transport.Add("GET /apis/batch/v1/namespaces/a/jobs/j", 200,
                  R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"status":{"conditions":[)"
                  R"({"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"}]}})");
  std::vector<WaitItem> items = {Item("batch", "Job", "j", deadline), Item("apps", "Deployment", "gone", deadline)};
  ReadinessWaiter waiter(*h.client, h.clock, h.log);
  waiter.Wait(items, nullptr);
  CHECK(items[0].last ==
        Readiness{ReadyState::kFailed, "Failed=True BackoffLimitExceeded: Job has reached the specified backoff limit"});
  CHECK(items[1].last == Readiness{ReadyState::kInProgress, "not found"});
  CHECK_FALSE(items[1].timed_out);
  CHECK(h.clock.sleeps.size() == 1);
}

TEST_CASE("wait: an unread object found ready is not reported") {
  Harness h;
  const auto deadline = h.clock.Steady() + std::chrono::seconds(60);
  h.transport.Add("GET /apis/apps/v1/namespaces/a/deployments/d0", 200, Deployment("d0", 1));
  std::vector<WaitItem> items = {Item("apps", "Deployment", "d0", deadline)};
  items[0].last.message = kNotReadYet;
  int reports = 0;
  ReadinessWaiter waiter(*h.client, h.clock, h.log);
  waiter.Wait(items, [&](const WaitUpdate&) { ++reports; });
  CHECK(items[0].last.state == ReadyState::kReady);
  CHECK(reports == 0);
}

TEST_CASE("readiness: kinds that can be not ready after they exist") {
  CHECK(MayBeNotReady("apps", "Deployment"));
  CHECK(MayBeNotReady("", "Pod"));
  CHECK(MayBeNotReady("apiregistration.k8s.io", "APIService"));
  CHECK(MayBeNotReady("cert-manager.io", "ClusterIssuer"));
  CHECK(MayBeNotReady("cluster.x-k8s.io", "Cluster"));
  CHECK_FALSE(MayBeNotReady("", "ConfigMap"));
  CHECK_FALSE(MayBeNotReady("", "Namespace"));
  CHECK_FALSE(MayBeNotReady("rbac.authorization.k8s.io", "ClusterRole"));
  CHECK_FALSE(MayBeNotReady("policy", "PodDisruptionBudget"));
}

}  // namespace tazuna::state
