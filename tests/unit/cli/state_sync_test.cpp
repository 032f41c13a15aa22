#include "cli/state_sync.hpp"

#include <doctest/doctest.h>

#include "harness.hpp"

namespace tazuna::cli {
namespace {

TEST_CASE("state sync: Complete and Validate check flag values and combinations") {
  struct Case {
    std::string name;
    std::string dry_run = "none";
    int concurrency = 32;
    std::string lock_timeout = "60s";
    std::string output = "table";
    std::string want;
  };
  const std::string bad_dry_run = "error: Invalid dry-run value (client). Must be \"none\" or \"server\".\n";
  const std::vector<Case> cases = {
      {"defaults", "none", 32, "60s", "table", ""},
      {"server dry run, widest concurrency, bare seconds, yaml", "server", 512, "90", "yaml", ""},
      {"names, as kubectl apply -o name", "none", 32, "60s", "name", ""},
      {"client dry run hints at server", "client", 32, "60s", "table",
       bad_dry_run + "Did you mean --dry-run=server?\n"},
      {"true hints at server", "true", 32, "60s", "json",
       "error: Invalid dry-run value (true). Must be \"none\" or \"server\".\nDid you mean --dry-run=server?\n"},
      {"unknown dry run", "all", 32, "60s", "table", "error: Invalid dry-run value (all). Must be \"none\" or \"server\".\n"},
      {"no concurrency", "none", 0, "60s", "table", "error: --concurrency must be between 1 and 512\n"},
      {"too much concurrency", "none", 513, "60s", "table", "error: --concurrency must be between 1 and 512\n"},
      {"lock timeout in minutes", "none", 32, "1m", "table",
       "error: invalid --lock-timeout \"1m\": use seconds, e.g. 90s\n"},
      {"lock timeout over a day", "none", 32, "86401s", "table",
       "error: invalid --lock-timeout \"86401s\": at most 86400s\n"},
      {"wide is not a sync format", "none", 32, "60s", "wide",
       "error: unable to match a printer suitable for the output format \"wide\", allowed formats are: "
       "json,name,table,yaml\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(testing::CompleteWith<StateSyncOptions>([&c](StateSyncOptions& o) {
            o.dry_run = c.dry_run;
            o.concurrency = c.concurrency;
            o.lock_timeout = c.lock_timeout;
            o.output = c.output;
          }) == c.want);
  }
}

TEST_CASE("state sync: --timeout is a duration of at least a second") {
  struct Case {
    std::string timeout;
    std::string want;
    std::chrono::seconds want_seconds{0};
  };
  const std::vector<Case> cases = {
      {"5m", "", std::chrono::seconds(300)},
      {"20s", "", std::chrono::seconds(20)},
      {"90", "", std::chrono::seconds(90)},
      {"1h30m", "", std::chrono::seconds(5400)},
      {"5x", "error: invalid --timeout \"5x\": use a duration of at least a second, e.g. 5m or 90s\n"},
      {"0", "error: invalid --timeout \"0\": use a duration of at least a second, e.g. 5m or 90s\n"},
      {"500ms", "error: invalid --timeout \"500ms\": use a duration of at least a second, e.g. 5m or 90s\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.timeout);
    testing::Harness h;
    StateSyncOptions o;
    o.timeout = c.timeout;
    CHECK(h.CompleteAndValidate(o) == c.want);
    if (c.want.empty()) CHECK(o.wait_timeout == c.want_seconds);
  }
}

TEST_CASE("state sync: Complete reads TAZUNA_STATE_SYNC_DELETE and the lock timeout") {
  testing::Harness h;
  h.ctx.env.Set("TAZUNA_STATE_SYNC_DELETE", "TRUE");
  StateSyncOptions o;
  o.lock_timeout = "90s";
  CHECK(h.CompleteAndValidate(o) == "");
  CHECK(o.prune);
  CHECK(o.lock_wait == std::chrono::seconds(90));
  REQUIRE(o.printer != nullptr);
}

TEST_CASE("state sync: --history-limit and --plan with -e/-t/-m") {
  state::Plan plan;
  plan.created_at = "2026-11-23T18:00:00Z";
  plan.selection = {"prod", {"net"}, {"cni"}};
  const std::string plan_text = state::EncodePlan(plan);
  struct Case {
    std::string name;
    int history_limit = 20;
    std::string plan_file;
    state::RevisionSelection given;
    std::string want;
  };
  const std::string made_for = "error: --plan plan.json was made for -e prod -t net -m cni, not ";
  const std::string hint = "Drop -e/-t/-m (the plan's selection is used), or make a new plan with state diff --out.\n";
  const std::vector<Case> cases = {
      {"smallest history", 1, "", {}, ""},
      {"largest history", 1000, "", {}, ""},
      {"no history", 0, "", {}, "error: --history-limit must be between 1 and 1000\n"},
      {"too much history", 1001, "", {}, "error: --history-limit must be between 1 and 1000\n"},
      {"plan alone", 20, "plan.json", {}, ""},
      {"plan with its own selection", 20, "plan.json", {"prod", {"net"}, {"cni"}}, ""},
      {"plan with another environment", 20, "plan.json", {"staging", {}, {}}, made_for + "-e staging\n" + hint},
      {"plan with other tags", 20, "plan.json", {"", {"apps"}, {}}, made_for + "-t apps\n" + hint},
      {"plan with another manifest", 20, "plan.json", {"", {}, {"web"}}, made_for + "-m web\n" + hint},
      {"missing plan", 20, "gone.json", {}, "error: --plan: open gone.json: no such file or directory\n"},
      {"not a plan", 20, "bad.json", {}, "error: --plan bad.json: invalid plan: not a JSON object\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    testing::Harness h;
    h.files.files["plan.json"] = plan_text;
    h.files.files["bad.json"] = "{";
    StateSyncOptions o;
    o.history_limit = c.history_limit;
    o.plan_file = c.plan_file;
    o.file.environment = c.given.environment;
    o.file.tags = c.given.tags;
    o.file.manifests = c.given.manifests;
    CHECK(h.CompleteAndValidate(o) == c.want);
    if (c.want.empty() && !c.plan_file.empty()) CHECK(o.file.manifests == std::vector<std::string>{"cni"});
  }
}

}  // namespace
}  // namespace tazuna::cli
