#include "cli/print/table.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "cli/report_error.hpp"

namespace tazuna::cli {

TEST_CASE("table: kubectl padding, no trailing spaces, nothing for no rows") {
  std::ostringstream out;
  print::PrintTable(out, {{"MANIFEST", "NAME", "HASH"}, {{"web", "a", "0123"}, {"platform-base", "longer-name", ""}}});
  CHECK(out.str() ==
        "MANIFEST        NAME          HASH\n"
        "web             a             0123\n"
        "platform-base   longer-name\n");
  std::ostringstream empty;
  print::PrintTable(empty, {{"A", "B"}, {}});
  CHECK(empty.str().empty());
  std::ostringstream no_headers;
  print::PrintTable(no_headers, {{"MANIFEST", "X"}, {{"a", "b"}}}, false);
  CHECK(no_headers.str() == "a     b\n");
}

TEST_CASE("report error: kubectl's wording and exit codes") {
  std::ostringstream err;
  util::Error api = util::MakeError(util::ErrorKind::kApi, "configmaps \"x\" not found");
  api.reason = "NotFound";
  CHECK(ReportError(err, api) == 2);  // refused: nothing written
  CHECK(ReportError(err, util::MakeError(util::ErrorKind::kUnauthorized, "Unauthorized").PartWay()) == 3);
  util::Error usage = util::MakeError(util::ErrorKind::kUsage, "unknown flag: --bogus");
  usage.hint = "See 'kubectl tazuna state diff --help' for usage.";
  CHECK(ReportError(err, usage) == 2);
  CHECK(err.str() ==
        "Error from server (NotFound): configmaps \"x\" not found\n"
        "error: You must be logged in to the server (Unauthorized)\n"
        "error: unknown flag: --bogus\nSee 'kubectl tazuna state diff --help' for usage.\n");
}

}  // namespace tazuna::cli
