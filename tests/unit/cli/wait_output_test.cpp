#include "cli/wait_output.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <vector>

namespace tazuna::cli {
namespace {

std::vector<state::WaitItem> Items() {
  std::vector<state::WaitItem> items(3);
  items[0].key = state::StateKey{"m", "apps", "v1", "Deployment", "cert-manager", "webhook"};
  items[0].last = {state::ReadyState::kInProgress, "1/2 available (Available=False MinimumReplicasUnavailable: x)"};
  items[1].key = state::StateKey{"m", "", "v1", "ConfigMap", "cert-manager", "cfg"};
  items[2].key = state::StateKey{"m", "batch", "v1", "Job", "cert-manager", "init"};
  items[2].last = {state::ReadyState::kFailed, "Failed=True BackoffLimitExceeded: Job has reached the specified backoff limit"};
  return items;
}

TEST_CASE("wait output: a terminal gets one live line naming the first object still waiting") {
  std::ostringstream err;
  WaitPrinter printer(err, true);
  const auto items = Items();
  printer.Update({&items[1], 1, 3, &items});
  printer.Done();
  CHECK(err.str() ==
        "\r\033[Kwaiting for 1 of 3 objects: deployment.apps/webhook -n cert-manager (1/2 available)\r\033[K");
}

TEST_CASE("wait output: elsewhere one line per change, with the whole message") {
  std::ostringstream err;
  WaitPrinter printer(err, false);
  auto items = Items();
  printer.Update({&items[0], 1, 3, &items});
  printer.Update({&items[2], 1, 3, &items});
  items[0].last = {state::ReadyState::kReady, ""};
  printer.Update({&items[0], 0, 3, &items});
  items[0].last = {state::ReadyState::kInProgress, "0/2 available"};
  items[0].timed_out = true;
  printer.Update({&items[0], 0, 3, &items});
  printer.Done();
  CHECK(err.str() ==
        "wait: deployment.apps/webhook -n cert-manager: 1/2 available (Available=False MinimumReplicasUnavailable: x)\n"
        "wait: job.batch/init -n cert-manager: failed: Failed=True BackoffLimitExceeded: Job has reached the specified "
        "backoff limit\n"
        "wait: deployment.apps/webhook -n cert-manager: ready\n"
        "wait: deployment.apps/webhook -n cert-manager: timed out: 0/2 available\n");
}

}  // namespace
}  // namespace tazuna::cli
