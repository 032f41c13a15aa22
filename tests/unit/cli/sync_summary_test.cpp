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
  PrintSyncSummary(quiet, report, 1.5, 40, false);
  CHECK(quiet.str() ==
        "sync: 1 created, 0 configured, 0 unchanged, 0 deleted, 0 kept, 0 failed in 1.50s (40 API requests, 3 state writes)\n");
  report.throttled = 12;
  report.concurrency_low = 2;
  std::ostringstream throttled;
  PrintSyncSummary(throttled, report, 1.5, 52, false);
  CHECK(throttled.str() ==
        "sync: 1 created, 0 configured, 0 unchanged, 0 deleted, 0 kept, 0 failed in 1.50s (52 API requests, 3 state "
        "writes); 12 throttled (429), requests in flight adapted from 32 down to 2\n");
}

TEST_CASE("sync summary: names the revision, or says nothing was written; a dry run says neither") {
  state::SyncReport report;
  report.results.push_back(state::MakeResult("m", "m//v1/ConfigMap/ns/a", "", state::Verb::kKept, "h"));
  std::ostringstream kept;
  PrintSyncSummary(kept, report, 0.5, 7, false);  // a kept row that keeps its entry: no write, no record
  CHECK(kept.str() == "sync: 0 created, 0 configured, 0 unchanged, 0 deleted, 1 kept, 0 failed in 0.50s (7 API requests, "
                      "0 state writes); nothing written\n");
  std::ostringstream dry;
  PrintSyncSummary(dry, report, 0.5, 7, true);
  CHECK(dry.str().find("nothing written") == std::string::npos);
  report.revision = "01JD3Q7ZK2M4X8N6P0R5S7T9V1";
  report.state_writes = 1;
  std::ostringstream recorded;
  PrintSyncSummary(recorded, report, 0.5, 7, false);
  CHECK(recorded.str().ends_with("(7 API requests, 1 state writes); revision 01JD3Q7ZK2M4X8N6P0R5S7T9V1\n"));
}

}  // namespace tazuna::cli
