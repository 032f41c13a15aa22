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

state::WaitItem Item(state::Readiness last) {
  state::WaitItem item;
  item.manifest = "base";
  item.key = state::StateKey{"base", "apps", "v1", "Deployment", "demo", "web"};
  item.last = std::move(last);
  return item;
}

TEST_CASE("wait output: a terminal gets one live line naming the first object still waiting") {
  std::ostringstream err;
  WaitPrinter printer(err, WaitStyle::kLive);
  const auto items = Items();
  printer.Update({&items[1], 1, 3, &items});
  printer.Done();
  CHECK(err.str() ==
        "\r\033[Kwaiting for 1 of 3 objects: deployment.apps/webhook -n cert-manager (1/2 available)\r\033[K");
}

TEST_CASE("wait output: elsewhere one line per change, with the whole message") {
  std::ostringstream err;
  WaitPrinter printer(err, WaitStyle::kLines);
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

TEST_CASE("wait output: a ready object may say how it was counted ready, and warn") {
  std::ostringstream err;
  WaitPrinter printer(err, WaitStyle::kLines);
  std::vector<state::WaitItem> items = {Item({state::ReadyState::kInProgress, "2/3 updated, 1 available", ""})};
  printer.Update({&items[0], 1, 1, &items});
  items[0].last = {state::ReadyState::kReady, "gone after it ran; not run again for the same content", ""};
  printer.Update({&items[0], 0, 1, &items});
  items[0].last = {state::ReadyState::kReady, "", "no controller wrote its status within 30s; counted as ready"};
  printer.Update({&items[0], 0, 1, &items});
  CHECK(err.str() ==
        "wait: deployment.apps/web -n demo: 2/3 updated, 1 available\n"
        "wait: deployment.apps/web -n demo: ready (gone after it ran; not run again for the same content)\n"
        "warning: deployment.apps/web -n demo: no controller wrote its status within 30s; counted as ready\n"
        "wait: deployment.apps/web -n demo: ready\n");
}

TEST_CASE("wait output: -o json gets one event per change on stderr") {
  std::ostringstream err;
  WaitPrinter printer(err, WaitStyleFor("json", true));
  std::vector<state::WaitItem> items = {Item({state::ReadyState::kInProgress, "2/3 updated, 1 available", ""})};
  items[0].timed_out = true;
  printer.Update({&items[0], 0, 1, &items});
  items[0].last = {state::ReadyState::kReady, "", "no controller wrote its status within 30s; counted as ready"};
  printer.Update({&items[0], 0, 1, &items});
  CHECK(err.str() ==
        R"({"apiVersion":"apps/v1","kind":"Deployment","manifest":"base","message":"2/3 updated, 1 available",)"
        R"("name":"web","namespace":"demo","state":"in progress","timedOut":true,"total":1,"type":"wait","waiting":0})"
        "\n"
        R"({"apiVersion":"apps/v1","kind":"Deployment","manifest":"base","message":"","name":"web","namespace":"demo",)"
        R"("state":"ready","timedOut":true,"total":1,"type":"wait","waiting":0,)"
        R"("warning":"no controller wrote its status within 30s; counted as ready"})"
        "\n");
  CHECK(WaitStyleFor("yaml", true) == WaitStyle::kLive);
  CHECK(WaitStyleFor("table", false) == WaitStyle::kLines);
}

}  // namespace
}  // namespace tazuna::cli
