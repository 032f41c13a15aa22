// Main's answer to a word that names no command, as cobra (and so kubectl) gives it.
#include "cli/main.hpp"

#include <doctest/doctest.h>

#include "harness.hpp"

namespace tazuna::cli {
namespace {

std::string Unknown(const std::vector<std::string>& args) {
  testing::Harness h;
  CHECK(Main(h.ctx, args) == 2);  // refused: nothing changed
  CHECK(h.out.str().empty());
  return h.err.str();
}

TEST_CASE("main: an unknown command names its parent and suggests close commands") {
  CHECK(Unknown({"state", "bogus"}) ==
        "error: unknown command \"bogus\" for \"kubectl tazuna state\"\n"
        "Run 'kubectl tazuna state --help' for usage.\n");
  CHECK(Unknown({"state", "lsit"}) ==
        "error: unknown command \"lsit\" for \"kubectl tazuna state\"\n\nDid you mean this?\n\tlist\n\n"
        "Run 'kubectl tazuna state --help' for usage.\n");
  CHECK(Unknown({"state", "d", "-o", "json"}) ==
        "error: unknown command \"d\" for \"kubectl tazuna state\"\n\nDid you mean this?\n\tdiff\n\tdrift\n\tdelete\n\n"
        "Run 'kubectl tazuna state --help' for usage.\n");
  CHECK(Unknown({"stat", "list"}) ==
        "error: unknown command \"stat\" for \"kubectl tazuna\"\n\nDid you mean this?\n\tstate\n\n"
        "Run 'kubectl tazuna --help' for usage.\n");
  CHECK(Unknown({"BUILD"}) ==
        "error: unknown command \"BUILD\" for \"kubectl tazuna\"\n\nDid you mean this?\n\tbuild\n\n"
        "Run 'kubectl tazuna --help' for usage.\n");
  CHECK(Unknown({"bogus"}) == "error: unknown command \"bogus\" for \"kubectl tazuna\"\n"
                              "Run 'kubectl tazuna --help' for usage.\n");
}

TEST_CASE("main: kubectl's and other tools' words suggest their state form") {
  const auto suggests = [](const std::string& word, const std::string& forms) {
    return Unknown({word}) == "error: unknown command \"" + word + "\" for \"kubectl tazuna\"\n\nDid you mean this?\n" +
                                  forms + "\nRun 'kubectl tazuna --help' for usage.\n";
  };
  CHECK(suggests("sync", "\tstate sync\n"));
  CHECK(suggests("diff", "\tstate diff\n"));
  CHECK(suggests("list", "\tstate list\n"));
  CHECK(suggests("forget", "\tstate forget\n"));
  CHECK(suggests("history", "\tstate history\n"));
  CHECK(suggests("synk", "\tstate sync\n"));  // a near miss of a state command
  CHECK(suggests("apply", "\tstate sync\n"));
  CHECK(suggests("uninstall", "\tstate delete\n"));
  CHECK(suggests("template", "\tbuild\n"));
  CHECK(suggests("status", "\tstate\n\tstate status\n"));  // also within 2 edits of `state`
}

}  // namespace
}  // namespace tazuna::cli
