#include "util/label_selector.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace tazuna::util {
namespace {

using Labels = std::map<std::string, std::string>;

TEST_CASE("label selector: parses kubectl's equality and set-based forms") {
  struct Case {
    std::string text;
    std::vector<SelectorRequirement> want;
  };
  const std::vector<Case> cases = {
      {"", {}},
      {"   ", {}},
      {"a=b", {{"a", SelectorOp::kEquals, {"b"}}}},
      {"a==b", {{"a", SelectorOp::kEquals, {"b"}}}},
      {"a != b", {{"a", SelectorOp::kNotEquals, {"b"}}}},
      {"a=", {{"a", SelectorOp::kEquals, {""}}}},
      {"a", {{"a", SelectorOp::kExists, {}}}},
      {"!a", {{"a", SelectorOp::kDoesNotExist, {}}}},
      {"a in (y, x,x)", {{"a", SelectorOp::kIn, {"x", "y"}}}},
      {"a notin (x)", {{"a", SelectorOp::kNotIn, {"x"}}}},
      {"a in ()", {{"a", SelectorOp::kIn, {""}}}},  // apimachinery reads an empty set as the empty value
      {"a>1,b<-2", {{"a", SelectorOp::kGreaterThan, {"1"}}, {"b", SelectorOp::kLessThan, {"-2"}}}},
      {"app.kubernetes.io/name=web,tier in (fe),!legacy",
       {{"app.kubernetes.io/name", SelectorOp::kEquals, {"web"}},
        {"tier", SelectorOp::kIn, {"fe"}},
        {"legacy", SelectorOp::kDoesNotExist, {}}}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto got = ParseLabelSelector(c.text);
    REQUIRE(got);
    CHECK(got->requirements == c.want);
  }
}

TEST_CASE("label selector: invalid syntax is one kUsage line naming the selector") {
  struct Case {
    std::string text, want;
  };
  const std::vector<Case> cases = {
      {"a in x", "invalid label selector \"a in x\": expected '(' after \"a\" in/notin"},
      {"a in (x", "invalid label selector \"a in (x\": missing ')'"},
      {"a in (x,-y)", "invalid label selector \"a in (x,-y)\": invalid label value \"-y\" in the set of \"a\""},
      {"=b", "invalid label selector \"=b\": found \"=\", expected a label key"},
      {"a=b,", "invalid label selector \"a=b,\": expected a label key"},
      {"a b", "invalid label selector \"a b\": found \"b\", expected an operator (=, ==, !=, in, notin, >, <) after \"a\""},
      {"a=b c", "invalid label selector \"a=b c\": found \"c\", expected ','"},
      {"a=(b)", "invalid label selector \"a=(b)\": found \"(\", expected a value for \"a\""},
      {"a>x", "invalid label selector \"a>x\": for '>' and '<' the value must be an integer, not \"x\""},
      {"-a=b", "invalid label selector \"-a=b\": invalid label key \"-a\": a name of at most 63 characters, "
               "alphanumeric at both ends, '-', '_' or '.' inside"},
      {"Ex.com/a=b", "invalid label selector \"Ex.com/a=b\": invalid label key \"Ex.com/a\": its prefix must be a DNS subdomain"},
      {"a=b-", "invalid label selector \"a=b-\": invalid label value \"b-\": at most 63 characters, alphanumeric at "
               "both ends, '-', '_' or '.' inside"},
      {"!a=b", "invalid label selector \"!a=b\": found \"=\", expected ','"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto got = ParseLabelSelector(c.text);
    REQUIRE_FALSE(got);
    CHECK(got.error().kind == ErrorKind::kUsage);
    CHECK(got.error().message == c.want);
  }
}

TEST_CASE("label selector: matches as apimachinery's labels.Selector") {
  const Labels web = {{"app", "web"}, {"tier", "fe"}, {"replicas", "3"}};
  const Labels none;
  struct Case {
    std::string text;
    bool web, none;
  };
  const std::vector<Case> cases = {
      {"", true, true},
      {"app=web", true, false},
      {"app==db", false, false},
      {"app!=db", true, true},
      {"app!=web", false, true},
      {"app in (db,web)", true, false},
      {"app notin (web)", false, true},
      {"app", true, false},
      {"!app", false, true},
      {"app=web,tier=be", false, false},
      {"app=web,tier=fe", true, false},
      {"replicas>2", true, false},
      {"replicas<3", false, false},
      {"app>1", false, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto sel = ParseLabelSelector(c.text);
    REQUIRE(sel);
    CHECK(sel->Matches(web) == c.web);
    CHECK(sel->Matches(none) == c.none);
  }
}

}  // namespace
}  // namespace tazuna::util
