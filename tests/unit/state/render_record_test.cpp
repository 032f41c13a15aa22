#include "state/render_record.hpp"

#include <doctest/doctest.h>

#include "state/diff.hpp"

namespace tazuna::state {

namespace {

ManifestState Recorded(std::map<std::string, std::string> entries, const std::string& digest) {
  ManifestState s;
  s.manifest = "web";
  s.entries = std::move(entries);
  s.metadata.render_digest = digest;
  s.metadata.entries_digest = EntriesDigest(s.entries);
  return s;
}

}  // namespace

TEST_CASE("render record: a state is the record of a render only as that sync left it") {
  const std::string digest = RenderDigest(std::string(64, 'a'), "team");
  CHECK(digest.size() == 64);
  CHECK(RenderDigest(std::string(64, 'a'), "other") != digest);  // the context namespace is part of it
  CHECK(RenderDigest("", "team").empty());
  ManifestState s = Recorded({{"web//v1/ConfigMap/team/a", std::string(64, '1')}}, digest);
  CHECK(RecordsRender(s, digest));
  CHECK_FALSE(RecordsRender(s, RenderDigest(std::string(64, 'b'), "team")));  // other inputs
  CHECK_FALSE(RecordsRender(s, ""));
  ManifestState changed = s;
  changed.entries.erase(changed.entries.begin());  // state forget, the Go tool, ...
  CHECK_FALSE(RecordsRender(changed, digest));
  CHECK_FALSE(RecordsRender(Recorded({{"web//v1/ConfigMap/team/a", ""}}, digest), digest));  // pending
  CHECK_FALSE(RecordsRender(Recorded({{"web//v1/Secret/team/s", std::string(64, '1')}}, digest), digest));
  ManifestState go = s;
  go.metadata.render_digest.clear();  // a Go tool write drops the field
  CHECK_FALSE(RecordsRender(go, digest));
}

TEST_CASE("render record: a state standing for its render diffs as nothing to do") {
  IdentityResolver ids(nullptr, "team");
  const std::string digest = RenderDigest(std::string(64, 'a'), "team");
  const ManifestState s = Recorded({{"web//v1/ConfigMap/team/a", std::string(64, '1')},
                                    {"web//v1/ConfigMap/b", std::string(64, '2')},
                                    {"web/rbac.authorization.k8s.io/v1/ClusterRole/r", std::string(64, '3')}},
                                   digest);
  const DesiredManifest d = DesireFromState("web", s, ids);
  CHECK(d.from_state);
  REQUIRE(d.objects.size() == 3);
  CHECK(d.objects[0].object == nlohmann::json{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "b"}}}});
  CHECK(Diff(d, s, ids).empty());
}

}  // namespace tazuna::state
