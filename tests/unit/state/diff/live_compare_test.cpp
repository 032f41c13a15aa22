#include "state/diff/live_compare.hpp"

#include <doctest/doctest.h>

#include <algorithm>

#include <vector>

#include "../../kube/fakes.hpp"

namespace tazuna::state {
namespace {

TEST_CASE("live compare: server-written fields are not content") {
  struct Case {
    std::string name;
    std::string live;
    std::string merged;
    bool want_same = false;
  };
  const std::vector<Case> cases = {
      {"identical", R"({"kind":"ConfigMap","data":{"a":"1"}})", R"({"kind":"ConfigMap","data":{"a":"1"}})", true},
      {"status and write metadata differ",
       R"({"metadata":{"name":"x","resourceVersion":"1","generation":1,"uid":"u","creationTimestamp":"t",)"
       R"("managedFields":[1]},"status":{"a":1}})",
       R"({"metadata":{"name":"x","resourceVersion":"2","generation":2,"managedFields":[2]},"status":{"a":2}})", true},
      {"data differs", R"({"data":{"a":"1"}})", R"({"data":{"a":"2"}})", false},
      {"labels differ", R"({"metadata":{"labels":{"a":"1"}}})", R"({"metadata":{"labels":{"a":"2"}}})", false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(SameContent(nlohmann::json::parse(c.live), nlohmann::json::parse(c.merged)) == c.want_same);
  }
}

// Discovery serves only the CRDs themselves: no version of any custom resource is served.
constexpr char kOnlyCrds[] =
    R"({"kind":"APIGroupDiscoveryList","items":[)"
    R"({"metadata":{"name":"apiextensions.k8s.io"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"customresourcedefinitions","responseKind":{"kind":"CustomResourceDefinition"},"scope":"Cluster"}]}]}]})";

int Sent(const kube::testing::FakeClient& c, const std::string& path) {
  return static_cast<int>(std::count_if(c.transport.requests.begin(), c.transport.requests.end(),
                                        [&](const auto& r) { return r.url.find(path) != std::string::npos; }));
}

TEST_CASE("live compare: a kind nothing serves is gone only when no CRD still stores it") {
  kube::testing::FakeClient c(kube::testing::kCoreDiscovery, kOnlyCrds);
  c.transport.Add("GET /apis/apiextensions.k8s.io/v1/customresourcedefinitions", 200,
                  R"({"kind":"List","metadata":{},"items":[{"metadata":{"name":"gadgets.a.example"},)"
                  R"("spec":{"group":"a.example","names":{"kind":"Gadget","plural":"gadgets"}}}]})");
  const StateKey stored{"m", "a.example", "v1", "Gadget", "ns", "x"};
  const StateKey gone{"m", "b.example", "v1", "Gadget", "ns", "x"};
  CrdIndex crds;
  auto read = ReadLive(*c.client, stored, "ns", &crds);
  REQUIRE_FALSE(read);  // every version `served: false`: the object may still be stored
  CHECK(read.error().kind == util::ErrorKind::kConflict);
  CHECK(read.error().message ==
        "no version of Gadget.a.example is served, but CustomResourceDefinition gadgets.a.example still stores its "
        "objects: serve a version of it to reach this one");
  auto other = ReadLive(*c.client, gone, "ns", &crds);
  REQUIRE(other);  // no CRD defines it: no object can be stored
  CHECK_FALSE(other->object);
  CHECK(Sent(c, "/customresourcedefinitions") == 1);  // listed once for both rows
  CHECK(DefiningCrd(*c.client, "a.example", "Gadget").value_or("?") == "gadgets.a.example");
  CHECK(DefiningCrd(*c.client, "a.example", "Widget").value_or("?") == "");
}

}  // namespace
}  // namespace tazuna::state
