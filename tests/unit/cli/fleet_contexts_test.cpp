#include "cli/fleet_contexts.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace tazuna::cli {

TEST_CASE("fleet contexts: globs match context names as fnmatch does") {
  struct Case {
    std::string pattern, name;
    bool matches;
  };
  const std::vector<Case> cases = {
      {"prod-*", "prod-a", true},       {"prod-*", "prod-", true},         {"prod-*", "staging-a", false},
      {"prod-?", "prod-a", true},       {"prod-?", "prod-ab", false},      {"prod-[ab]", "prod-b", true},
      {"prod-[!ab]", "prod-b", false},  {"prod-[!ab]", "prod-c", true},    {"*", "arn:aws:eks:x/c", true},
      {"exact", "exact", true},         {"exact", "exactly", false},       {"\\*", "*", true},
      {"\\*", "a", false},              {"*-east-*", "prod-east-1", true}, {"Prod-*", "prod-a", false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.pattern);
    CAPTURE(c.name);
    CHECK(GlobMatches(c.pattern, c.name) == c.matches);
  }
}

TEST_CASE("fleet contexts: patterns in the order given, each in the kubeconfig's order, no name twice") {
  const std::vector<std::string> known = {"dev", "prod-a", "prod-b", "staging"};
  auto got = SelectContexts({{"staging", "prod-*", "prod-a"}, false}, known);
  REQUIRE(got);
  CHECK(*got == std::vector<std::string>{"staging", "prod-a", "prod-b"});
  auto all = SelectContexts({{}, true}, known);
  REQUIRE(all);
  CHECK(*all == known);
}

TEST_CASE("fleet contexts: selection errors") {
  const std::vector<std::string> known = {"dev", "prod-a"};
  struct Case {
    ContextSelection selection;
    std::vector<std::string> known;
    std::string message, hint;
  };
  const std::vector<Case> cases = {
      {{{"qa-*"}, false}, known, "--contexts: no context matches \"qa-*\"", "The kubeconfig's contexts: dev, prod-a."},
      {{{"dev", ""}, false}, known, "--contexts: an empty pattern matches no context", ""},
      {{{"dev"}, true}, known, "--contexts and --all-contexts cannot be used together", ""},
      {{{}, true}, {}, "the kubeconfig has no contexts to run over", ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.message);
    auto got = SelectContexts(c.selection, c.known);
    REQUIRE_FALSE(got);
    CHECK(got.error().kind == util::ErrorKind::kUsage);
    CHECK(got.error().message == c.message);
    CHECK(got.error().hint == c.hint);
  }
}

}  // namespace tazuna::cli
