#include <doctest/doctest.h>

#include <sstream>

#include "../../kube/fakes.hpp"
#include "state/plan/history.hpp"

namespace tazuna::state {
namespace {

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

TEST_CASE("history: Trim keeps the newest records of its origin by the server's clock, never the sync's own") {
  // ULIDs carry the writers' clocks: 01jz... came from a clock far ahead, the trimming sync's own record
  // 01jc... from one behind. The server's creationTimestamps say which records are the newest.
  const std::string own = "01jc00000000000000000000zz";
  struct Case {
    const char* name;
    std::string own_created;
    int limit;
    std::vector<std::string> deleted;  // in order: newest first by the server, then by id
  };
  const std::vector<Case> cases = {
      {"the own record is the newest and counts towards the limit", "2026-01-01T10:00:06Z", 2,
       {"01jd00000000000000000000a1", "01jd00000000000000000000a0", "01jz00000000000000000000ff"}},
      {"limit 1 keeps the own record alone, though others are newer", "2026-01-01T10:00:01Z", 1,
       {"01jd00000000000000000000b2", "01jd00000000000000000000a1", "01jd00000000000000000000a0",
        "01jz00000000000000000000ff"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Fixture f;
    f.transport.Add("GET /api", 200, kCore, {{"Content-Type", kAggCT}});
    f.transport.Add("GET /apis", 200, kNoGroups, {{"Content-Type", kAggCT}});
    nlohmann::json list = {{"kind", "List"}, {"metadata", nlohmann::json::object()}, {"items", nlohmann::json::array()}};
    for (const auto& [id, created] : std::vector<std::pair<std::string, std::string>>{
             {"01jz00000000000000000000ff", "2026-01-01T10:00:03Z"},
             {"01jd00000000000000000000b2", "2026-01-01T10:00:05Z"},
             {"01jd00000000000000000000a1", "2026-01-01T10:00:04Z"},
             {own, c.own_created},
             {"01jd00000000000000000000a0", "2026-01-01T10:00:04Z"}}) {
      list["items"].push_back({{"metadata",
                                {{"name", kRevisionPrefix + id},
                                 {"creationTimestamp", created},
                                 {"annotations", {{"tazuna.pepabo.com/origin", "github.com/org/a:tazuna.yaml"}}}}}});
    }
    // Older than all of them: another repository's record, and one of an older version (no origin). Neither
    // counts towards this repository's limit, and neither is deleted.
    list["items"].push_back({{"metadata",
                              {{"name", kRevisionPrefix + std::string("01ja000000000000000000000b")},
                               {"creationTimestamp", "2026-01-01T09:00:00Z"},
                               {"annotations", {{"tazuna.pepabo.com/origin", "github.com/org/b:tazuna.yaml"}}}}}});
    list["items"].push_back({{"metadata",
                              {{"name", kRevisionPrefix + std::string("01ja000000000000000000000c")},
                               {"creationTimestamp", "2026-01-01T09:00:00Z"}}}});
    f.transport.Add("GET /api/v1/namespaces/tazuna/configmaps", 200, list.dump());
    for (const auto& id : c.deleted) {
      f.transport.Add("DELETE /api/v1/namespaces/tazuna/configmaps/" + (kRevisionPrefix + id), 200, "{}");
    }
    kube::Client client(f.Config(), f.transport, f.procs, f.log, f.clock, f.env);
    CHECK(*HistoryStore(client).Trim(c.limit, "01JC00000000000000000000ZZ", "") == 0);  // no origin: trims nothing
    auto deleted = HistoryStore(client).Trim(c.limit, "01JC00000000000000000000ZZ", "github.com/org/a:tazuna.yaml");
    REQUIRE(deleted);
    CHECK(*deleted == static_cast<int>(c.deleted.size()));
    std::vector<std::string> deletes;
    for (const auto& r : f.transport.requests) {
      if (r.method == "DELETE") deletes.push_back(r.url.substr(r.url.rfind('/') + 1 + std::string(kRevisionPrefix).size()));
    }
    CHECK(deletes == c.deleted);
  }
}

}  // namespace
}  // namespace tazuna::state
