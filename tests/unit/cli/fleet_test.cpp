// What RunFleet refuses before any context runs (flag combinations and selections), and a run over
// contexts on fake servers, in parallel (Main's output).
#include "cli/fleet.hpp"

#include <doctest/doctest.h>

#include <fstream>

#include "cli/fleet_plan.hpp"
#include "util/file_reader.hpp"

#include <map>
#include <memory>

#include "cli/main.hpp"
#include "harness.hpp"

namespace tazuna::cli {
namespace {

constexpr const char* kKubeconfig = R"(apiVersion: v1
kind: Config
clusters:
- {name: a, cluster: {server: "https://a.example:6443"}}
- {name: b, cluster: {server: "https://b.example:6443"}}
- {name: down, cluster: {server: "https://down.example:6443"}}
users:
- {name: u, user: {token: t}}
contexts:
- {name: prod-a, context: {cluster: a, user: u}}
- {name: prod-b, context: {cluster: b, user: u}}
- {name: prod-down, context: {cluster: down, user: u}}
)";

struct Ran {
  int code;
  std::string out, err;
};

Ran RunMain(std::vector<std::string> args) {
  testing::Harness h;
  h.files.files["/kube/config"] = kKubeconfig;
  args.insert(args.end(), {"--kubeconfig", "/kube/config"});
  const int code = Main(h.ctx, args);
  return {code, h.out.str(), h.err.str()};
}

TEST_CASE("fleet: refusals before any context runs") {
  struct Case {
    std::vector<std::string> args;
    int code;
    std::string err;
  };
  const std::vector<Case> cases = {
      {{"state", "diff", "--contexts", "prod-*", "--context", "prod-a"}, 2,
       "error: --context and --contexts/--all-contexts cannot be used together\n"},
      {{"state", "list", "--contexts", "qa-*"}, 2,
       "error: --contexts: no context matches \"qa-*\"\nThe kubeconfig's contexts: prod-a, prod-b, prod-down.\n"},
      {{"state", "list", "--all-contexts", "--contexts", "prod-a"}, 2,
       "error: --contexts and --all-contexts cannot be used together\n"},
      {{"state", "sync", "--max-parallel", "2"}, 2, "error: --max-parallel needs --contexts or --all-contexts\n"},
      {{"state", "history", "--all-contexts", "--max-parallel", "-1"}, 2, "error: --max-parallel must be at least 1\n"},
      {{"state", "drift", "--all-contexts", "-o", "name"}, 2,
       "error: -o name cannot say which context an object is in: use -o json with --contexts\n"},
      // A plan over the fleet is split per context before any runs: a missing one stops everything.
      {{"state", "sync", "--contexts", "prod-a", "--plan", "plan.json"}, 2,
       "error: --plan plan.json: open plan.json: no such file or directory\n"},
      {{"state", "list", "--contexts", "prod-a", "-s", "https://x"}, 2,
       "error: --server cannot be used with --contexts: each context names its server\n"},
      // The command's own checks run once, not once per context.
      {{"state", "diff", "--contexts", "prod-*", "--prune"}, 2,
       "error: --prune, --allow-empty and --take-ownership say which sync a plan is for: use them with --out\n"},
      {{"state", "sync", "--all-contexts", "-o", "wide"}, 2,
       "error: unable to match a printer suitable for the output format \"wide\", allowed formats are: "
       "json,name,table,yaml\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.args);
    const Ran r = RunMain(c.args);
    CHECK(r.code == c.code);
    CHECK(r.out.empty());
    CHECK(r.err == c.err);
  }
}



// The state ConfigMap of manifest `m` recording one ConfigMap `name` with `hash`.
std::string StateConfigMap(const std::string& name, const std::string& hash) {
  return R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"tazuna-state-m","namespace":"tazuna"},)"
         R"("data":{"_metadata":"{\"gitCommitHash\":\"\",\"lastSyncedAt\":\"2026-01-02T03:04:05Z\"}",)"
         R"("m____v1__ConfigMap__default__)" + name + R"(":"{\"contentHash\":\")" + hash + R"(\"}"}})";
}

// Forwards to the fake server of the request's host (every context's client has its own transport).
struct ByServer : kube::Transport {
  explicit ByServer(kube::testing::FakeTransport* to) : to_(to) {}
  util::Result<kube::HttpResponse> Do(const kube::HttpRequest& request) override {
    if (to_ == nullptr) return util::MakeError(util::ErrorKind::kTransport, "dial tcp: connection refused");
    return to_->Do(request);
  }

 private:
  kube::testing::FakeTransport* to_;
};

TEST_CASE("fleet: state list over three contexts in parallel, one of them unreachable") {
  testing::Harness h;
  h.files.files["/kube/config"] = kKubeconfig;
  h.ctx.env = util::Environment(std::map<std::string, std::string>{{"HOME", "/nonexistent"}});
  std::map<std::string, std::unique_ptr<kube::testing::FakeTransport>> servers;
  for (const auto& [host, row] : std::map<std::string, std::string>{{"a", "x"}, {"b", "y"}}) {
    auto t = std::make_unique<kube::testing::FakeTransport>();
    t->Add("GET /api", 200, kube::testing::kCoreDiscovery, {{"Content-Type", kube::testing::kAggregatedDiscovery}});
    t->Add("GET /apis", 200, R"({"kind":"APIGroupDiscoveryList","items":[]})",
           {{"Content-Type", kube::testing::kAggregatedDiscovery}});
    const std::string state = StateConfigMap(row, std::string(64, host[0]));
    t->Add("GET /api/v1/namespaces/tazuna/configmaps", 200, R"({"kind":"ConfigMapList","items":[)" + state + "]}");
    t->Add("GET /api/v1/namespaces/tazuna/configmaps/tazuna-state-m", 200, state);
    servers["https://" + host + ".example:6443"] = std::move(t);
  }
  h.ctx.make_transport = [&servers](const kube::RestConfig& c, util::Logger&) {
    auto it = servers.find(c.server);
    return std::make_unique<ByServer>(it == servers.end() ? nullptr : it->second.get());
  };
  const int code = Main(h.ctx, {"state", "list", "--all", "--contexts", "prod-*", "--kubeconfig", "/kube/config"});
  CHECK(code == 2);  // one context could not answer: refused there
  CHECK(h.out.str() ==
        "CONTEXT   MANIFEST   APIVERSION   KIND        NAMESPACE   NAME   HASH\n"
        "prod-a    m          v1           ConfigMap   default     x      aaaaaaaaaaaa\n"
        "prod-b    m          v1           ConfigMap   default     y      bbbbbbbbbbbb\n");
  const std::string err = h.err.str();
  CAPTURE(err);
  CHECK(err.find("prod-a: 1 object\n") != std::string::npos);
  CHECK(err.find("prod-b: 1 object\n") != std::string::npos);
  CHECK(err.find("prod-down: unreachable: ") != std::string::npos);
}

}  // namespace
}  // namespace tazuna::cli

namespace tazuna::cli {

TEST_CASE("fleet plan: --out and --plan values are replaced per context, in both spellings, never after --") {
  CHECK(WithFlagValue({"state", "diff", "--out", "p.json", "-m", "a"}, "--out", "/t/0.plan") ==
        std::vector<std::string>{"state", "diff", "--out", "/t/0.plan", "-m", "a"});
  CHECK(WithFlagValue({"--plan=p.json", "--", "--plan", "x"}, "--plan", "/t/1.plan") ==
        std::vector<std::string>{"--plan=/t/1.plan", "--", "--plan", "x"});
}

TEST_CASE("fleet plan: the contexts' plans joined, split back verbatim, and refused for other contexts") {
  util::DiskFileReader disk;
  auto made = FleetPlanFiles::Make({"prod-a", "prod-b"});
  REQUIRE(made);
  std::ofstream((*made)->FileOf("prod-a")) << "{\"plan\": \"a\"}\n";
  std::ofstream((*made)->FileOf("prod-b")) << "{\"plan\": \"b\"}\n";
  const std::string path = (*made)->FileOf("prod-a") + ".fleet";
  REQUIRE((*made)->Join(disk, {"prod-a", "prod-b"}, path));
  auto split = FleetPlanFiles::Split(disk, path, {"prod-b", "prod-a"});
  REQUIRE(split);
  CHECK(*disk.ReadFile((*split)->FileOf("prod-b")) == "{\"plan\": \"b\"}\n");
  auto other = FleetPlanFiles::Split(disk, path, {"prod-a", "prod-c"});
  REQUIRE_FALSE(other);
  CHECK(other.error().message == "--plan " + path + " was made for contexts prod-a, prod-b, not prod-a, prod-c");
  auto single = FleetPlanFiles::Split(disk, (*made)->FileOf("prod-a"), {"prod-a"});
  REQUIRE_FALSE(single);
  CHECK(single.error().message.find("is not a plan over contexts") != std::string::npos);
}

}  // namespace tazuna::cli
