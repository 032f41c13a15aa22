#include "manifest/select.hpp"

#include <doctest/doctest.h>

namespace tazuna::manifest {
namespace {

TazunaFile ThreeManifests() {
  TazunaFile f;
  f.path = "tazuna.yaml";
  Manifest a, b, c;
  a.name = "a";
  a.tags = {"infra"};
  b.name = "b";
  b.tags = {"apps", "web"};
  c.name = "c";
  f.manifests = {a, b, c};
  return f;
}

std::vector<std::string> Names(const std::vector<const Manifest*>& ms) {
  std::vector<std::string> out;
  for (const Manifest* m : ms) out.push_back(m->name);
  return out;
}

TEST_CASE("select: names and tags (OR, comma lists) keep declaration order") {
  const TazunaFile f = ThreeManifests();
  CHECK(Names(*SelectManifests(f, {}, {})) == std::vector<std::string>{"a", "b", "c"});
  CHECK(Names(*SelectManifests(f, {"c", "a"}, {})) == std::vector<std::string>{"a", "c"});
  CHECK(Names(*SelectManifests(f, {}, {"web,infra"})) == std::vector<std::string>{"a", "b"});
  CHECK(Names(*SelectManifests(f, {"a", "c"}, {"infra"})) == std::vector<std::string>{"a"});
  util::Result<std::vector<const Manifest*>> bad = SelectManifests(f, {"x"}, {});
  REQUIRE_FALSE(bad.has_value());
  CHECK(bad.error().kind == util::ErrorKind::kUsage);
  CHECK(bad.error().message == "unknown manifest \"x\" in tazuna.yaml (valid: a, b, c)");
}

TEST_CASE("select: the tags of -t no manifest carries are named (a warning, as kubectl get -l)") {
  const TazunaFile f = ThreeManifests();
  CHECK(UnknownTags(f, {}).empty());
  CHECK(UnknownTags(f, {"web,infra", "apps"}).empty());
  CHECK(UnknownTags(f, {"nothere, web", "zz"}) == std::vector<std::string>{"nothere", "zz"});
  CHECK(SelectManifests(f, {}, {"nothere"})->empty());
}

TEST_CASE("context: full match, or/and, environment overrides root") {
  TazunaFile f = ThreeManifests();
  CHECK(CheckContext(f, "anything").has_value());
  f.context_matches = {"kind-.*", "dev"};
  CHECK(CheckContext(f, "kind-a").has_value());
  CHECK(CheckContext(f, "dev").has_value());
  util::Status s = CheckContext(f, "my-kind-a");
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().message == "current context \"my-kind-a\" does not match spec.context_matches "
                             "(any of \"kind-.*\", \"dev\") in tazuna.yaml");
  f.context_match_mode = "and";
  CHECK_FALSE(CheckContext(f, "kind-a").has_value());
  f.environments["prod"] = EnvironmentSpec{{"prod-.*", "(?i).*TOKYO"}, ""};
  f.environment = "prod";
  CHECK(CheckContext(f, "prod-tokyo").has_value());
  s = CheckContext(f, "prod-osaka");
  REQUIRE_FALSE(s.has_value());
  CHECK(s.error().message == "current context \"prod-osaka\" does not match spec.environments.prod.context_matches "
                             "(all of \"prod-.*\", \"(?i).*TOKYO\") in tazuna.yaml");
}

// Manifests a, b, c and d, none with dependsOn.
TazunaFile FourManifests() {
  TazunaFile f;
  for (const char* n : {"a", "b", "c", "d"}) {
    Manifest m;
    m.name = n;
    f.manifests.push_back(m);
  }
  return f;
}

std::vector<const Manifest*> Pointers(const TazunaFile& f) {
  std::vector<const Manifest*> all;
  for (const Manifest& m : f.manifests) all.push_back(&m);
  return all;
}

TEST_CASE("dependency layers: Kahn, stable by declaration; no dependsOn means one per layer") {
  TazunaFile f = FourManifests();
  const std::vector<const Manifest*> all = Pointers(f);
  auto names = [](const std::vector<std::vector<const Manifest*>>& layers) {
    std::vector<std::vector<std::string>> out;
    for (const auto& layer : layers) out.push_back(Names(layer));
    return out;
  };
  CHECK(names(DependencyLayers(all)) == std::vector<std::vector<std::string>>{{"a"}, {"b"}, {"c"}, {"d"}});
  f.manifests[0].depends_on = {"c"};
  f.manifests[1].depends_on = {"a", "outside"};
  CHECK(names(DependencyLayers(all)) == std::vector<std::vector<std::string>>{{"c", "d"}, {"a"}, {"b"}});
}

TEST_CASE("sync layers: no dependsOn is one concurrent layer, else the dependency layers as indices") {
  TazunaFile f = FourManifests();
  const std::vector<const Manifest*> all = Pointers(f);
  using Layers = std::vector<std::vector<size_t>>;
  CHECK(SyncLayers(all) == Layers{{0, 1, 2, 3}});
  f.manifests[0].depends_on = {"c"};
  f.manifests[1].depends_on = {"a", "outside"};
  CHECK(SyncLayers(all) == Layers{{2, 3}, {0}, {1}});
  CHECK(SyncLayers({}) == Layers{{}});
}

}  // namespace
}  // namespace tazuna::manifest
