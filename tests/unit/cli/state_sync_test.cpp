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
       "json,table,yaml\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    testing::Harness h;
    StateSyncOptions o;
    o.dry_run = c.dry_run;
    o.concurrency = c.concurrency;
    o.lock_timeout = c.lock_timeout;
    o.output = c.output;
    CHECK(h.CompleteAndValidate(o) == c.want);
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

}  // namespace
}  // namespace tazuna::cli
