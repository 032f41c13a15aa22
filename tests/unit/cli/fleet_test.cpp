// What RunFleet refuses before any context runs: flag combinations and selections (Main's output).
#include "cli/fleet.hpp"

#include <doctest/doctest.h>

#include "cli/main.hpp"
#include "harness.hpp"

namespace tazuna::cli {
namespace {

constexpr const char* kKubeconfig = R"(apiVersion: v1
kind: Config
clusters:
- {name: c, cluster: {server: "https://127.0.0.1:1"}}
users:
- {name: u, user: {token: t}}
contexts:
- {name: prod-a, context: {cluster: c, user: u}}
- {name: prod-b, context: {cluster: c, user: u}}
- {name: dev, context: {cluster: c, user: u}}
current-context: dev
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
      {{"state", "diff", "--contexts", "prod-*", "--context", "dev"}, 2,
       "error: --context and --contexts/--all-contexts cannot be used together\n"},
      {{"state", "list", "--contexts", "qa-*"}, 1,
       "error: --contexts: no context matches \"qa-*\"\nThe kubeconfig's contexts: dev, prod-a, prod-b.\n"},
      {{"state", "list", "--all-contexts", "--contexts", "dev"}, 1,
       "error: --contexts and --all-contexts cannot be used together\n"},
      {{"state", "sync", "--max-parallel", "2"}, 1, "error: --max-parallel needs --contexts or --all-contexts\n"},
      {{"state", "history", "--all-contexts", "--max-parallel", "-1"}, 1, "error: --max-parallel must be at least 1\n"},
      {{"state", "drift", "--all-contexts", "-o", "name"}, 2,
       "error: -o name cannot say which context an object is in: use -o json with --contexts\n"},
      {{"state", "diff", "--contexts", "prod-a", "--out", "plan.json"}, 2,
       "error: --out cannot be used with --contexts or --all-contexts: a plan pins one cluster\n"
       "Make and apply plans one context at a time (--context NAME).\n"},
      {{"state", "sync", "--contexts", "prod-a", "--plan", "plan.json"}, 1,
       "error: --plan cannot be used with --contexts or --all-contexts: a plan pins one cluster\n"
       "Make and apply plans one context at a time (--context NAME).\n"},
      {{"state", "list", "--contexts", "prod-a", "-s", "https://x"}, 1,
       "error: --server cannot be used with --contexts: each context names its server\n"},
      // The command's own checks run once, not once per context.
      {{"state", "diff", "--contexts", "prod-*", "--prune"}, 2,
       "error: --prune, --allow-empty and --take-ownership say which sync a plan is for: use them with --out\n"},
      {{"state", "sync", "--all-contexts", "-o", "wide"}, 1,
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

}  // namespace
}  // namespace tazuna::cli
