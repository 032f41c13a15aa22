#include "util/path_segment.hpp"

#include <doctest/doctest.h>

namespace tazuna::util {

TEST_CASE("path segment: names a request can reach as one segment, and why others cannot") {
  struct Case {
    std::string segment;
    std::optional<std::string> problem;
  };
  const Case cases[] = {
      {"web", std::nullopt},
      {"system:controller:job-controller", std::nullopt},  // RBAC names hold ':'
      {"a.b-c_d@e", std::nullopt},
      {"", "may not be empty"},
      {".", "may not be '.' or '..'"},
      {"..", "may not be '.' or '..'"},
      {"a/../../x", "may not contain '/'"},
      {"a%2fb", "may not contain '%'"},
      {"a?dryRun=All", "may not contain '?'"},
      {"a#b", "may not contain '#'"},
      {"a\\b", "may not contain '\\'"},
      {"a b", "may not contain whitespace or control characters"},
      {std::string("a\nb"), "may not contain whitespace or control characters"},
      {std::string("a\x7f"), "may not contain whitespace or control characters"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.segment);
    CHECK(PathSegmentProblem(c.segment) == c.problem);
  }
}

}  // namespace tazuna::util
