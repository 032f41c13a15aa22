#include "kube/client.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "fakes.hpp"
#include "kube/url.hpp"

namespace tazuna::kube {
namespace {

using testing::FakeClock;
using testing::FakeProcesses;
using testing::FakeTransport;

using testing::kAggregatedDiscovery;
constexpr const char* kCore = testing::kCoreDiscovery;
constexpr char kApis[] =
    R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"apps"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"deployments","responseKind":{"kind":"Deployment"},"scope":"Namespaced"}]}]}]})";

struct Fixture : testing::FakeClientIo {
  RestConfig config;
  Fixture() {
    config.server = "https://k.example:6443/prefix/";
    config.namespace_name = "team-a";
    config.token = "tok";
    transport.Add("GET /prefix/api", 200, kCore, {{"Content-Type", kAggregatedDiscovery}});
    transport.Add("GET /prefix/apis", 200, kApis, {{"Content-Type", kAggregatedDiscovery}});
  }
  std::string Header(const HttpRequest& r, const std::string& name) {
    std::string out;
    for (const auto& [k, v] : r.headers) {
      if (k == name) out += (out.empty() ? "" : ",") + v;
    }
    return out;
  }
};

TEST_CASE("client: server-side apply request shape") {
  Fixture f;
  f.config.timeout = std::chrono::seconds(7);
  f.config.as = "jane";
  f.config.as_groups = {"g1", "g2"};
  f.transport.Add("PATCH /prefix/api/v1/namespaces/team-a/configmaps/cm", 200, R"({"kind":"ConfigMap"})");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  c.set_version("0.4.1-dev", "0123456789ab");
  nlohmann::json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                       {"metadata", {{"name", "cm"}, {"managedFields", nlohmann::json::array()}}}};
  REQUIRE(c.Apply(cm, ApplyOptions{"tazuna", true, DryRun::kAll}));
  const HttpRequest& r = f.transport.requests.back();
  CHECK(r.url ==
        "https://k.example:6443/prefix/api/v1/namespaces/team-a/configmaps/cm?dryRun=All&fieldManager=tazuna&"
        "force=true&timeout=7s");
  CHECK(r.body == R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","namespace":"team-a"}})");
  CHECK(f.Header(r, "Content-Type") == "application/apply-patch+yaml");
  CHECK(f.Header(r, "Authorization") == "Bearer tok");
  CHECK(f.Header(r, "Impersonate-User") == "jane");
  CHECK(f.Header(r, "Impersonate-Group") == "g1,g2");
  CHECK(f.Header(r, "User-Agent") == "kubectl-tazuna/v0.4.1 (linux/amd64) kubernetes/0123456");
  CHECK(f.Header(f.transport.requests.at(0), "Accept") ==
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery."
        "k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json");
  CHECK(c.requests_sent() == 3);
}

TEST_CASE("client: User-Agent is shaped as kubectl's") {
  struct Case {
    std::string version, commit, want;
  };
  const std::vector<Case> cases = {
      {"0.1.0", "0123456789ab", "kubectl-tazuna/v0.1.0 (linux/amd64) kubernetes/0123456"},
      {"v1.2.3-rc.1", "abc", "kubectl-tazuna/v1.2.3 (linux/amd64) kubernetes/abc"},
      {"0.0.0-dev", "unknown", "kubectl-tazuna/v0.0.0 (linux/amd64) kubernetes/unknown"},
      {"0.1.0", "", "kubectl-tazuna/v0.1.0 (linux/amd64) kubernetes/unknown"},
      {"", "0123456", "kubectl-tazuna/unknown (linux/amd64) kubernetes/0123456"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.version);
    CHECK(UserAgent(c.version, c.commit) == c.want);
  }
}

TEST_CASE("client: discovery maps scope and unknown kinds") {
  Fixture f;
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  CHECK(*c.Resolve("v1", "Namespace") == ResourceInfo{"", "v1", "namespaces", "Namespace", false});
  CHECK(*c.Resolve("apps/v1", "Deployment") == ResourceInfo{"apps", "v1", "deployments", "Deployment", true});
  auto missing = c.Resolve("example.com/v1", "Widget");
  REQUIRE(!missing);
  CHECK(missing.error().kind == util::ErrorKind::kNotFound);
  CHECK(missing.error().message == "no matches for kind \"Widget\" in version \"example.com/v1\"");
}

TEST_CASE("client: legacy discovery fallback") {
  Fixture f;
  f.transport.routes.clear();
  f.transport.Add("GET /prefix/api", 200, R"({"kind":"APIVersions","versions":["v1"]})");
  f.transport.Add("GET /prefix/apis", 200,
                  R"({"kind":"APIGroupList","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1"}]}]})");
  f.transport.Add("GET /prefix/api/v1", 200,
                  R"({"groupVersion":"v1","resources":[{"name":"pods","kind":"Pod","namespaced":true},)"
                  R"({"name":"pods/log","kind":"Pod","namespaced":true}]})");
  f.transport.Add("GET /prefix/apis/apps/v1", 200,
                  R"({"groupVersion":"apps/v1","resources":[{"name":"deployments","kind":"Deployment","namespaced":true}]})");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  CHECK(*c.Resolve("v1", "Pod") == ResourceInfo{"", "v1", "pods", "Pod", true});
  CHECK(c.Resolve("apps/v1", "Deployment")->resource == "deployments");
}

TEST_CASE("client: a legacy group answer that is not a resource list is an error, never a group serving nothing") {
  for (const std::string& body : {std::string(R"({"groupVersion":"apps/v1"})"), std::string("<html>proxy</html>"),
                                 std::string(R"({"resources":{}})")}) {
    CAPTURE(body);
    Fixture f;
    f.transport.routes.clear();
    f.transport.Add("GET /prefix/api", 200, R"({"kind":"APIVersions","versions":["v1"]})");
    f.transport.Add("GET /prefix/apis", 200,
                    R"({"kind":"APIGroupList","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1"}]}]})");
    f.transport.Add("GET /prefix/api/v1", 200, R"({"groupVersion":"v1","resources":[]})");
    f.transport.Add("GET /prefix/apis/apps/v1", 200, body);
    Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    auto got = c.Resolve("apps/v1", "Deployment");
    REQUIRE_FALSE(got);
    CHECK(got.error().kind == util::ErrorKind::kApi);
  }
  Fixture f;  // Go's nil slice: a group-version that serves nothing
  f.transport.routes.clear();
  f.transport.Add("GET /prefix/api", 200, R"({"kind":"APIVersions","versions":["v1"]})");
  f.transport.Add("GET /prefix/apis", 200,
                  R"({"kind":"APIGroupList","groups":[{"name":"apps","versions":[{"groupVersion":"apps/v1"}]}]})");
  f.transport.Add("GET /prefix/api/v1", 200, R"({"groupVersion":"v1","resources":[{"name":"pods","kind":"Pod","namespaced":true}]})");
  f.transport.Add("GET /prefix/apis/apps/v1", 200, R"({"kind":"APIResourceList","groupVersion":"apps/v1","resources":null})");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  CHECK(c.Resolve("v1", "Pod"));
}

TEST_CASE("client: 401 re-runs exec and retries once, then Unauthorized") {
  Fixture f;
  f.config.token.clear();
  ExecConfig exec;
  exec.api_version = "client.authentication.k8s.io/v1";
  exec.command = "plug";
  exec.interactive_mode = "Never";
  f.config.exec = exec;
  util::ProcessResult p1, p2;
  p1.out = R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-1"}})";
  p2.out = R"({"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"tok-2"}})";
  f.procs.results = {p1, p2};
  const char* unauthorized = R"({"kind":"Status","reason":"Unauthorized","message":"Unauthorized","code":401})";
  f.transport.Add("GET /prefix/version", 401, unauthorized);
  f.transport.Add("GET /prefix/version", 200, R"({"gitVersion":"v1.33.0"})");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  auto v = c.GetPath("/version");
  REQUIRE(v);
  CHECK((*v)["gitVersion"] == "v1.33.0");
  CHECK(f.Header(f.transport.requests.at(0), "Authorization") == "Bearer tok-1");
  CHECK(f.Header(f.transport.requests.at(1), "Authorization") == "Bearer tok-2");

  f.transport.routes["GET /prefix/version"].clear();
  f.transport.Add("GET /prefix/version", 401, unauthorized);
  auto denied = c.GetPath("/version");
  REQUIRE(!denied);
  CHECK(denied.error().kind == util::ErrorKind::kUnauthorized);
  CHECK(denied.error().message == "Unauthorized");
}

TEST_CASE("client: 429 honours Retry-After, 5xx GET retried, warnings printed once") {
  Fixture f;
  f.transport.Add("GET /prefix/version", 429, "", {{"Retry-After", "3"}});
  f.transport.Add("GET /prefix/version", 503, "");
  f.transport.Add("GET /prefix/version", 200, "{}",
                  {{"Warning", R"(299 - "thing is deprecated")"}, {"Warning", R"(299 - "thing is deprecated")"}});
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  REQUIRE(c.GetPath("/version"));
  REQUIRE(c.GetPath("/version"));
  CHECK(f.clock.sleeps == std::vector<std::chrono::milliseconds>{std::chrono::seconds(3), std::chrono::milliseconds(400)});
  CHECK(f.err.str() == "Warning: thing is deprecated\n");
}

TEST_CASE("client: List pages with continue and restarts on 410") {
  Fixture f;
  f.transport.Add("GET /prefix/api/v1/configmaps", 200,
                  R"({"metadata":{"continue":"c1"},"items":[{"metadata":{"name":"a"}}]})");
  f.transport.Add("GET /prefix/api/v1/configmaps", 410,
                  R"({"kind":"Status","reason":"Expired","message":"too old","code":410})");
  f.transport.Add("GET /prefix/api/v1/configmaps", 200,
                  R"({"metadata":{"continue":"c2"},"items":[{"metadata":{"name":"a"}}]})");
  f.transport.Add("GET /prefix/api/v1/configmaps", 200, R"({"metadata":{},"items":[{"metadata":{"name":"b"}}]})");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  auto items = c.List("v1", "ConfigMap", "", "app=x");
  REQUIRE(items);
  REQUIRE(items->size() == 2);
  CHECK((*items)[1]["kind"] == "ConfigMap");
  CHECK((*items)[1]["metadata"]["name"] == "b");
  CHECK(f.transport.requests.back().url ==
        "https://k.example:6443/prefix/api/v1/configmaps?limit=500&labelSelector=app%3Dx&continue=c2");
}

TEST_CASE("client: Delete sends propagation and dry run; errors carry the Status") {
  Fixture f;
  f.transport.Add("DELETE /prefix/api/v1/namespaces/x/configmaps/cm", 404,
                  R"({"kind":"Status","reason":"NotFound","message":"configmaps \"cm\" not found","code":404})");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  auto s = c.Delete({"v1", "ConfigMap", "x", "cm"}, Propagation::kForeground, DryRun::kAll);
  REQUIRE(!s);
  CHECK(IsReason(s.error(), "NotFound"));
  // dryRun must be in the body too: the server ignores the query when DeleteOptions come in the body.
  CHECK(f.transport.requests.back().body ==
        R"({"apiVersion":"v1","dryRun":["All"],"kind":"DeleteOptions","propagationPolicy":"Foreground"})");
  CHECK(f.transport.requests.back().url == "https://k.example:6443/prefix/api/v1/namespaces/x/configmaps/cm?dryRun=All");
}

TEST_CASE("client: Delete sends uid and resourceVersion preconditions in DeleteOptions") {
  Fixture f;
  f.transport.Add("DELETE /prefix/api/v1/namespaces/x/configmaps/cm", 200, R"({"kind":"Status","status":"Success"})");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  REQUIRE(c.Delete({"v1", "ConfigMap", "x", "cm"}, Propagation::kBackground, DryRun::kNone, {"u-1", "42"}));
  CHECK(f.transport.requests.back().body ==
        R"({"apiVersion":"v1","kind":"DeleteOptions","preconditions":{"resourceVersion":"42","uid":"u-1"},)"
        R"("propagationPolicy":"Background"})");
}

TEST_CASE("client: no credentials over plain http") {
  Fixture f;
  f.config.server = "http://k.example/prefix";
  f.transport.Add("GET /prefix/version", 200, "{}");
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  REQUIRE(c.GetPath("/version"));
  CHECK(f.Header(f.transport.requests.back(), "Authorization").empty());
}

TEST_CASE("client: a name or namespace that is not one path segment never becomes a request") {
  Fixture f;
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  REQUIRE(c.Resolve("v1", "ConfigMap"));  // discovery first, so that only the refused requests are counted
  const size_t before = f.transport.requests.size();
  struct Case {
    ObjectRef ref;
    std::string want;
  };
  const Case cases[] = {
      {{"v1", "ConfigMap", "x", "a/../../victim"}, "invalid name \"a/../../victim\" for ConfigMap: may not contain '/'"},
      {{"v1", "ConfigMap", "x", ".."}, "invalid name \"..\" for ConfigMap: may not be '.' or '..'"},
      {{"v1", "ConfigMap", "x", "a?dryRun=All"}, "invalid name \"a?dryRun=All\" for ConfigMap: may not contain '?'"},
      {{"v1", "ConfigMap", "../kube-system", "cm"},
       "invalid namespace \"../kube-system\" for ConfigMap: may not contain '/'"},
  };
  for (const auto& c2 : cases) {
    CAPTURE(c2.want);
    auto got = c.Get(c2.ref);
    REQUIRE_FALSE(got);
    CHECK(got.error().kind == util::ErrorKind::kInput);
    CHECK(got.error().message == c2.want);
    CHECK_FALSE(c.Delete(c2.ref, Propagation::kBackground));
  }
  CHECK_FALSE(c.List("v1", "ConfigMap", "a#b"));
  CHECK(f.transport.requests.size() == before);
}

TEST_CASE("client: Served lists each resource once, preferred version first, with its verbs and Stale groups") {
  Fixture f;
  f.transport.routes.clear();
  f.transport.Add("GET /prefix/api", 200,
                  R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":""},"versions":[{"version":"v1","resources":[)"
                  R"({"resource":"configmaps","responseKind":{"kind":"ConfigMap"},"scope":"Namespaced","verbs":["get","list","delete"]}]}]}]})",
                  {{"Content-Type", kAggregatedDiscovery}});
  f.transport.Add("GET /prefix/apis", 200,
                  R"({"kind":"APIGroupDiscoveryList","items":[)"
                  R"({"metadata":{"name":"autoscaling"},"versions":[)"
                  R"({"version":"v2","resources":[{"resource":"horizontalpodautoscalers","responseKind":{"kind":"HorizontalPodAutoscaler"},"scope":"Namespaced","verbs":["list","delete"]}]},)"
                  R"({"version":"v1","resources":[{"resource":"horizontalpodautoscalers","responseKind":{"kind":"HorizontalPodAutoscaler"},"scope":"Namespaced","verbs":["list","delete"]}]}]},)"
                  R"({"metadata":{"name":"metrics.k8s.io"},"versions":[{"version":"v1beta1","freshness":"Stale","resources":[)"
                  R"({"resource":"pods","responseKind":{"kind":"PodMetrics"},"scope":"Namespaced","verbs":["get","list"]}]}]}]})",
                  {{"Content-Type", kAggregatedDiscovery}});
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  auto served = c.Served();
  REQUIRE(served);
  REQUIRE(served->resources.size() == 3);
  CHECK(served->resources[0] == ResourceInfo{"", "v1", "configmaps", "ConfigMap", true});
  CHECK((served->resources[0].listable && served->resources[0].deletable));
  CHECK(served->resources[1] == ResourceInfo{"autoscaling", "v2", "horizontalpodautoscalers", "HorizontalPodAutoscaler", true});
  CHECK((served->resources[2].listable && !served->resources[2].deletable));
  CHECK(served->stale == std::vector<std::string>{"metrics.k8s.io/v1beta1"});
}

TEST_CASE("client: a list of the wrong shape, or one that never ends, is an error (issue 25)") {
  struct Case {
    std::string name;
    std::string page;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"items a string", R"({"items":"x"})", "the response to GET /api/v1/namespaces/x/configmaps is not a list"},
      {"no items at all", R"({"kind":"Status","metadata":{}})",
       "the response to GET /api/v1/namespaces/x/configmaps is not a list"},
      {"not an object", R"([1,2])", "the response to GET /api/v1/namespaces/x/configmaps is not a list"},
      {"an item not an object", R"({"items":[1]})",
       "the response to GET /api/v1/namespaces/x/configmaps lists a non-object"},
      {"the same continue token again", R"({"items":[],"metadata":{"continue":"again"}})",
       "the list of /api/v1/namespaces/x/configmaps repeats a continue token"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Fixture f;
    f.transport.Add("GET /prefix/api/v1/namespaces/x/configmaps", 200, c.page);
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    auto items = client.List("v1", "ConfigMap", "x");
    REQUIRE_FALSE(items);
    CHECK(items.error().message == c.want);
  }
  Fixture f;  // a wrong-typed continue reads as the end
  f.transport.Add("GET /prefix/api/v1/namespaces/x/configmaps", 200, R"({"items":null,"metadata":{"continue":5}})");
  Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  auto items = client.List("v1", "ConfigMap", "x");
  REQUIRE(items);
  CHECK(items->empty());
}

TEST_CASE("client: a response body over the cap is an error naming it (issue 25)") {
  Fixture f;
  f.transport.Add("GET /prefix/api/v1/namespaces/x/configmaps/big", 200, std::string(kMaxResponseBytes + 1, ' '));
  Client c(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  auto got = c.Get({"v1", "ConfigMap", "x", "big"});
  REQUIRE_FALSE(got);
  CHECK(got.error().message ==
        "the response to GET /api/v1/namespaces/x/configmaps/big is larger than 64 MiB, the most this client reads");
}

TEST_CASE("client: an answer nesting deeper than 1000 levels is refused before it is walked (issue 25)") {
  Fixture f;
  f.transport.Add("GET /prefix/api/v1/namespaces/x/configmaps/deep", 200, std::string(100000, '['));
  std::ostringstream err;
  util::Logger verbose(err, 10);
  Client c(f.config, f.transport, f.procs, verbose, f.clock, f.env);
  auto got = c.Get({"v1", "ConfigMap", "x", "deep"});
  REQUIRE_FALSE(got);
  CHECK(got.error().message == "the response to GET /api/v1/namespaces/x/configmaps/deep nests deeper than 1000 levels");
}

TEST_CASE("client: a -v 8 log of a Secret's PartialObjectMetadata holds no value (issue 25)") {
  Fixture f;
  std::ostringstream err;
  util::Logger verbose(err, 10);
  const std::string last_applied = R"({\"kind\":\"Secret\",\"stringData\":{\"p\":\"hunter2\"}})";
  f.transport.Add("GET /prefix/api/v1/namespaces/x/secrets", 200,
                  R"({"kind":"PartialObjectMetadataList","items":[{"metadata":{"name":"s","annotations":{)"
                  R"("kubectl.kubernetes.io/last-applied-configuration":")" + last_applied + R"("}}}]})");
  Client c(f.config, f.transport, f.procs, verbose, f.clock, f.env);
  REQUIRE(c.List("v1", "Secret", "x", "", ListDetail::kMetadata));
  CHECK(err.str().find("Response Body") != std::string::npos);
  CHECK(err.str().find("hunter2") == std::string::npos);
}

TEST_CASE("client: a Warning about a Secret the client sent is scrubbed, printed and logged") {
  Fixture f;
  std::ostringstream err;
  util::Logger verbose(err, 10);
  // The server Go-quotes the value in the warning text, and the header quotes that again.
  f.transport.Add("PATCH /prefix/api/v1/namespaces/team-a/secrets/s", 200, R"({"kind":"Secret"})",
                  {{"Warning", R"(299 - "field stringData.k: value \"pw\\\"q\\tx\" is odd")"}});
  Client c(f.config, f.transport, f.procs, verbose, f.clock, f.env);
  nlohmann::json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "s"}}},
                           {"stringData", {{"k", "pw\"q\tx"}}}};
  REQUIRE(c.Apply(secret, ApplyOptions{"tazuna", true, DryRun::kNone}));
  CHECK(err.str().find("Warning: field stringData.k: value \"***\" is odd\n") != std::string::npos);
  CHECK(err.str().find("pw\\") == std::string::npos);
  CHECK(err.str().find("q\\tx") == std::string::npos);
}

TEST_CASE("client: a password in the server URL is masked in request logs") {
  Fixture f;
  f.config.server = "https://admin:s3cr3t-pw@k.example:6443/prefix/";
  std::ostringstream err;
  util::Logger verbose(err, 8);
  f.transport.Add("GET /prefix/version", 200, R"({"gitVersion":"v1.33.0"})");
  Client c(f.config, f.transport, f.procs, verbose, f.clock, f.env);
  REQUIRE(c.GetPath("/version"));
  CHECK(err.str().find("GET https://admin:***@k.example:6443/prefix/version 200 in ") != std::string::npos);
  CHECK(err.str().find("s3cr3t-pw") == std::string::npos);
  CHECK(ParseUrl("https://admin:s3cr3t-pw@k.example:6443/x").authority == "k.example:6443");
}

}  // namespace
}  // namespace tazuna::kube
