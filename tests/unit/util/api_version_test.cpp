#include "util/api_version.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace tazuna::util {
namespace {

TEST_CASE("api version: split into group and version") {
  struct Case {
    std::string api_version;
    GroupVersion want;
  };
  const std::vector<Case> cases = {
      {"apps/v1", {"apps", "v1"}},
      {"v1", {"", "v1"}},
      {"", {"", ""}},
      {"cert-manager.io/v1alpha2", {"cert-manager.io", "v1alpha2"}},
      {"a/b/c", {"a", "b/c"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.api_version);
    CHECK(SplitApiVersion(c.api_version) == c.want);
  }
}

}  // namespace
}  // namespace tazuna::util
