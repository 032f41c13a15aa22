#include <doctest/doctest.h>

#include <sstream>

#include "../kube/fakes.hpp"
#include "state/history.hpp"

namespace tazuna::state {
namespace {

using kube::testing::FakeClock;
using kube::testing::FakeProcesses;
using kube::testing::FakeTransport;

constexpr const char* kAggCT = kube::testing::kAggregatedDiscovery;
constexpr const char* kCore = kube::testing::kCoreDiscovery;
constexpr char kAuthentication[] =
    R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"authentication.k8s.io"},"versions":[)"
    R"({"version":"v1","resources":[{"resource":"selfsubjectreviews","responseKind":{"kind":"SelfSubjectReview"},)"
    R"("scope":"Cluster"}]}]}]})";
constexpr char kNoGroups[] = R"({"kind":"APIGroupDiscoveryList","items":[]})";

// A client over `transport` whose kubeconfig user is "ci-user".
struct Fixture : kube::testing::FakeClientIo {
  kube::RestConfig Config() {
    kube::RestConfig config;
    config.server = "https://k.example:6443";
    config.token = "t";
    config.user_name = "ci-user";
    return config;
  }
};

TEST_CASE("history: WhoAmI asks the apiserver, and falls back to the kubeconfig user") {
  struct Case {
    std::string name;
    const char* groups;
    int status;
    std::string body;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"answered", kAuthentication, 201,
       R"({"kind":"SelfSubjectReview","status":{"userInfo":{"username":"system:serviceaccount:ci:deployer"}}})",
       "system:serviceaccount:ci:deployer"},
      {"forbidden", kAuthentication, 403, R"({"kind":"Status","reason":"Forbidden","code":403})", "ci-user"},
      {"no user in the answer", kAuthentication, 201, R"({"kind":"SelfSubjectReview","status":{}})", "ci-user"},
      {"API not served", kNoGroups, 404, "", "ci-user"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Fixture f;
    f.transport.Add("GET /api", 200, kCore, {{"Content-Type", kAggCT}});
    f.transport.Add("GET /apis", 200, c.groups, {{"Content-Type", kAggCT}});
    f.transport.Add("POST /apis/authentication.k8s.io/v1/selfsubjectreviews", c.status, c.body);
    kube::Client client(f.Config(), f.transport, f.procs, f.log, f.clock, f.env);
    CHECK(WhoAmI(client) == c.want);
  }
}

TEST_CASE("history: Trim keeps the newest records by ULID and deletes the rest") {
  Fixture f;
  f.transport.Add("GET /api", 200, kCore, {{"Content-Type", kAggCT}});
  f.transport.Add("GET /apis", 200, kNoGroups, {{"Content-Type", kAggCT}});
  nlohmann::json list = {{"kind", "List"}, {"metadata", nlohmann::json::object()}, {"items", nlohmann::json::array()}};
  for (const char* id : {"01jd00000000000000000000b2", "01jd00000000000000000000a1", "01jd00000000000000000000c3",
                         "01jc00000000000000000000zz"}) {
    list["items"].push_back({{"metadata", {{"name", std::string(kRevisionPrefix) + id}}}});
  }
  f.transport.Add("GET /api/v1/namespaces/tazuna/configmaps", 200, list.dump());
  for (const char* id : {"01jd00000000000000000000a1", "01jc00000000000000000000zz"}) {
    f.transport.Add(std::string("DELETE /api/v1/namespaces/tazuna/configmaps/") + kRevisionPrefix + id, 200, "{}");
  }
  kube::Client client(f.Config(), f.transport, f.procs, f.log, f.clock, f.env);
  HistoryStore store(client);
  auto deleted = store.Trim(2);
  REQUIRE(deleted);
  CHECK(*deleted == 2);
  std::vector<std::string> deletes;
  for (const auto& r : f.transport.requests) {
    if (r.method == "DELETE") deletes.push_back(r.url.substr(r.url.rfind('/') + 1));
  }
  CHECK(deletes == std::vector<std::string>{"tazuna-revision-01jd00000000000000000000a1",
                                            "tazuna-revision-01jc00000000000000000000zz"});
}

}  // namespace
}  // namespace tazuna::state
