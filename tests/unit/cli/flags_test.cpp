#include "cli/flags.hpp"

#include <doctest/doctest.h>

namespace tazuna::cli {

TEST_CASE("flags: long, short, attached, interleaved, repeatable and comma slices") {
  std::string file = "tazuna.yaml", out;
  bool prune = false;
  int n = 0;
  std::vector<std::string> manifests, tags;
  FlagSet f;
  f.String(&file, "file", 'f', "");
  f.String(&out, "output", 'o', "");
  f.Bool(&prune, "prune", 0, "");
  f.Int(&n, "concurrency", 0, "");
  f.StringArray(&manifests, "manifest", 'm', "");
  f.StringSlice(&tags, "tags", 't', "");
  auto pos = f.Parse({"-f", "x.yaml", "pos", "--prune", "-ojson", "--concurrency=8", "-m", "a", "-m", "b,c", "-t", "x,y"});
  REQUIRE(pos);
  CHECK(*pos == std::vector<std::string>{"pos"});
  CHECK(file == "x.yaml");
  CHECK(out == "json");
  CHECK(prune);
  CHECK(n == 8);
  CHECK(manifests == std::vector<std::string>{"a", "b,c"});
  CHECK(tags == std::vector<std::string>{"x", "y"});
  CHECK(f.Changed("file"));
  CHECK(f.Changed("tags"));
}

TEST_CASE("flags: errors read like pflag's") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  const Case cases[] = {
      {{"--bogus"}, "unknown flag: --bogus"},
      {{"--file"}, "flag needs an argument: --file"},
      {{"-x"}, "unknown shorthand flag: 'x' in -x"},
      {{"--concurrency=many"}, "invalid argument \"many\" for \"--concurrency\" flag"},
      {{"--prune=maybe"}, "invalid argument \"maybe\" for \"--prune\" flag"},
  };
  for (const auto& c : cases) {
    std::string file;
    bool prune = false;
    int n = 0;
    FlagSet f;
    f.String(&file, "file", 'f', "");
    f.Bool(&prune, "prune", 0, "");
    f.Int(&n, "concurrency", 0, "");
    auto r = f.Parse(c.args);
    REQUIRE_FALSE(r);
    CHECK(r.error().message == c.message);
  }
}

}  // namespace tazuna::cli
