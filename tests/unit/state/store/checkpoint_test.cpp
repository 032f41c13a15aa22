#include "state/store/checkpoint.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>

#include "../../kube/fakes.hpp"

namespace tazuna::state {
namespace {

std::string ConfigMap(const std::string& rv, const nlohmann::json& data) {
  return nlohmann::json({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                         {"metadata", {{"name", "tazuna-state-m"}, {"namespace", "tazuna"}, {"resourceVersion", rv}}},
                         {"data", data}})
      .dump();
}

// A client whose discovery and namespace `tazuna` answer; each test adds the state requests it expects.
struct Cluster : kube::testing::FakeClient {
  Cluster() {
    transport.Add("GET /api/v1/namespaces/tazuna", 200, R"({"kind":"Namespace","metadata":{"name":"tazuna"}})");
    // The once-per-store search for shards a killed write left behind finds none.
    transport.Add("GET /api/v1/namespaces/tazuna/configmaps", 200, R"({"kind":"List","metadata":{},"items":[]})");
  }
  /// How many state writes (PUT) were sent.
  long Puts() const {
    return std::count_if(transport.requests.begin(), transport.requests.end(), [](const auto& r) { return r.method == "PUT"; });
  }
  /// The `_metadata` of the last state written.
  nlohmann::json LastMetadata() const {
    auto put = std::find_if(transport.requests.rbegin(), transport.requests.rend(),
                            [](const auto& r) { return r.method == "PUT"; });
    if (put == transport.requests.rend()) return nullptr;
    return nlohmann::json::parse(nlohmann::json::parse(put->body)["data"]["_metadata"].get<std::string>());
  }
};

// Three writes of manifest m's state succeed (resourceVersions 2, 3, 4).
void ThreePuts(Cluster& c) {
  for (const char* rv : {"2", "3", "4"}) {
    c.transport.Add("PUT /api/v1/namespaces/tazuna/configmaps/tazuna-state-m", 200, ConfigMap(rv, {}));
  }
}

// The state of manifest m as read at resourceVersion 1.
ManifestState ReadAtVersion1() {
  ManifestState start;
  start.manifest = "m";
  start.objects = {{"tazuna-state-m", "1"}};
  return start;
}

}  // namespace

TEST_CASE("checkpoint: a conflicting writer is merged, not overwritten") {
  const std::string theirs = R"({"contentHash":")" + std::string(64, 'e') + R"("})";
  Cluster c;
  kube::testing::FakeTransport& transport = c.transport;
  // Our first write loses to another writer (409); the re-read shows its entry; the second write wins.
  transport.Add("PUT /api/v1/namespaces/tazuna/configmaps/tazuna-state-m", 409,
                R"({"kind":"Status","reason":"Conflict","message":"the object has been modified","code":409})");
  transport.Add("PUT /api/v1/namespaces/tazuna/configmaps/tazuna-state-m", 200, ConfigMap("3", {}));
  transport.Add("GET /api/v1/namespaces/tazuna/configmaps/tazuna-state-m", 200,
                ConfigMap("2", {{"m____v1__ConfigMap__other", theirs}}));
  StateStore store(*c.client);
  Checkpointer cp(store, c.clock, std::chrono::milliseconds(0));
  cp.Track(ReadAtVersion1());
  cp.Set("m", "m//v1/ConfigMap/mine", "ours");
  cp.SetContextNamespace("m", "team-b");
  Metadata final_meta;
  final_meta.render_digest = std::string(64, 'n');  // our render: no longer what the merged state records
  cp.SetMetadata("m", final_meta);
  REQUIRE(cp.FlushAll());
  CHECK_FALSE(c.LastMetadata().contains("renderDigest"));
  auto put = std::find_if(transport.requests.rbegin(), transport.requests.rend(),
                          [](const auto& r) { return r.method == "PUT"; });
  REQUIRE(put != transport.requests.rend());
  const auto& last = *put;
  const auto body = nlohmann::json::parse(last.body);
  CHECK(body["metadata"]["resourceVersion"] == "2");  // conditional on the state it re-read
  CHECK(body["data"]["m____v1__ConfigMap__other"] == theirs);
  CHECK(body["data"]["m____v1__ConfigMap__mine"] == R"({"contentHash":"ours"})");
  // The context namespace is recorded by the write made after the merge too.
  CHECK(nlohmann::json::parse(body["data"]["_metadata"].get<std::string>())["contextNamespace"] == "team-b");
  CHECK(cp.writes() == 1);
}

TEST_CASE("checkpoint: a render digest is written only by the final write, with the entries it leaves") {
  Cluster c;
  for (const char* rv : {"2", "3"}) {
    c.transport.Add("PUT /api/v1/namespaces/tazuna/configmaps/tazuna-state-m", 200, ConfigMap(rv, {}));
  }
  StateStore store(*c.client);
  Checkpointer cp(store, c.clock, std::chrono::milliseconds(0));
  ManifestState start = ReadAtVersion1();
  start.metadata.render_digest = std::string(64, 'o');  // recorded by an earlier sync
  start.metadata.crd_scopes = {{"example.com/Widget", true}};
  start.metadata.kind_scopes = {{"example.com/Widget", "Namespaced"}};
  start.metadata.entries_digest = EntriesDigest(start.entries, start.metadata);
  cp.Track(start);
  cp.Set("m", "m//v1/ConfigMap/a", "");  // an intent: the earlier render is no longer what the state holds
  REQUIRE(cp.FlushAll());
  CHECK_FALSE(c.LastMetadata().contains("renderDigest"));
  CHECK_FALSE(c.LastMetadata().contains("crdScopes"));
  CHECK_FALSE(c.LastMetadata().contains("kindScopes"));
  cp.Set("m", "m//v1/ConfigMap/a", std::string(64, '1'));
  Metadata final_meta;
  final_meta.render_digest = std::string(64, 'n');
  final_meta.crd_scopes = {{"example.com/Zone", false}};
  cp.SetMetadata("m", final_meta);
  REQUIRE(cp.FlushAll());
  const auto meta = c.LastMetadata();
  CHECK(meta["renderDigest"] == std::string(64, 'n'));
  CHECK(meta["crdScopes"] == nlohmann::json{{"example.com/Zone", "Cluster"}});
  CHECK(meta["entriesDigest"] == EntriesDigest({{"m//v1/ConfigMap/a", std::string(64, '1')}}, final_meta));
}

TEST_CASE("checkpoint: confirmations are written once they reach a quarter of the state; intents at once") {
  Cluster c;
  ThreePuts(c);
  const auto puts = [&] { return c.Puts(); };
  StateStore store(*c.client);
  Checkpointer cp(store, c.clock, std::chrono::milliseconds(0));
  cp.Track(ReadAtVersion1());
  for (int i = 0; i < 8; ++i) cp.Set("m", "m//v1/ConfigMap/c" + std::to_string(i), "");  // intents
  REQUIRE(cp.MaybeFlush());
  CHECK(puts() == 1);  // an empty state is rewritten for any change
  const auto next_round = [&] { c.clock.now += std::chrono::seconds(1); };  // past every round's interval
  cp.Set("m", "m//v1/ConfigMap/c0", std::string(64, '0'));
  next_round();
  REQUIRE(cp.MaybeFlush());
  CHECK(puts() == 1);  // one confirmation of eight entries: not yet
  cp.Set("m", "m//v1/ConfigMap/c1", std::string(64, '1'));
  next_round();
  REQUIRE(cp.MaybeFlush());
  CHECK(puts() == 2);  // two of eight: a quarter
  cp.Set("m", "m//v1/ConfigMap/c2", std::string(64, '2'));
  REQUIRE(cp.FlushAll());  // the intent and final flushes write any change
  CHECK(puts() == 3);
  const auto body = nlohmann::json::parse(c.transport.requests.back().body);
  CHECK(body["data"]["m____v1__ConfigMap__c2"] == R"({"contentHash":")" + std::string(64, '2') + R"("})");
  CHECK(body["data"]["m____v1__ConfigMap__c7"] == R"({"contentHash":""})");
  CHECK(cp.writes() == 3);
}

TEST_CASE("checkpoint: rounds of confirmations wait longer as the states grow (1 ms per entry)") {
  Cluster c;
  ThreePuts(c);
  const auto puts = [&] { return c.Puts(); };
  StateStore store(*c.client);
  Checkpointer cp(store, c.clock, std::chrono::milliseconds(500));
  ManifestState start = ReadAtVersion1();
  for (int i = 0; i < 3000; ++i) start.entries["m//v1/ConfigMap/c" + std::to_string(i)] = std::string(64, 'a');
  cp.Track(start);
  int changed = 0;
  const auto confirm = [&](int n) {
    for (int i = 0; i < n; ++i, ++changed) cp.Set("m", "m//v1/ConfigMap/c" + std::to_string(changed), std::string(64, 'b'));
  };
  confirm(750);
  REQUIRE(cp.MaybeFlush());
  CHECK(puts() == 1);  // the first round: a quarter of 3,000 entries
  confirm(750);
  c.clock.now += std::chrono::milliseconds(2999);
  REQUIRE(cp.MaybeFlush());
  CHECK(puts() == 1);  // 3,000 entries: a round every 3 s, not every 500 ms
  c.clock.now += std::chrono::milliseconds(1);
  REQUIRE(cp.MaybeFlush());
  CHECK(puts() == 2);
  confirm(10);
  REQUIRE(cp.FlushAll());  // the intent and final flushes never wait for a round
  CHECK(puts() == 3);
}

}  // namespace tazuna::state
