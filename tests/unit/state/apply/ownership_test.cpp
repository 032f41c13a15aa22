#include "state/apply/ownership.hpp"

#include <doctest/doctest.h>

#include "../../kube/fakes.hpp"
#include "state/store/applyset.hpp"
#include "state/diff/marks.hpp"

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

TEST_CASE("ownership: another origin is refused, with state takeover as the way; no origin is claimed") {
  ManifestState stored;
  stored.manifest = "shared";
  const Origin ours{"github.com/a/one", "tazuna.yaml"};
  CHECK(CheckOrigin(stored, ours));
  CHECK_FALSE(ClaimedByThisRun(stored));  // no state at all: nothing to claim, nothing to prune
  stored.objects = {{"tazuna-state-shared", "7"}};
  CHECK(ClaimedByThisRun(stored));  // the Go tool's state: claimed by the first sync that writes it
  stored.metadata.origin = ours;
  CHECK(CheckOrigin(stored, ours));
  CHECK_FALSE(ClaimedByThisRun(stored));
  stored.metadata.origin = {"github.com/org/platform", "clusters/prod/tazuna.yaml"};
  const auto st = CheckOrigin(stored, ours);
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "manifest \"shared\" is managed from github.com/org/platform (clusters/prod/tazuna.yaml)");
  CHECK(st.error().hint == "To manage it from github.com/a/one (tazuna.yaml) instead, take it over first: "
                           "kubectl tazuna state takeover -m shared");
}

TEST_CASE("ownership: an object marked by another repository is foreign unless the state was taken from it") {
  const Origin ours{"github.com/a/one", "tazuna.yaml"};
  const Origin theirs{"github.com/b/two", "clusters/x/tazuna.yaml"};
  Metadata state;
  LiveOwner live;
  CHECK(ForeignOrigin(live, ours, state) == "");  // unmarked: judged by its manifest annotation
  live.origin = ours.Mark();
  CHECK(ForeignOrigin(live, ours, state) == "");
  live.origin = theirs.Mark();
  CHECK(ForeignOrigin(live, ours, state) == "github.com/b/two:clusters/x/tazuna.yaml");
  CHECK(Origin::FromMark(ForeignOrigin(live, ours, state)) == theirs);
  state.taken_from = {theirs};
  CHECK(ForeignOrigin(live, ours, state) == "");
}

TEST_CASE("ownership: tazuna's own objects in namespace tazuna may not be rendered") {
  struct Case {
    ObjectIdentity id;
    bool reserved;
  };
  const Case cases[] = {
      {{"", "ConfigMap", "tazuna", "tazuna-state-web"}, true},
      {{"", "ConfigMap", "tazuna", "tazuna-state-web.0a1b2c3d.1"}, true},
      {{"", "ConfigMap", "tazuna", "tazuna-revision-01jda3q5k4"}, true},
      {{"", "Secret", "tazuna", "tazuna-state-key"}, true},
      {{"coordination.k8s.io", "Lease", "tazuna", "tazuna-sync"}, true},
      {{"", "ConfigMap", "web", "tazuna-state-web"}, false},
      {{"", "ConfigMap", "tazuna", "settings"}, false},
      {{"", "Secret", "tazuna", "tazuna-state-keys"}, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.id.Describe());
    CHECK(IsReserved(c.id) == c.reserved);
  }
  DesiredObject d;
  d.identity = {"", "ConfigMap", "tazuna", "tazuna-state-other"};
  d.source = "web/cm.yaml";
  const auto st = CheckNotReserved({{"web", false, {d}}});
  REQUIRE_FALSE(st);
  CHECK(st.error().message ==
        "manifest \"web\" (web/cm.yaml) renders ConfigMap tazuna/tazuna-state-other, which is tazuna's own (sync state, "
        "history or lock)");
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

TEST_CASE("ownership: CarriesMarks reads the marks of a live object of any shape") {
  const Marks ours{"web", "github.com/acme/platform"};
  const nlohmann::json marked = WithOwnershipMarks({{"kind", "ConfigMap"}, {"metadata", {{"name", "a"}}}}, ours);
  CHECK(CarriesMarks(marked, ours));
  CHECK(CarriesMarks(marked, Marks{"web", ""}));
  CHECK_FALSE(CarriesMarks(marked, Marks{"db", ""}));
  CHECK_FALSE(CarriesMarks(marked, Marks{"web", "github.com/other/repo"}));
  for (const char* live : {"[]", "null", R"({"metadata":"x"})", R"({"metadata":{"annotations":[1]}})"}) {
    CAPTURE(live);
    CHECK_FALSE(CarriesMarks(nlohmann::json::parse(live), ours));
  }
}

TEST_CASE("ownership: OwnerOf reads the uid, the marks and each field manager once (what a plan pins)") {
  const nlohmann::json live = nlohmann::json::parse(R"({"metadata": {
      "uid": "uid-1",
      "annotations": {"tazuna.pepabo.com/manifest": "web", "tazuna.pepabo.com/origin": "github.com/a/b:tazuna.yaml"},
      "managedFields": [{"manager": "tazuna"}, {"manager": "kubectl-edit"}, {"manager": "tazuna"}]}})");
  const LiveOwner owner = OwnerOf(live);
  CHECK(owner.uid == "uid-1");
  CHECK(owner.manifest == "web");
  CHECK(owner.origin == "github.com/a/b:tazuna.yaml");
  CHECK(owner.tazuna_manager);
  CHECK(owner.managers == std::vector<std::string>{"tazuna", "kubectl-edit"});
  CHECK(OwnerOf(nlohmann::json::object()).uid.empty());
}

TEST_CASE("ownership: unchanged objects are listed once per kind and namespace; an unanswered LIST checks nothing") {
  // Manifest "m": ConfigMap x/new added, x/a and x/b unchanged, y/c unchanged, Namespace x unchanged.
  auto object = [](const std::string& key, const ObjectIdentity& id) {
    DesiredObject d;
    d.key = *ParseStateKey(key);
    d.key_string = key;
    d.identity = id;
    return d;
  };
  const ObjectIdentity added{"", "ConfigMap", "x", "new"}, a{"", "ConfigMap", "x", "a"}, b{"", "ConfigMap", "x", "b"},
      c{"", "ConfigMap", "y", "c"}, ns{"", "Namespace", "", "x"};
  SyncInput in;
  in.desired.name = "m";
  in.desired.objects = {object("m//v1/Namespace/x", ns), object("m//v1/ConfigMap/x/new", added),
                        object("m//v1/ConfigMap/x/a", a), object("m//v1/ConfigMap/x/b", b),
                        object("m//v1/ConfigMap/y/c", c)};
  in.diff = {{"m", ChangeType::kAdded, "m//v1/ConfigMap/x/new", in.desired.objects[1].key, "", "", "h", 1, added, true}};
  const std::vector<SyncInput> inputs = {in};
  const std::string list_x = R"({"kind":"PartialObjectMetadataList","metadata":{},"items":[)"
                             R"({"metadata":{"name":"a","uid":"uid-a"}},{"metadata":{"name":"other","uid":"uid-o"}}]})";
  const std::string forbidden = R"({"kind":"Status","status":"Failure","reason":"Forbidden","code":403,)"
                                R"("message":"configmaps is forbidden: User u cannot list configmaps"})";
  for (const auto unchanged : {UnchangedObjects::kSkip, UnchangedObjects::kList}) {
    const bool listed = unchanged == UnchangedObjects::kList;
    CAPTURE(listed);
    kube::testing::FakeClient server;
    server.transport.Add("GET /api/v1/namespaces/x/configmaps", 200, list_x);
    server.transport.Add("GET /api/v1/namespaces/y/configmaps", 403, forbidden, {{"Content-Type", "application/json"}});
    server.transport.Add("GET /api/v1/namespaces", 200, R"({"metadata":{},"items":[{"metadata":{"name":"x"}}]})");
    std::set<ObjectIdentity> unknown, unchecked;
    const LiveOwners live =
        ReadLiveOwners(*server.client, inputs, {OwnerRows::kApplies, nullptr, &unknown, unchanged, &unchecked}, server.log);
    int lists = 0;
    for (const auto& r : server.transport.requests) lists += r.url.find("/api/v1/namespaces") != std::string::npos;
    CHECK(lists == (listed ? 3 : 1));  // x's ConfigMaps serve the added row and the unchanged ones alike
    CHECK(live.count(a) == (listed ? 1 : 0));
    CHECK(live.count(b) == 0);  // listed and absent: gone
    CHECK(live.count(ns) == (listed ? 1 : 0));
    CHECK(unknown.empty());
    CHECK(unchecked == (listed ? std::set<ObjectIdentity>{c} : std::set<ObjectIdentity>{}));
    CHECK(server.err.str() ==
          (listed ? "Warning: cannot list ConfigMap to check that unchanged objects still exist (missing ones are not "
                    "repaired): configmaps is forbidden: User u cannot list configmaps\n"
                  : ""));
  }
}

}  // namespace tazuna::state
