#include "cli/state_history.hpp"

#include <doctest/doctest.h>

#include "harness.hpp"

namespace tazuna::cli {
namespace {

TEST_CASE("state history: Complete and Validate check REVISION and -o") {
  struct Case {
    std::string name;
    std::vector<std::string> args;
    std::string output = "table";
    std::string want;
  };
  const std::vector<Case> cases = {
      {"list", {}, "table", ""},
      {"whole ULID", {"01JD3Q7ZK2M4X8N6P0R5S7T9V1"}, "wide", ""},
      {"lowercase prefix", {"01jd3"}, "json", ""},
      {"two revisions", {"01JD3", "01JD4"}, "table", "error: state history takes at most one REVISION argument\n"},
      {"not base32", {"01JD-3"}, "table", "error: invalid revision \"01JD-3\": give a ULID or a prefix of one\n"},
      {"excluded letter", {"01JDU"}, "table", "error: invalid revision \"01JDU\": give a ULID or a prefix of one\n"},
      {"too long", {"01JD3Q7ZK2M4X8N6P0R5S7T9V1X"}, "table",
       "error: invalid revision \"01JD3Q7ZK2M4X8N6P0R5S7T9V1X\": give a ULID or a prefix of one\n"},
      {"names of one revision's objects", {"01jd3"}, "name", ""},
      {"a list of revisions names no objects", {}, "name",
       "error: -o name lists the objects of one revision: give a REVISION\n"},
      {"unknown format", {}, "names",
       "error: unable to match a printer suitable for the output format \"names\", allowed formats are: "
       "json,name,table,wide,yaml\n"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(testing::CompleteWith<StateHistoryOptions>([&c](StateHistoryOptions& o) { o.output = c.output; }, c.args) ==
          c.want);
  }
}

TEST_CASE("state history: durations read like kubectl's") {
  struct Case {
    long long ms;
    std::string want;
  };
  const std::vector<Case> cases = {{0, "0ms"},       {850, "850ms"},     {4250, "4.2s"},     {45000, "45s"},
                                   {192000, "3m12s"}, {7500000, "2h5m"}, {-5, "0ms"}};
  for (const auto& c : cases) {
    CAPTURE(c.ms);
    CHECK(FormatDuration(std::chrono::milliseconds(c.ms)) == c.want);
  }
}

}  // namespace
}  // namespace tazuna::cli
