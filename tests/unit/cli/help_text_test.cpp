// LongDesc and Examples: help texts written as indented raw strings come out as kubectl prints them.
#include <doctest/doctest.h>

#include "cli/command.hpp"

using tazuna::cli::Examples;
using tazuna::cli::LongDesc;

TEST_CASE("LongDesc drops the first and last blank lines and the common indentation") {
  CHECK(LongDesc(R"(
      First line.
        an indented line keeps its two spaces

      After a blank line.
  )") == "First line.\n  an indented line keeps its two spaces\n\nAfter a blank line.\n");
}

TEST_CASE("LongDesc of a text on one line ends it with one newline") {
  CHECK(LongDesc("Print the version.") == "Print the version.\n");
  CHECK(LongDesc("") == "");
}

TEST_CASE("LongDesc keeps a whitespace-only line inside the text as an empty line") {
  CHECK(LongDesc("\n    a\n      \n    b\n  ") == "a\n\nb\n");
}

TEST_CASE("Examples indents each line that is not empty by two spaces") {
  CHECK(Examples(R"(
      # Render everything
      kubectl tazuna build

      # As JSON
      kubectl tazuna version -o json
  )") == "  # Render everything\n  kubectl tazuna build\n\n  # As JSON\n  kubectl tazuna version -o json\n");
}

TEST_CASE("Describe sets the name and both helps") {
  const auto c = tazuna::cli::Describe("state diff", "Show it", "Long.\n");
  CHECK(c.path == "state diff");
  CHECK(c.short_help == "Show it");
  CHECK(c.long_help == "Long.\n");
}
