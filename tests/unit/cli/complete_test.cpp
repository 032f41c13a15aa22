#include "cli/complete.hpp"

#include <algorithm>

#include <doctest/doctest.h>

#include "harness.hpp"

namespace tazuna::cli {
namespace {

using kube::testing::FakeTransport;

constexpr char kKubeconfig[] = R"(apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://k.example:6443"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
)";

constexpr char kNamespaces[] = R"({"kind":"PartialObjectMetadataList","apiVersion":"meta.k8s.io/v1","metadata":{},
"items":[{"metadata":{"name":"kube-system"}},{"metadata":{"name":"default"}},{"metadata":{"name":"apps"}}]})";

// Forwards to a transport the test owns, so its requests can be read after Complete.
struct Forward : kube::Transport {
  explicit Forward(FakeTransport& to) : to_(to) {}
  util::Result<kube::HttpResponse> Do(const kube::HttpRequest& request) override { return to_.Do(request); }

 private:
  FakeTransport& to_;
};

// Completes `words` against a cluster answered by `t` (core discovery canned), with KUBECONFIG set
// unless `kubeconfig` is empty; returns what was printed.
std::string CompleteWith(testing::Harness& h, FakeTransport& t, std::vector<std::string> words,
                         const std::string& kubeconfig = kKubeconfig) {
  t.Add("GET /api", 200, kube::testing::kCoreDiscovery, {{"Content-Type", kube::testing::kAggregatedDiscovery}});
  t.Add("GET /apis", 200, R"({"kind":"APIGroupDiscoveryList","items":[]})",
        {{"Content-Type", kube::testing::kAggregatedDiscovery}});
  if (!kubeconfig.empty()) {
    h.files.files["/kube/config"] = kubeconfig;
    h.ctx.env = util::Environment({{"KUBECONFIG", "/kube/config"}, {"HOME", "/nonexistent"}});
  }
  h.ctx.make_transport = [&t](const kube::RestConfig&, util::Logger&) { return std::make_unique<Forward>(t); };
  CHECK(Complete(h.ctx, std::move(words)) == 0);
  return h.out.str();
}

int NamespaceLists(const FakeTransport& t) {
  int n = 0;
  for (const auto& r : t.requests) n += r.method == "GET" && r.url.find("/api/v1/namespaces") != std::string::npos;
  return n;
}

TEST_CASE("complete: -n lists the cluster's namespaces with one LIST, as kubectl does") {
  struct Case {
    std::vector<std::string> words;
    std::string want;
  };
  const std::vector<Case> cases = {
      {{"state", "list", "-n", ""}, "apps\ndefault\nkube-system\n:4\n"},
      {{"state", "diff", "--namespace", "kube"}, "kube-system\n:4\n"},
      {{"state", "sync", "--namespace=d"}, "--namespace=default\n:4\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.want);
    testing::Harness h;
    FakeTransport t;
    t.Add("GET /api/v1/namespaces", 200, kNamespaces);
    CHECK(CompleteWith(h, t, c.words) == c.want);
    CHECK(NamespaceLists(t) == 1);
    CHECK(h.err.str() == "");
  }
}

TEST_CASE("complete: -n offers nothing and says nothing when the cluster cannot be asked") {
  struct Case {
    std::string what;
    int status = 200;
    std::string kubeconfig = kKubeconfig;
  };
  const std::vector<Case> cases = {
      {"Forbidden", 403, kKubeconfig},
      {"server error", 500, kKubeconfig},
      {"no kubeconfig", 200, ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    testing::Harness h;
    FakeTransport t;
    t.Add("GET /api/v1/namespaces", c.status,
          c.status == 200 ? kNamespaces : R"({"kind":"Status","status":"Failure","reason":"Forbidden"})");
    CHECK(CompleteWith(h, t, {"state", "list", "-n", ""}, c.kubeconfig) == ":4\n");
    CHECK(h.err.str() == "");
  }
}

TEST_CASE("complete: -n asks the cluster the typed connection flags name") {
  testing::Harness h;
  FakeTransport t;
  t.Add("GET /api/v1/namespaces", 200, kNamespaces);
  CHECK(CompleteWith(h, t, {"state", "list", "--server", "https://other.example:8443", "--token", "tok2", "-n", "a"}) ==
        "apps\n:4\n");
  REQUIRE_FALSE(t.requests.empty());
  const kube::HttpRequest& list = t.requests.back();
  CHECK(list.url.rfind("https://other.example:8443/api/v1/namespaces", 0) == 0);
  const auto auth = std::find_if(list.headers.begin(), list.headers.end(),
                                 [](const auto& h) { return h.first == "Authorization"; });
  REQUIRE(auth != list.headers.end());
  CHECK(auth->second == "Bearer tok2");
  CHECK(list.timeout == std::chrono::seconds(5));  // a tab press does not hang on a silent server
}

}  // namespace
}  // namespace tazuna::cli
