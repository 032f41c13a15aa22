#include "state/store/identity.hpp"

#include <doctest/doctest.h>

namespace tazuna::state {

namespace {

// Discovery as canned answers: "apiVersion/Kind" -> namespaced; anything else unknown.
struct FakeDiscovery : manifest::ScopeLookup {
  std::map<std::string, bool> known;
  std::optional<bool> IsNamespaced(const std::string& api_version, const std::string& kind) override {
    auto it = known.find(api_version + "/" + kind);
    if (it == known.end()) return std::nullopt;
    return it->second;
  }
};

StateKey Key(const std::string& text) {
  auto k = ParseStateKey(text);
  REQUIRE(k);
  return *k;
}

nlohmann::json Crd(const std::string& group, const std::string& kind, const std::string& scope) {
  return {{"apiVersion", "apiextensions.k8s.io/v1"},
          {"kind", "CustomResourceDefinition"},
          {"metadata", {{"name", "x." + group}}},
          {"spec", {{"group", group}, {"scope", scope}, {"names", {{"kind", kind}}}}}};
}

}  // namespace

TEST_CASE("identity: keys resolve to where the object is applied") {
  FakeDiscovery discovery;
  discovery.known = {{"example.io/v1/Widget", false}, {"v1/ConfigMap", true}, {"example.io/v1/Gadget", true}};
  IdentityResolver ids(&discovery, "ctx-ns");
  ids.AddCrds({Crd("crd.io", "Cluster", "Cluster"), Crd("crd.io", "Local", "Namespaced")});
  struct Case {
    const char* key;
    ObjectIdentity want;
  };
  const Case cases[] = {
      // Built-in table: a cluster-scoped kind has no namespace, whatever the key says (Go's 6-part keys).
      {"m/rbac.authorization.k8s.io/v1/ClusterRole/default/admin", {"rbac.authorization.k8s.io", "ClusterRole", "", "admin"}},
      {"m/rbac.authorization.k8s.io/v1/ClusterRole/admin", {"rbac.authorization.k8s.io", "ClusterRole", "", "admin"}},
      // Namespaced: the key's namespace, else the context's.
      {"m//v1/ConfigMap/web/cfg", {"", "ConfigMap", "web", "cfg"}},
      {"m//v1/ConfigMap/cfg", {"", "ConfigMap", "ctx-ns", "cfg"}},
      // Discovery wins; the version is not part of the identity.
      {"m/example.io/v1/Widget/ns/w", {"example.io", "Widget", "", "w"}},
      {"m/example.io/v1/Gadget/g", {"example.io", "Gadget", "ctx-ns", "g"}},
      // CRDs rendered in this run, for kinds discovery does not know yet.
      {"m/crd.io/v1/Cluster/default/c", {"crd.io", "Cluster", "", "c"}},
      {"m/crd.io/v1/Local/l", {"crd.io", "Local", "ctx-ns", "l"}},
      // Unknown kinds count as namespaced, as rendering does.
      {"m/unknown.io/v1/Thing/t", {"unknown.io", "Thing", "ctx-ns", "t"}},
      {"m/unknown.io/v1/Thing/other/t", {"unknown.io", "Thing", "other", "t"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.key);
    CHECK(ids.Resolve(Key(c.key)) == c.want);
  }
}

TEST_CASE("identity: apiVersions of one group/kind are one identity; another group is another") {
  IdentityResolver ids(nullptr, "default");
  CHECK(ids.Resolve(Key("m/example.io/v1/Gadget/ns/g")) == ids.Resolve(Key("n/example.io/v2/Gadget/ns/g")));
  CHECK(ids.Resolve(Key("m//v1/Event/ns/e")) != ids.Resolve(Key("m/events.k8s.io/v1/Event/ns/e")));
}

TEST_CASE("identity: Describe names kind, group, namespace and name") {
  CHECK(ObjectIdentity{"", "ConfigMap", "default", "x"}.Describe() == "ConfigMap default/x");
  CHECK(ObjectIdentity{"rbac.authorization.k8s.io", "ClusterRole", "", "admin"}.Describe() ==
        "ClusterRole.rbac.authorization.k8s.io admin");
}

}  // namespace tazuna::state
