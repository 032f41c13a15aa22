#include "state/store/store.hpp"

#include <doctest/doctest.h>

#include "state/store/state_key.hpp"

namespace tazuna::state {

TEST_CASE("store: _metadata is written in the Go tool's byte form") {
  CHECK(EncodeMetadata({"abc", "2026-01-02T03:04:05Z", {}, {}, {}, ""}) ==
        R"({"gitCommitHash":"abc","lastSyncedAt":"2026-01-02T03:04:05Z"})");
  CHECK(EncodeMetadata({"", "t", {}, {"tazuna-state-m.0a1b2c3d.1"}, {}, ""}) ==
        R"({"gitCommitHash":"","lastSyncedAt":"t","shards":["tazuna-state-m.0a1b2c3d.1"]})");
}

TEST_CASE("store: the origin follows the Go fields, which stay first") {
  CHECK(EncodeMetadata({"c", "t", {"github.com/org/platform", "clusters/prod/tazuna.yaml"}, {}, {}, ""}) ==
        R"({"gitCommitHash":"c","lastSyncedAt":"t","origin":{"path":"clusters/prod/tazuna.yaml","repository":"github.com/org/platform"}})");
  ManifestState back;
  REQUIRE(ParseData("tazuna-state-m",
                    {{"_metadata", R"({"gitCommitHash":"c","lastSyncedAt":"t","origin":{"path":"p","repository":"r"}})"}}, back));
  CHECK(back.metadata.origin == Origin{"r", "p"});
}

TEST_CASE("store: the origins a state was taken over from come last and read back") {
  const Metadata m{"c", "t", {"git.example/b", "tazuna.yaml"}, {}, {{"git.example/a", "x/tazuna.yaml"}}, ""};
  const std::string text = EncodeMetadata(m);
  CHECK(text == R"({"gitCommitHash":"c","lastSyncedAt":"t","origin":{"path":"tazuna.yaml","repository":"git.example/b"},)"
                R"("takenFrom":[{"path":"x/tazuna.yaml","repository":"git.example/a"}]})");
  ManifestState back;
  REQUIRE(ParseData("tazuna-state-m", {{"_metadata", text}}, back));
  CHECK(back.metadata == m);
  ManifestState bad;
  const auto st = ParseData("tazuna-state-m", {{"_metadata", R"({"takenFrom":"x"})"}}, bad);
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "configmap tazuna-state-m: _metadata takenFrom is not a list");
}

TEST_CASE("store: an origin that does not read as {repository, path} is an error, never no origin") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"origin":"github.com/org/a"})", "configmap tazuna-state-m: _metadata origin is not {repository, path}"},
      {R"({"origin":{"repository":7,"path":"p"}})", "configmap tazuna-state-m: _metadata origin is not {repository, path}"},
      {R"({"origin":{"repository":"r"}})", "configmap tazuna-state-m: _metadata origin is not {repository, path}"},
      {R"({"takenFrom":[{"repository":"r","path":[]}]})",
       "configmap tazuna-state-m: _metadata takenFrom is not {repository, path}"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.first);
    ManifestState back;
    const auto st = ParseData("tazuna-state-m", {{"_metadata", c.first}}, back);
    REQUIRE_FALSE(st);
    CHECK(st.error().message == c.second);
  }
  ManifestState go;  // the Go tool's state: no origin at all
  REQUIRE(ParseData("tazuna-state-m", {{"_metadata", R"({"gitCommitHash":"c","lastSyncedAt":"t"})"}}, go));
  CHECK(go.metadata.origin.empty());
}

TEST_CASE("store: the context namespace comes last, reads back, and must be a namespace name") {
  Metadata m{"c", "t", {}, {}, {}, "team-b"};
  const std::string text = EncodeMetadata(m);
  CHECK(text == R"({"gitCommitHash":"c","lastSyncedAt":"t","contextNamespace":"team-b"})");
  ManifestState back;
  REQUIRE(ParseData("tazuna-state-m", {{"_metadata", text}}, back));
  CHECK(back.metadata == m);
  for (const char* bad : {R"({"contextNamespace":"../x"})", R"({"contextNamespace":"a/b"})", R"({"contextNamespace":7})"}) {
    ManifestState out;
    CAPTURE(bad);
    const auto st = ParseData("tazuna-state-m", {{"_metadata", bad}}, out);
    REQUIRE_FALSE(st);
    CHECK(st.error().message.find("_metadata contextNamespace") != std::string::npos);
  }
}

TEST_CASE("store: a render record with its CRD scopes comes last and reads back; a malformed one reads as none") {
  Metadata m{"c", "t", {}, {}, {}, ""};
  m.render_digest = std::string(64, 'r');
  m.entries_digest = std::string(64, 'e');
  m.crd_scopes = {{"example.com/Widget", true}, {"example.com/Zone", false}};
  m.kind_scopes = {{"example.com/Zone", "Cluster"}, {"other.io/Thing", "Unknown"}};
  const std::string text = EncodeMetadata(m);
  CHECK(text == R"({"gitCommitHash":"c","lastSyncedAt":"t","renderDigest":")" + std::string(64, 'r') +
                    R"(","entriesDigest":")" + std::string(64, 'e') +
                    R"(","crdScopes":{"example.com/Widget":"Namespaced","example.com/Zone":"Cluster"},)" +
                    R"("kindScopes":{"example.com/Zone":"Cluster","other.io/Thing":"Unknown"}})");
  ManifestState back;
  REQUIRE(ParseData("tazuna-state-m", {{"_metadata", text}}, back));
  CHECK(back.metadata == m);
  for (const char* bad : {R"({"renderDigest":"r","crdScopes":{"g/K":true}})", R"({"renderDigest":"r","crdScopes":{"g/K":"x"}})",
                          R"({"renderDigest":"r","crdScopes":[]})", R"({"renderDigest":"r","kindScopes":{"g/K":"Maybe"}})",
                          R"({"renderDigest":"r","kindScopes":"x"})"}) {
    CAPTURE(bad);
    ManifestState out;
    REQUIRE(ParseData("tazuna-state-m", {{"_metadata", bad}}, out));  // the state reads; the record does not
    CHECK(out.metadata.render_digest.empty());
    CHECK(out.metadata.crd_scopes.empty());
    CHECK(out.metadata.kind_scopes.empty());
  }
  Metadata a, b;
  a.crd_scopes = {{"g/K", true}};
  b.crd_scopes = {{"g/K", false}};
  CHECK(EntriesDigest({{"k", "v"}}) != EntriesDigest({{"k", "v"}}, a));
  CHECK(EntriesDigest({{"k", "v"}}, a) != EntriesDigest({{"k", "v"}}, b));
  b.crd_scopes = a.crd_scopes;
  b.kind_scopes = {{"g/K", "Cluster"}};
  CHECK(EntriesDigest({{"k", "v"}}, a) != EntriesDigest({{"k", "v"}}, b));
}

TEST_CASE("store: small state is one ConfigMap with encoded keys and Go entry values") {
  const auto shards = BuildShards("web", {{"web//v1/ConfigMap/ns/a", std::string(64, 'a')}}, {"c", "t", {}, {}, {}, ""}, "g");
  REQUIRE(shards.size() == 1);
  CHECK(shards[0].at("web____v1__ConfigMap__ns__a") == R"({"contentHash":")" + std::string(64, 'a') + R"("})");
  CHECK(shards[0].at("_metadata") == R"({"gitCommitHash":"c","lastSyncedAt":"t"})");
}

TEST_CASE("store: large state spills into shards under the size limit and parses back") {
  std::map<std::string, std::string> entries;
  for (int i = 0; i < 9000; ++i) {
    entries["m//v1/ConfigMap/ns/object-with-a-long-enough-name-" + std::to_string(i)] = std::string(64, 'f');
  }
  entries["m//v1/ConfigMap/ns/" + std::string(300, 'x')] = std::string(64, 'e');  // over 253 bytes
  const auto shards = BuildShards("m", entries, {"c", "t", {}, {}, {}, ""}, "0a1b2c3d");
  CHECK(shards.size() >= 2);
  ManifestState back;
  for (size_t i = 0; i < shards.size(); ++i) {
    size_t bytes = 0;
    for (const auto& [k, v] : shards[i]) bytes += k.size() + v.size();
    CHECK(bytes <= kShardBytes + 1024);
    for (const auto& [k, v] : shards[i]) CHECK(k.size() <= kMaxDataKeyLength);
    const std::string name = i == 0 ? ConfigMapName("m") : ShardName("m", "0a1b2c3d", static_cast<int>(i));
    REQUIRE(ParseData(name, nlohmann::json(shards[i]), back));
  }
  CHECK(back.entries == entries);
  REQUIRE(back.metadata.shards.size() == shards.size() - 1);
  CHECK(back.metadata.shards[0] == "tazuna-state-m.0a1b2c3d.1");
}

TEST_CASE("store: the base ConfigMap leaves room for a large render record in its _metadata") {
  std::map<std::string, std::string> entries;
  for (int i = 0; i < 9000; ++i) entries["m//v1/ConfigMap/ns/object-" + std::to_string(i)] = std::string(64, 'f');
  Metadata m{"c", "t", {}, {}, {}, ""};
  m.render_digest = std::string(64, 'r');
  m.entries_digest = std::string(64, 'e');
  for (int i = 0; i < 3000; ++i) m.kind_scopes["group-" + std::to_string(i) + ".example.com/Kind"] = "Namespaced";
  const auto shards = BuildShards("m", entries, m, "0a1b2c3d");
  REQUIRE(shards.size() >= 2);
  CHECK(shards[0].at("_metadata").size() > 100 * 1024);
  for (const auto& shard : shards) {
    size_t bytes = 0;
    for (const auto& [k, v] : shard) bytes += k.size() + v.size();
    CHECK(bytes <= kShardBytes + 1024);
  }
}

TEST_CASE("store: _metadata names shards: the older count form, and never another manifest's ConfigMap") {
  ManifestState legacy;
  REQUIRE(ParseData("tazuna-state-app", {{"_metadata", R"({"gitCommitHash":"","lastSyncedAt":"t","shards":2})"}}, legacy));
  CHECK(legacy.metadata.shards == std::vector<std::string>{"tazuna-state-app-1", "tazuna-state-app-2"});
  ManifestState foreign;
  const auto st = ParseData("tazuna-state-app",
                            {{"_metadata", R"({"gitCommitHash":"","lastSyncedAt":"t","shards":["tazuna-state-app-1"]})"}},
                            foreign);
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "configmap tazuna-state-app: _metadata names a foreign shard");
  CHECK(ShardName("app", "0a1b2c3d", 1).find('.') != std::string::npos);  // '.' is never in a manifest name
}

TEST_CASE("store: a corrupt entry names the ConfigMap and key") {
  ManifestState s;
  const auto st = ParseData("tazuna-state-m", {{"m____v1__ConfigMap__c", "not json"}}, s);
  REQUIRE_FALSE(st);
  CHECK(st.error().message.rfind("configmap tazuna-state-m key m____v1__ConfigMap__c: ", 0) == 0);
}

TEST_CASE("store: a data key with control characters stays on one line in the error (found by fuzzing)") {
  ManifestState s;
  const auto st = ParseData("tazuna-state-m", {{"m____v1__ConfigMap__a\nb", "not json"}}, s);
  REQUIRE_FALSE(st);
  CHECK(st.error().message.rfind("configmap tazuna-state-m key \"m____v1__ConfigMap__a\\nb\": ", 0) == 0);
  CHECK(st.error().message.find('\n') == std::string::npos);
}

TEST_CASE("store: state edited by hand is an input error naming the ConfigMap and key, never an exception") {
  const std::string hash(64, 'a');
  const std::string entry = R"({"contentHash":")" + hash + R"("})";
  struct {
    const char* what;
    nlohmann::json data;
    std::string want;
  } const cases[] = {
      {"entry of another manifest", {{"other____v1__ConfigMap__ns__a", entry}},
       "configmap tazuna-state-m key other____v1__ConfigMap__ns__a: state key \"other//v1/ConfigMap/ns/a\" belongs to "
       "manifest \"other\", not \"m\""},
      {"not a state key", {{"hello", entry}},
       "configmap tazuna-state-m key hello: invalid state key \"hello\": want 5 or 6 '/'-separated parts, got 1"},
      {"short hash", {{"m____v1__ConfigMap__ns__a", R"({"contentHash":"abc"})"}},
       "configmap tazuna-state-m key m____v1__ConfigMap__ns__a: invalid state entry "
       "\"{\\\"contentHash\\\":\\\"abc\\\"}\": contentHash \"abc\" is not 64 lowercase hex digits"},
      {"commit not a string", {{"_metadata", R"({"gitCommitHash":1,"lastSyncedAt":"t"})"}},
       "configmap tazuna-state-m: _metadata gitCommitHash is not a string"},
      {"time not a string", {{"_metadata", R"({"gitCommitHash":"","lastSyncedAt":[]})"}},
       "configmap tazuna-state-m: _metadata lastSyncedAt is not a string"},
      {"shards of another type", {{"_metadata", R"({"gitCommitHash":"","lastSyncedAt":"t","shards":"x"})"}},
       "configmap tazuna-state-m: _metadata shards is not a list of names"},
      {"fractional shard count", {{"_metadata", R"({"gitCommitHash":"","lastSyncedAt":"t","shards":1.5})"}},
       "configmap tazuna-state-m: _metadata shards is not a list of names"},
      {"metadata not JSON", {{"_metadata", "{"}}, "configmap tazuna-state-m: _metadata is not a JSON object"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.what);
    ManifestState s;
    s.manifest = "m";
    const auto st = ParseData("tazuna-state-m", c.data, s);
    REQUIRE_FALSE(st);
    CHECK(st.error().kind == util::ErrorKind::kInput);
    CHECK(st.error().message == c.want);
  }
  // The Go tool's own form, a null commit and an unconfirmed (empty) hash still read.
  ManifestState ok;
  ok.manifest = "m";
  REQUIRE(ParseData("tazuna-state-m",
                    {{"m____v1__ConfigMap__ns__a", entry}, {"m____v1__ConfigMap__ns__b", R"({"contentHash":""})"},
                     {"_metadata", R"({"gitCommitHash":null,"lastSyncedAt":"t"})"}},
                    ok));
  CHECK(ok.entries.size() == 2);
}

}  // namespace tazuna::state

#include <sstream>

#include "../../kube/fakes.hpp"
#include "state/store/lease.hpp"
#include "state/store/secret_key.hpp"

namespace tazuna::state {
namespace {

using kube::testing::FakeClock;
using kube::testing::FakeProcesses;
using kube::testing::FakeTransport;

constexpr char kApisLeases[] =
    R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"coordination.k8s.io"},"versions":[)"
    R"({"version":"v1","resources":[{"resource":"leases","responseKind":{"kind":"Lease"},"scope":"Namespaced"}]}]}]})";

struct Server : kube::testing::FakeClientIo {
  kube::RestConfig config;
  Server() {
    config.server = "https://k.example:6443";
    config.token = "t";
    transport.Add("GET /api", 200, kube::testing::kCoreDiscovery, {{"Content-Type", kube::testing::kAggregatedDiscovery}});
    transport.Add("GET /apis", 200, kApisLeases, {{"Content-Type", kube::testing::kAggregatedDiscovery}});
  }
};

TEST_CASE("store: a state ConfigMap or shard of the wrong shape is an error naming it (issue 25)") {
  const std::string base = "GET /api/v1/namespaces/tazuna/configmaps/tazuna-state-m";
  const std::string shard = "GET /api/v1/namespaces/tazuna/configmaps/tazuna-state-m.0a1b2c3d.1";
  const std::string names_shard = R"({"metadata":{"resourceVersion":"1"},"data":{"_metadata":)"
                                  R"("{\"gitCommitHash\":\"\",\"lastSyncedAt\":\"t\",\"shards\":[\"tazuna-state-m.0a1b2c3d.1\"]}"}})";
  struct Case {
    std::string name, base_body, shard_body, want;
  };
  const std::vector<Case> cases = {
      {"base not an object", "[1]", "", "configmap tazuna/tazuna-state-m is not a ConfigMap object"},
      {"metadata a string", R"({"metadata":"x"})", "", "configmap tazuna/tazuna-state-m is not a ConfigMap object"},
      {"data a list", R"({"metadata":{},"data":[1]})", "", "configmap tazuna-state-m: data is not a map"},
      {"a value not a string", R"({"metadata":{},"data":{"m____v1__ConfigMap__c":5}})", "",
       "configmap tazuna-state-m key m____v1__ConfigMap__c: value is not a string"},
      // It cleared the list of shards Read was walking (use after free under ASan).
      {"a shard carrying _metadata", names_shard,
       R"({"metadata":{},"data":{"_metadata":"{\"gitCommitHash\":\"\",\"lastSyncedAt\":\"t\"}"}})",
       "configmap tazuna/tazuna-state-m.0a1b2c3d.1 is a spill shard but carries _metadata"},
      {"a shard not an object", names_shard, R"("x")",
       "configmap tazuna/tazuna-state-m.0a1b2c3d.1 is not a ConfigMap object"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Server s;
    s.transport.Add(base, 200, c.base_body);
    if (!c.shard_body.empty()) s.transport.Add(shard, 200, c.shard_body);
    kube::Client client(s.config, s.transport, s.procs, s.log, s.clock, s.env);
    StateStore store(client);
    auto state = store.Read("m");
    REQUIRE_FALSE(state);
    CHECK(state.error().message == c.want);
  }
}

TEST_CASE("lease: a Lease of the wrong shape never throws (issue 25)") {
  for (const std::string body : {R"("x")", R"({"spec":"x","metadata":[1]})",
                                 R"({"spec":{"holderIdentity":5,"leaseDurationSeconds":1e300},"metadata":{}})",
                                 R"({"spec":{"holderIdentity":"other","leaseDurationSeconds":9223372036854775807}})"}) {
    CAPTURE(body);
    Server s;
    s.transport.Add("GET /apis/coordination.k8s.io/v1/namespaces/tazuna/leases/tazuna-sync", 200, body);
    s.transport.Add("PUT /apis/coordination.k8s.io/v1/namespaces/tazuna/leases/tazuna-sync", 200, body);
    kube::Client client(s.config, s.transport, s.procs, s.log, s.clock, s.env);
    LockOptions o;
    o.holder = "me";
    o.wait = std::chrono::milliseconds(0);
    auto lock = SyncLock::Acquire(client, s.clock, s.log, o);
    if (!lock) CHECK(lock.error().message.find('\n') == std::string::npos);
  }
}

TEST_CASE("lease: a holder's lease without leaseDurationSeconds is waited for as ours would be, never taken at once") {
  const std::string body = R"({"metadata":{"resourceVersion":"7"},"spec":{"holderIdentity":"someone-else"}})";
  Server s;
  s.transport.Add("GET /apis/coordination.k8s.io/v1/namespaces/tazuna/leases/tazuna-sync", 200, body);
  s.transport.Add("PUT /apis/coordination.k8s.io/v1/namespaces/tazuna/leases/tazuna-sync", 200, body);
  kube::Client client(s.config, s.transport, s.procs, s.log, s.clock, s.env);
  LockOptions o;
  o.holder = "me";
  o.wait = std::chrono::milliseconds(0);
  auto lock = SyncLock::Acquire(client, s.clock, s.log, o);
  REQUIRE_FALSE(lock);
  CHECK(lock.error().kind == util::ErrorKind::kConflict);
  for (const auto& r : s.transport.requests) CHECK(r.method != "PUT");
}

TEST_CASE("secret key: a Secret's stored hash is never shown, other kinds' are (issue 25)") {
  const std::string h(64, 'a');
  CHECK(ShownHash("m//v1/Secret/ns/s", h).empty());
  CHECK(ShownHash("m//v1/ConfigMap/ns/c", h) == h);
  CHECK(ShownHash("m/example.com/v1/Secret/ns/s", h) == h);
  CHECK(ShownHash("not a key", h) == h);
}

}  // namespace
}  // namespace tazuna::state
