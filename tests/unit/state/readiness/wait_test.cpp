#include "state/readiness/wait.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "../../kube/fakes.hpp"

namespace tazuna::state {
namespace {

using kube::testing::FakeClock;
using kube::testing::FakeProcesses;
using kube::testing::FakeTransport;

constexpr char kCore[] = R"({"kind":"APIGroupDiscoveryList","items":[]})";
constexpr char kGroups[] =
    R"({"kind":"APIGroupDiscoveryList","items":[)"
    R"({"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"deployments","responseKind":{"kind":"Deployment"},"scope":"Namespaced"}]}]},)"
    R"({"metadata":{"name":"batch"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"jobs","responseKind":{"kind":"Job"},"scope":"Namespaced"}]}]},)"
    R"({"metadata":{"name":"apiextensions.k8s.io"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"customresourcedefinitions","responseKind":{"kind":"CustomResourceDefinition"},"scope":"Cluster"}]}]},)"
    R"({"metadata":{"name":"example.com"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"gadgets","responseKind":{"kind":"Gadget"},"scope":"Namespaced"}]}]}]})";

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
  CHECK(seen == std::vector<std::string>{"d0:new:3", "d1:new:3", "d2:new:3", "d0:0/1 available:2", "d1::2",
                                         "d2:0/1 available:2", "d0::0", "d2::0"});
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
  CHECK(items[0].last == Readiness{ReadyState::kInProgress, "0/1 available", ""});
  // 100 + 200 + 400 + 800 + 1000 + 1000 ms: the poll after the deadline is the last.
  CHECK(h.Requests("GET /apis/apps/v1/namespaces/a/deployments/d0") == 6);
  CHECK(h.Requests("GET /apis/apps/v1/namespaces/a/deployments") == 0);
}

TEST_CASE("wait: a failure ends the wait at once; so does a missing object, for the caller to act") {
  Harness h;
  const auto deadline = h.clock.Steady() + std::chrono::seconds(300);
  h.transport.Add("GET /apis/batch/v1/namespaces/a/jobs/j", 200,
                  R"({"apiVersion":"batch/v1","kind":"Job","metadata":{"name":"j"},"status":{"conditions":[)"
                  R"({"type":"Failed","status":"True","reason":"BackoffLimitExceeded","message":"Job has reached the specified backoff limit"}]}})");
  std::vector<WaitItem> items = {Item("batch", "Job", "j", deadline), Item("apps", "Deployment", "gone", deadline)};
  ReadinessWaiter waiter(*h.client, h.clock, h.log);
  waiter.Wait(items, nullptr);
  CHECK(items[0].last ==
        Readiness{ReadyState::kFailed, "Failed=True BackoffLimitExceeded: Job has reached the specified backoff limit", ""});
  CHECK(items[1].last == Readiness{ReadyState::kNotFound, "not found", ""});
  CHECK_FALSE(items[1].timed_out);
  CHECK(h.clock.sleeps.size() == 1);

  Harness h2;  // alone, a missing object ends the wait at its first poll, long before its deadline
  std::vector<WaitItem> gone = {Item("apps", "Deployment", "gone", deadline)};
  ReadinessWaiter(*h2.client, h2.clock, h2.log).Wait(gone, nullptr);
  CHECK(gone[0].last.state == ReadyState::kNotFound);
  CHECK(h2.clock.sleeps.size() == 1);
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

// A Gadget created at the fake clock's start; `status` as a controller left it ("" for none).
std::string Gadget(const std::string& name, const std::string& status) {
  std::string managed = R"([{"manager":"tazuna","operation":"Apply","time":"2026-01-01T00:00:00Z"})";
  if (!status.empty()) managed += R"(,{"manager":"gadget-controller","operation":"Update","subresource":"status","time":"2026-01-01T00:00:01Z"})";
  return R"({"apiVersion":"example.com/v1","kind":"Gadget","metadata":{"name":")" + name +
         R"(","namespace":"a","generation":1,"creationTimestamp":"2026-01-01T00:00:00Z","managedFields":)" + managed + "]}" +
         (status.empty() ? "" : R"(,"status":)" + status) + "}";
}

TEST_CASE("wait: a custom resource waits for a controller's status (its CRD read once); none within the grace period: ready, warned") {
  Harness h;
  const auto deadline = h.clock.Steady() + std::chrono::seconds(60);
  h.transport.Add("GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com", 200,
                  R"({"kind":"CustomResourceDefinition","spec":{"group":"example.com","versions":[)"
                  R"({"name":"v1beta1","served":true},{"name":"v1","served":true,"subresources":{"status":{}}}]}})");
  const std::string ready = R"({"conditions":[{"type":"Ready","status":"True","observedGeneration":1}]})";
  h.transport.Add("GET /apis/example.com/v1/namespaces/a/gadgets", 200, ListOf({Gadget("g1", ""), Gadget("g2", "")}));
  h.transport.Add("GET /apis/example.com/v1/namespaces/a/gadgets", 200, ListOf({Gadget("g1", ready), Gadget("g2", "")}));
  h.transport.Add("GET /apis/example.com/v1/namespaces/a/gadgets/g2", 200, Gadget("g2", ""));  // alone: a GET
  std::vector<WaitItem> items = {Item("example.com", "Gadget", "g1", deadline), Item("example.com", "Gadget", "g2", deadline)};
  for (auto& item : items) item.grace = std::chrono::seconds(5);
  std::vector<std::string> seen;
  ReadinessWaiter waiter(*h.client, h.clock, h.log);
  waiter.Wait(items, [&](const WaitUpdate& u) { seen.push_back(u.item->key.name + ":" + u.item->last.message + ":" + u.item->last.warning); });
  CHECK(items[0].last == Readiness{});
  CHECK(items[1].last == Readiness{ReadyState::kReady, "", "no controller wrote its status within 5s; counted as ready"});
  CHECK(seen == std::vector<std::string>{"g1:new:", "g2:new:", "g1:waiting for a controller to write its status:",
                                         "g2:waiting for a controller to write its status:", "g1::",
                                         "g2::no controller wrote its status within 5s; counted as ready"});
  CHECK(h.Requests("GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com") == 1);
  CHECK(h.clock.Steady() - items[1].since >= std::chrono::seconds(5));
  CHECK(h.clock.Steady() - items[1].since < std::chrono::seconds(7));
}

TEST_CASE("wait: a CRD that cannot be read (forbidden) concludes nothing ready: readiness unknown until the timeout") {
  Harness h;
  h.transport.Add("GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.example.com", 403,
                  R"({"kind":"Status","status":"Failure","reason":"Forbidden","code":403,"message":"forbidden"})");
  h.transport.Add("GET /apis/example.com/v1/namespaces/a/gadgets/g1", 200, Gadget("g1", ""));
  std::vector<WaitItem> items = {Item("example.com", "Gadget", "g1", h.clock.Steady() + std::chrono::seconds(60))};
  ReadinessWaiter(*h.client, h.clock, h.log).Wait(items, nullptr);
  CHECK(items[0].last.state == ReadyState::kInProgress);
  CHECK(items[0].timed_out);
  CHECK(items[0].last.message ==
        "readiness unknown: cannot read CustomResourceDefinition gadgets.example.com: forbidden");
  CHECK(items[0].read_error == "cannot read CustomResourceDefinition gadgets.example.com: forbidden");
}

TEST_CASE("read: every object judged once, now, one request per kind and namespace, no sleep") {
  Harness h;
  const auto deadline = h.clock.Steady() + std::chrono::seconds(300);
  h.transport.Add("GET /apis/apps/v1/namespaces/a/deployments", 200, ListOf({Deployment("d0", 1), Deployment("d1", 0)}));
  h.transport.Add("GET /apis/batch/v1/namespaces/a/jobs/j", 403, R"({"kind":"Status","code":403,"reason":"Forbidden"})");
  std::vector<WaitItem> items = {Item("apps", "Deployment", "d0", deadline), Item("apps", "Deployment", "d1", deadline),
                                 Item("apps", "Deployment", "d2", deadline), Item("batch", "Job", "j", deadline)};
  ReadinessWaiter waiter(*h.client, h.clock, h.log);
  waiter.Read({&items[0], &items[1], &items[2], &items[3]});
  CHECK(items[0].last.state == ReadyState::kReady);
  CHECK(items[1].last == Readiness{ReadyState::kInProgress, "0/1 available", ""});
  CHECK(items[2].last == Readiness{ReadyState::kNotFound, "not found", ""});
  CHECK(items[3].last == Readiness{ReadyState::kInProgress, "new", ""});  // could not be read: as it was
  CHECK(h.Requests("GET /apis/apps/v1/namespaces/a/deployments") == 1);
  CHECK(h.clock.sleeps.empty());
}

}  // namespace tazuna::state
