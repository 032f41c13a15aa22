#include "cli/state_forget.hpp"

#include <doctest/doctest.h>

#include "harness.hpp"

namespace tazuna::cli {
namespace {

TEST_CASE("state forget: Validate takes KEYs or --orphaned") {
  struct Case {
    std::string name;
    std::vector<std::string> keys;
    bool orphaned = false;
    std::vector<std::string> manifests;
    std::string want;
    bool leave_objects = false;
  };
  const std::vector<Case> cases = {
      {"one key", {"web//v1/ConfigMap/default/legacy"}, false, {}, ""},
      {"keys under one manifest", {"/v1/ConfigMap/default/a", "/v1/ConfigMap/default/b"}, false, {"web"}, ""},
      {"orphaned", {}, true, {}, ""},
      {"nothing to forget", {}, false, {}, "error: give the state KEYs to forget, or --orphaned\n"},
      {"orphaned with keys", {"web//v1/ConfigMap/default/legacy"}, true, {}, "error: --orphaned takes no KEY arguments\n"},
      {"orphaned with a manifest", {}, true, {"web"}, "error: --orphaned and --manifest cannot be used together\n"},
      {"two manifests", {"/v1/ConfigMap/default/a"}, false, {"web", "db"}, "error: --manifest may be given once\n"},
      {"orphaned, leaving the objects running", {}, true, {}, "", true},
      {"leave objects without orphaned", {"web//v1/ConfigMap/default/legacy"}, false, {}, "error: --leave-objects needs --orphaned\n", true},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    testing::Harness h;
    StateForgetOptions o;
    o.orphaned = c.orphaned;
    o.leave_objects = c.leave_objects;
    o.file.manifests = c.manifests;
    CHECK(h.CompleteAndValidate(o, c.keys) == c.want);
    CHECK(o.keys == c.keys);
  }
}

}  // namespace
}  // namespace tazuna::cli
