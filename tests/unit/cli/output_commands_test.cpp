// Complete and Validate of the commands whose only checked flag is -o: state diff, state drift,
// state list, version and build (which has none).
#include <doctest/doctest.h>

#include "cli/build.hpp"
#include "cli/state_diff.hpp"
#include "cli/state_drift.hpp"
#include "cli/state_list.hpp"
#include "cli/version.hpp"
#include "harness.hpp"

namespace tazuna::cli {
namespace {

struct OutputCase {
  std::string output;
  std::string want;
};

const std::string kRowFormats = "json,name,table,wide,yaml";

std::string Unmatched(const std::string& output, const std::string& allowed) {
  return "error: unable to match a printer suitable for the output format \"" + output +
         "\", allowed formats are: " + allowed + "\n";
}

template <class Options>
void CheckOutputs(const std::vector<OutputCase>& cases) {
  for (const auto& c : cases) {
    CAPTURE(c.output);
    testing::Harness h;
    Options o;
    o.output = c.output;
    CHECK(h.CompleteAndValidate(o) == c.want);
    if (c.want.empty()) CHECK(o.printer != nullptr);
  }
}

const std::vector<OutputCase> kRowCases = {
    {"table", ""}, {"wide", ""}, {"json", ""}, {"yaml", ""}, {"name", ""},
    {"", Unmatched("", kRowFormats)}, {"names", Unmatched("names", kRowFormats)}, {"JSON", Unmatched("JSON", kRowFormats)},
};

TEST_CASE("state diff: Complete picks a printer for table, wide, json, yaml and name only") {
  CheckOutputs<StateDiffOptions>(kRowCases);
}

TEST_CASE("state drift: Complete picks a printer for table, wide, json, yaml and name only") {
  CheckOutputs<StateDriftOptions>(kRowCases);
}

TEST_CASE("state list: Complete picks a printer for table, wide, json, yaml and name only") {
  CheckOutputs<StateListOptions>(kRowCases);
}

TEST_CASE("state list: without -f or ./tazuna.yaml every state ConfigMap is listed") {
  struct Case {
    std::string name;
    bool file_exists = false;
    bool all = false;
    bool want_read_file = false;
    bool want_from_cluster = false;
  };
  const std::vector<Case> cases = {
      {"no tazuna.yaml", false, false, false, true},
      {"tazuna.yaml", true, false, true, false},
      {"tazuna.yaml and --all", true, true, true, true},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    testing::Harness h;
    if (c.file_exists) h.files.files["tazuna.yaml"] = "";
    StateListOptions o;
    o.all = c.all;
    CHECK(h.CompleteAndValidate(o) == "");
    CHECK(o.read_file == c.want_read_file);
    CHECK(o.from_cluster == c.want_from_cluster);
  }
}

TEST_CASE("version: Complete takes text, json and yaml") {
  CheckOutputs<VersionOptions>({{"", ""}, {"json", ""}, {"yaml", ""}, {"name", Unmatched("name", ",json,yaml")},
                                {"table", Unmatched("table", ",json,yaml")},
                                {"wide", Unmatched("wide", ",json,yaml")}});
}

TEST_CASE("build: nothing to complete or validate") {
  testing::Harness h;
  BuildOptions o;
  o.show_secrets = true;
  CHECK(h.CompleteAndValidate(o) == "");
}

}  // namespace
}  // namespace tazuna::cli
