#include "state/store/render_record.hpp"

#include <doctest/doctest.h>

#include "state/diff/diff.hpp"

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

TEST_CASE("render record: a state holding CRDs records the render only with each CRD's scope") {
  const std::string digest = RenderDigest(std::string(64, 'a'), "team");
  const std::string crd = "web/apiextensions.k8s.io/v1/CustomResourceDefinition/widgets.example.com";
  const std::string crd2 = "web/apiextensions.k8s.io/v1/CustomResourceDefinition/zones.example.com";
  ManifestState s = Recorded({{crd, std::string(64, '1')}}, digest);
  CHECK_FALSE(RecordsRender(s, digest));  // written before scopes were recorded
  s.metadata.crd_scopes = {{"example.com/Widget", false}};
  s.metadata.entries_digest = EntriesDigest(s.entries, s.metadata);
  CHECK(RecordsRender(s, digest));
  ManifestState edited = s;
  edited.metadata.crd_scopes["example.com/Widget"] = true;  // a scope changed by hand: not what was recorded
  CHECK_FALSE(RecordsRender(edited, digest));
  ManifestState two = s;
  two.entries[crd2] = std::string(64, '2');  // two CRDs, one scope
  two.metadata.entries_digest = EntriesDigest(two.entries, two.metadata);
  CHECK_FALSE(RecordsRender(two, digest));
  ManifestState foreign = s;
  foreign.metadata.crd_scopes = {{"other.io/Widget", false}};  // one scope, but of another group than the CRD's
  foreign.metadata.entries_digest = EntriesDigest(foreign.entries, foreign.metadata);
  CHECK_FALSE(RecordsRender(foreign, digest));
  IdentityResolver ids(nullptr, "team");
  const DesiredManifest d = DesireFromState("web", s, ids);
  CHECK(d.crd_scopes == s.metadata.crd_scopes);  // a sync records them again with the render
}

namespace {

class FixedScopes : public manifest::ScopeLookup {
 public:
  std::optional<bool> IsNamespaced(const std::string&, const std::string& kind) override {
    if (kind == "Zone") return false;
    if (kind == "Widget") return true;
    return std::nullopt;
  }
};

}  // namespace

TEST_CASE("render record: the scopes a manifest's custom resources' kinds resolve to, Kubernetes' own left out") {
  FixedScopes discovery;
  IdentityResolver ids(&discovery, "team");
  const ManifestState s = Recorded({{"web//v1/ConfigMap/team/a", std::string(64, '1')},
                                    {"web/example.com/v1/Zone/z", std::string(64, '2')},
                                    {"web/example.com/v1/Widget/team/w", std::string(64, '3')},
                                    {"web/example.com/v2/Widget/team/w2", std::string(64, '5')},
                                    {"web/other.io/v1/Thing/t", std::string(64, '4')},
                                    {"web/rbac.authorization.k8s.io/v1/ClusterRole/r", std::string(64, '6')}},
                                   RenderDigest(std::string(64, 'a'), "team"));
  const DesiredManifest d = DesireFromState("web", s, ids);
  CHECK(KindScopes(d, ids) == std::map<std::string, std::string>{
                                  {"example.com/Widget", "Namespaced"}, {"example.com/Zone", "Cluster"},
                                  {"other.io/Thing", "Unknown"}});
  IdentityResolver learned(nullptr, "team");
  learned.AddCrdScopes({{"other.io/Thing", false}});  // another manifest's CRD declares it now
  CHECK(KindScopes(d, learned).at("other.io/Thing") == "Cluster");
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
