#include <doctest/doctest.h>

#include <sstream>

#include "cli/sync_output.hpp"

namespace tazuna::cli {

TEST_CASE("sync summary: the 429s met and the lowest concurrency follow the counts when the server throttled") {
  state::SyncReport report;
  report.results.push_back(state::MakeResult("m", "m//v1/ConfigMap/ns/a", "", state::Verb::kCreated, "h"));
  report.state_writes = 3;
  report.concurrency = 32;
  std::ostringstream quiet;
  PrintSyncSummary(quiet, report, 1.5, 40);
  CHECK(quiet.str() ==
        "sync: 1 created, 0 configured, 0 unchanged, 0 deleted, 0 kept, 0 failed in 1.50s (40 API requests, 3 state writes)\n");
  report.throttled = 12;
  report.concurrency_low = 2;
  std::ostringstream throttled;
  PrintSyncSummary(throttled, report, 1.5, 52);
  CHECK(throttled.str() ==
        "sync: 1 created, 0 configured, 0 unchanged, 0 deleted, 0 kept, 0 failed in 1.50s (52 API requests, 3 state "
        "writes); 12 throttled (429), requests in flight adapted from 32 down to 2\n");
}

}  // namespace tazuna::cli
