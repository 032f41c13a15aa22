#include "state/live_compare.hpp"

#include <doctest/doctest.h>

#include <vector>

namespace tazuna::state {
namespace {

TEST_CASE("live compare: server-written fields are not content") {
  struct Case {
    std::string name;
    std::string live;
    std::string merged;
    bool want_same = false;
  };
  const std::vector<Case> cases = {
      {"identical", R"({"kind":"ConfigMap","data":{"a":"1"}})", R"({"kind":"ConfigMap","data":{"a":"1"}})", true},
      {"status and write metadata differ",
       R"({"metadata":{"name":"x","resourceVersion":"1","generation":1,"uid":"u","creationTimestamp":"t",)"
       R"("managedFields":[1]},"status":{"a":1}})",
       R"({"metadata":{"name":"x","resourceVersion":"2","generation":2,"managedFields":[2]},"status":{"a":2}})", true},
      {"data differs", R"({"data":{"a":"1"}})", R"({"data":{"a":"2"}})", false},
      {"labels differ", R"({"metadata":{"labels":{"a":"1"}}})", R"({"metadata":{"labels":{"a":"2"}}})", false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(SameContent(nlohmann::json::parse(c.live), nlohmann::json::parse(c.merged)) == c.want_same);
  }
}

}  // namespace
}  // namespace tazuna::state
