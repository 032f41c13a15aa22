#include "state/diff/diff.hpp"

#include <doctest/doctest.h>

namespace tazuna::state {

namespace {

// No discovery: scopes from the built-in table; the context namespace is "ctx".
IdentityResolver& Ids() {
  static IdentityResolver ids(nullptr, "ctx");
  return ids;
}

DesiredObject Obj(const std::string& manifest, const std::string& api_version, const std::string& kind,
                  const std::string& ns, const std::string& name, const std::string& hash) {
  nlohmann::json o = {{"apiVersion", api_version}, {"kind", kind}, {"metadata", {{"name", name}}}};
  if (!ns.empty()) o["metadata"]["namespace"] = ns;
  DesiredObject d;
  d.key = KeyFor(manifest, o);
  d.key_string = d.key.ToString();
  d.identity = Ids().Resolve(d.key);
  d.hash = hash;
  d.object = o;
  return d;
}

std::string Rows(const std::vector<DiffEntry>& entries) {
  std::string out;
  for (const auto& e : entries) out += std::string(ChangeTypeName(e.type)) + " " + e.key + "\n";
  return out;
}

}  // namespace

TEST_CASE("diff: added, modified, removed, unchanged; sorted by type then key") {
  DesiredManifest d{"web", false, {Obj("web", "v1", "ConfigMap", "ns", "b", "h1"), Obj("web", "v1", "ConfigMap", "ns", "a", "h2"),
                                   Obj("web", "v1", "ConfigMap", "ns", "same", "h3")}};
  ManifestState s;
  s.entries = {{"web//v1/ConfigMap/ns/a", "old"}, {"web//v1/ConfigMap/ns/same", "h3"}, {"web//v1/ConfigMap/ns/gone", "h9"}};
  const auto entries = Diff(d, s, Ids());
  CHECK(Rows(entries) ==
        "added web//v1/ConfigMap/ns/b\nmodified web//v1/ConfigMap/ns/a\nremoved web//v1/ConfigMap/ns/gone\n");
  CHECK(entries[1].old_hash == "old");
  CHECK(entries[1].new_hash == "h2");
  CHECK(entries[2].old_hash == "h9");
}

TEST_CASE("diff: an apiVersion change of the same group/kind/namespace/name is one modified row") {
  DesiredManifest d{"m", false, {Obj("m", "example.io/v2", "Gadget", "ns", "g", "new")}};
  ManifestState s;
  s.entries = {{"m/example.io/v1/Gadget/ns/g", "old"}};
  const auto entries = Diff(d, s, Ids());
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].type == ChangeType::kModified);
  CHECK(entries[0].key == "m/example.io/v2/Gadget/ns/g");
  CHECK(entries[0].old_key == "m/example.io/v1/Gadget/ns/g");
}

TEST_CASE("diff: genesissecret objects are always-sync; a pending (empty) hash reads as modified") {
  DesiredManifest d{"sec", true, {Obj("sec", "v1", "Secret", "ns", "s", "h")}};
  CHECK(Rows(Diff(d, {}, Ids())) == "always-sync sec//v1/Secret/ns/s\n");
  DesiredManifest p{"m", false, {Obj("m", "v1", "ConfigMap", "", "c", "h")}};
  ManifestState s;
  s.entries = {{"m//v1/ConfigMap/c", ""}};
  CHECK(Rows(Diff(p, s, Ids())) == "modified m//v1/ConfigMap/c\n");
}

TEST_CASE("diff: nothing changed gives no rows") {
  DesiredManifest d{"m", false, {Obj("m", "v1", "ConfigMap", "ns", "c", "h")}};
  ManifestState s;
  s.entries = {{"m//v1/ConfigMap/ns/c", "h"}};
  CHECK(Diff(d, s, Ids()).empty());
}

TEST_CASE("diff: keys that differ only in the namespace segment are one object under the stored key") {
  // The Go tool's 6-part key of a ClusterRole (defaultNamespace set on it), and a namespace that came
  // from the context: paired, and the stored key string is kept as written.
  DesiredManifest d{"m", false, {Obj("m", "rbac.authorization.k8s.io/v1", "ClusterRole", "", "admin", "h1"),
                                 Obj("m", "v1", "ConfigMap", "", "cfg", "h2")}};
  ManifestState s;
  s.entries = {{"m/rbac.authorization.k8s.io/v1/ClusterRole/default/admin", "h1"}, {"m//v1/ConfigMap/ctx/cfg", "old"}};
  const auto entries = Diff(d, s, Ids());
  CHECK(Rows(entries) == "modified m//v1/ConfigMap/ctx/cfg\n");
  CHECK(entries[0].old_key.empty());
  CHECK(entries[0].object_index == 1);
}

TEST_CASE("diff: a second stored key of a rendered object is removed; its partner is the exact key") {
  DesiredManifest d{"m", false, {Obj("m", "rbac.authorization.k8s.io/v1", "ClusterRole", "", "admin", "h")}};
  ManifestState s;
  s.entries = {{"m/rbac.authorization.k8s.io/v1/ClusterRole/admin", "h"},
               {"m/rbac.authorization.k8s.io/v1/ClusterRole/default/admin", "h"}};
  const auto entries = Diff(d, s, Ids());
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].type == ChangeType::kRemoved);
  CHECK(entries[0].key == "m/rbac.authorization.k8s.io/v1/ClusterRole/default/admin");
  CHECK(entries[0].identity == d.objects[0].identity);  // prune sees it is still rendered
}

TEST_CASE("diff: another namespace or another group is another object") {
  DesiredManifest d{"m", false, {Obj("m", "v1", "ConfigMap", "a", "c", "h"), Obj("m", "events.k8s.io/v1", "Event", "a", "e", "h")}};
  ManifestState s;
  s.entries = {{"m//v1/ConfigMap/b/c", "h"}, {"m//v1/Event/a/e", "h"}};
  CHECK(Rows(Diff(d, s, Ids())) ==
        "added m//v1/ConfigMap/a/c\nadded m/events.k8s.io/v1/Event/a/e\nremoved m//v1/ConfigMap/b/c\n"
        "removed m//v1/Event/a/e\n");
}

TEST_CASE("diff: an unparsable stored key is a removed row marked invalid") {
  ManifestState s;
  s.entries = {{"m/bad", "h"}};
  const auto entries = Diff(DesiredManifest{"m", false, {}}, s, Ids());
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].type == ChangeType::kRemoved);
  CHECK_FALSE(entries[0].valid_key);
}

TEST_CASE("diff: a Secret whose hash needs a key never reads as unchanged") {
  DesiredManifest d{"m", false, {Obj("m", "v1", "Secret", "ns", "s", "")}};
  ManifestState s;
  s.entries = {{"m//v1/Secret/ns/s", ""}};  // equal (empty) hashes must not count as unchanged
  d.objects[0].hash_state = HashState::kNoKey;
  CHECK(Rows(Diff(d, s, Ids())) == "modified m//v1/Secret/ns/s\n");
  d.objects[0].hash_state = HashState::kUnreadable;
  CHECK(Rows(Diff(d, s, Ids())) == "always-sync m//v1/Secret/ns/s\n");
  CHECK(Rows(Diff(d, {}, Ids())) == "always-sync m//v1/Secret/ns/s\n");
}

}  // namespace tazuna::state

namespace tazuna::state {

// Scopes as a cluster's discovery tells them: ConfigMaps and Secrets namespaced, ClusterRoles not, and
// nothing known about example.io's Gadgets (not served, no CRD).
class Scopes : public manifest::ScopeLookup {
 public:
  std::optional<bool> IsNamespaced(const std::string& api_version, const std::string& kind) override {
    if (api_version == "example.io/v1") return std::nullopt;
    return kind == "ConfigMap" || kind == "Secret";
  }
};

IdentityResolver& ServedIds() {
  static Scopes scopes;
  static IdentityResolver ids(&scopes, "ctx");
  return ids;
}

TEST_CASE("relocate: namespace-less keys of a state recorded in another context namespace move to 6-part keys") {
  ManifestState s;
  s.metadata.context_namespace = "old";  // the context namespace is "ctx"
  s.entries = {{"m//v1/ConfigMap/cm", "h1"},                                   // namespaced: moves
               {"m/rbac.authorization.k8s.io/v1/ClusterRole/admin", "h2"},    // cluster-scoped: stays
               {"m//v1/ConfigMap/team/explicit", "h3"},                        // names its namespace: stays
               {"m//v1/Secret/both", "h4"}, {"m//v1/Secret/old/both", "h5"},  // both forms stored
               {"m//v1/ConfigMap/x?dryRun=All", "h6"}};                        // unreachable: never a request
  const auto relocated = RelocateStored(s, ServedIds());
  REQUIRE(relocated);
  const auto& moves = *relocated;
  REQUIRE(moves.size() == 2);
  CHECK(moves[0].from == "m//v1/ConfigMap/cm");
  CHECK(moves[0].to == "m//v1/ConfigMap/old/cm");
  CHECK(moves[0].hash == "h1");
  CHECK(moves[1].from == "m//v1/Secret/both");
  CHECK(moves[1].hash == "h5");  // the explicit key's own entry stands
  CHECK(s.entries == std::map<std::string, std::string>{{"m//v1/ConfigMap/old/cm", "h1"},
                                                        {"m/rbac.authorization.k8s.io/v1/ClusterRole/admin", "h2"},
                                                        {"m//v1/ConfigMap/team/explicit", "h3"},
                                                        {"m//v1/Secret/old/both", "h5"},
                                                        {"m//v1/ConfigMap/x?dryRun=All", "h6"}});
}

TEST_CASE("relocate: nothing moves for the same namespace or a state that recorded none (the Go tool's)") {
  ManifestState s;
  s.entries = {{"m//v1/ConfigMap/cm", "h1"}, {"m/example.io/v1/Gadget/g", "h2"}};
  CHECK(RelocateStored(s, ServedIds())->empty());
  s.metadata.context_namespace = "ctx";
  CHECK(RelocateStored(s, ServedIds())->empty());
  CHECK(s.entries.count("m//v1/ConfigMap/cm") == 1);
}

TEST_CASE("relocate: a namespace-less key of a kind nobody can scope fails closed (it is never guessed)") {
  ManifestState s;
  s.manifest = "m";
  s.metadata.context_namespace = "old";
  s.entries = {{"m//v1/ConfigMap/cm", "h1"}, {"m/example.io/v1/Gadget/g", "h2"}};
  const auto relocated = RelocateStored(s, ServedIds());
  REQUIRE_FALSE(relocated);
  CHECK(relocated.error().message ==
        "manifest \"m\": cannot tell whether Gadget example.io/v1 is namespaced (the server does not serve it): its "
        "objects without a namespace were synced into namespace \"old\", this run's is \"ctx\"; run with -n old, or "
        "once its CustomResourceDefinition is served");
}

// The diff of one ConfigMap `cm` rendered into `ns` ("" : none) against a state synced with -n old that
// recorded it under the namespace-less key; the context namespace is now ctx.
std::vector<DiffEntry> DiffAfterContextChange(const std::string& ns) {
  DesiredManifest d{"m", false, {Obj("m", "v1", "ConfigMap", ns, "cm", "h1")}};
  ManifestState s;
  s.metadata.context_namespace = "old";
  s.entries = {{"m//v1/ConfigMap/cm", "h1"}};
  REQUIRE(RelocateStored(s, ServedIds()));
  return Diff(d, s, ServedIds());
}

TEST_CASE("diff: an object whose namespace came from a context namespace that changed is a move") {
  const auto moved = DiffAfterContextChange("");
  CHECK(Rows(moved) == "added m//v1/ConfigMap/cm\nremoved m//v1/ConfigMap/old/cm\n");
  CHECK(moved[0].identity.namespace_name == "ctx");
  CHECK(moved[1].identity.namespace_name == "old");
  CHECK(moved[1].old_hash == "h1");
  // Rendered into the namespace the state recorded: the same object, unchanged under the moved key.
  CHECK(DiffAfterContextChange("old").empty());
}

}  // namespace tazuna::state
