#include "cli/fleet_output.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>
#include <vector>

namespace tazuna::cli {

namespace {

using Status = ContextOutcome::Status;

ContextOutcome Done(const std::string& context, int code, std::vector<std::vector<std::string>> rows) {
  ContextOutcome o;
  o.context = context;
  o.status = Status::kDone;
  o.code = code;
  if (!rows.empty()) o.tables.push_back({{"MANIFEST", "NAME"}, std::move(rows)});
  return o;
}

ContextOutcome Failed(const std::string& context, util::ErrorKind kind, const std::string& message) {
  ContextOutcome o;
  o.context = context;
  o.status = Status::kFailed;
  o.error = util::MakeError(kind, message);
  return o;
}

std::string Printed(const print::Table& t) {
  std::ostringstream out;
  print::PrintTable(out, t);
  return out.str();
}

}  // namespace

TEST_CASE("fleet output: one table, CONTEXT first, rows in context order") {
  const std::vector<ContextOutcome> all = {Done("prod-a", 1, {{"cni", "calico"}, {"cni", "calico-node"}}),
                                           Failed("prod-b", util::ErrorKind::kTransport, "refused"),
                                           Done("prod-c", 0, {})};
  CHECK(Printed(MergeTables(all, {})) ==
        "CONTEXT   MANIFEST   NAME\n"
        "prod-a    cni        calico\n"
        "prod-a    cni        calico-node\n");
}

TEST_CASE("fleet output: result lines become rows only for commands whose lines are rows") {
  ContextOutcome a = Done("a", 0, {});
  a.lines = {"m  configmap/x created"};
  ContextOutcome b = Done("b", 0, {});
  b.lines = {"No changes detected."};
  CHECK(MergeTables({a}, {"object", /*lines_are_rows=*/true}).rows ==
        std::vector<std::vector<std::string>>{{"a", "m  configmap/x created"}});
  CHECK(MergeTables({b}, {"change", /*lines_are_rows=*/false}).rows.empty());
  CHECK(RowCount(a, {"object", true}) == 1);
  CHECK(RowCount(b, {"change", false}) == 0);
}

TEST_CASE("fleet output: the List's items carry their context") {
  ContextOutcome a = Done("a", 0, {});
  a.items = nlohmann::json::array({{{"name", "x"}}, {{"name", "y"}}});
  ContextOutcome b = Done("b", 0, {});
  b.items = nlohmann::json::array({{{"name", "z"}}});
  CHECK(MergeLists({a, b}) == nlohmann::json::parse(R"({"apiVersion":"v1","kind":"List","items":[
        {"name":"x","context":"a"},{"name":"y","context":"a"},{"name":"z","context":"b"}]})"));
}

TEST_CASE("fleet output: a line per context") {
  const FleetWords words{"change", false};
  ContextOutcome skipped;
  skipped.context = "d";
  ContextOutcome exit_code = Done("e", 1, {});
  exit_code.status = Status::kFailed;
  CHECK(OutcomeLine(Done("a", 1, {{"m", "x"}, {"m", "y"}, {"m", "z"}}), words) == "a: 3 changes");
  CHECK(OutcomeLine(Done("a", 1, {{"m", "x"}}), words) == "a: 1 change");
  CHECK(OutcomeLine(Done("a", 0, {}), words) == "a: no changes");
  CHECK(OutcomeLine(Failed("b", util::ErrorKind::kTransport, "dial tcp: refused"), words) ==
        "b: unreachable: dial tcp: refused");
  CHECK(OutcomeLine(Failed("c", util::ErrorKind::kInput, "bad tazuna.yaml"), words) == "c: error: bad tazuna.yaml");
  CHECK(OutcomeLine(skipped, words) == "d: skipped (an earlier context failed)");
  CHECK(OutcomeLine(exit_code, words) == "e: failed (exit 1)");
}

TEST_CASE("fleet output: exit codes aggregate") {
  struct Case {
    std::vector<ContextOutcome> all;
    FleetMode mode;
    int want;
  };
  const auto clean = Done("a", 0, {});
  const auto changes = Done("b", 1, {{"m", "x"}});
  const auto error = Failed("c", util::ErrorKind::kTransport, "refused");
  auto part_way = Failed("d", util::ErrorKind::kApi, "state write failed");
  part_way.error = part_way.error->PartWay();
  ContextOutcome attention = Done("e", 1, {{"m", "x"}});
  attention.status = ContextOutcome::Status::kFailed;  // a rollout stops at rows that need a person
  ContextOutcome skipped;
  const std::vector<Case> cases = {
      {{clean, clean}, FleetMode::kParallel, 0},      {{clean, changes}, FleetMode::kParallel, 1},
      {{changes, error}, FleetMode::kParallel, 2},    {{error, clean}, FleetMode::kParallel, 2},
      {{clean, part_way}, FleetMode::kParallel, 3},   {{}, FleetMode::kParallel, 0},
      {{clean, clean}, FleetMode::kRollout, 0},       {{error, skipped}, FleetMode::kRollout, 2},
      {{clean, error, skipped}, FleetMode::kRollout, 3},  // the first cluster changed: part-way
      {{attention, skipped}, FleetMode::kRollout, 1}, {{clean, attention}, FleetMode::kRollout, 1},
      {{part_way, skipped}, FleetMode::kRollout, 3},
      {{attention, error}, FleetMode::kRollout, 3},  // --max-parallel 2: the first ran (and wrote), the second refused
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    CHECK(FleetExitCode(cases[i].all, cases[i].mode) == cases[i].want);
  }
}

TEST_CASE("fleet output: stderr lines are prefixed with their context") {
  std::ostringstream err;
  PrefixLines(err, "prod-a", "Warning: x\nsync: 1 created\n\n");
  CHECK(err.str() == "prod-a: Warning: x\nprod-a: sync: 1 created\n");
}

}  // namespace tazuna::cli
