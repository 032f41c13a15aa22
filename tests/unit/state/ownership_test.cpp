#include "state/ownership.hpp"

#include <doctest/doctest.h>

#include "state/applyset.hpp"

namespace tazuna::state {

TEST_CASE("ownership: git remotes normalise to host/path without credentials, port or .git") {
  const std::pair<const char*, const char*> cases[] = {
      {"git@github.com:org/platform.git", "github.com/org/platform"},
      {"https://github.com/org/platform.git", "github.com/org/platform"},
      {"https://user:s3cret@GitHub.com/org/platform/", "github.com/org/platform"},
      {"ssh://git@github.com:2222/org/platform.git", "github.com/org/platform"},
      {"https://gitlab.example/group/sub/repo", "gitlab.example/group/sub/repo"},
      {"/srv/git/platform.git", "/srv/git/platform"},
  };
  for (const auto& [url, want] : cases) {
    const auto& captured = url;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    CHECK(NormalizeRepository(url) == want);
  }
}

TEST_CASE("ownership: another origin is refused unless taken over; no origin is adopted") {
  ManifestState stored;
  stored.manifest = "shared";
  const Origin ours{"github.com/a/one", "tazuna.yaml"};
  CHECK(CheckOrigin(stored, ours, false));
  stored.metadata.origin = ours;
  CHECK(CheckOrigin(stored, ours, false));
  stored.metadata.origin = {"github.com/org/platform", "clusters/prod/tazuna.yaml"};
  const auto st = CheckOrigin(stored, ours, false);
  REQUIRE_FALSE(st);
  CHECK(st.error().message ==
        "manifest \"shared\" is managed from github.com/org/platform (clusters/prod/tazuna.yaml); pass "
        "--take-ownership to take it over");
  CHECK(CheckOrigin(stored, ours, true));
}

TEST_CASE("ownership: an object rendered twice is an error naming both sources") {
  IdentityResolver ids(nullptr, "default");
  auto obj = [&](const std::string& m, const std::string& source) {
    DesiredObject d;
    d.key = *ParseStateKey(m + "//v1/ConfigMap/default/x");
    d.identity = ids.Resolve(d.key);
    d.source = source;
    return d;
  };
  std::vector<DesiredManifest> two = {{"a", false, {obj("a", "a/objs/x.yaml")}}, {"b", false, {obj("b", "b/x.yaml")}}};
  auto st = CheckRenderedOnce(two);
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "ConfigMap default/x is rendered by manifests \"a\" (a/objs/x.yaml) and \"b\" (b/x.yaml)");
  std::vector<DesiredManifest> one = {{"a", false, {obj("a", "a/1.yaml"), obj("a", "a/2.yaml")}}};
  st = CheckRenderedOnce(one);
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "ConfigMap default/x is rendered twice by manifest \"a\" (a/1.yaml and a/2.yaml)");
}

TEST_CASE("ownership: the ApplySet id is kubectl's for a ConfigMap parent in namespace tazuna") {
  // sha256("tazuna-state-web.tazuna.ConfigMap.") in base64url without padding.
  CHECK(ApplySetId("web") == "applyset-mcf2MpQHGHgA2Vasj5PY2Ap7VkGAKcz9MuTfJfPE6t8-v1");
}

}  // namespace tazuna::state
