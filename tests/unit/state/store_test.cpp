#include "state/store.hpp"

#include <doctest/doctest.h>

#include "state/state_key.hpp"

namespace tazuna::state {

TEST_CASE("store: _metadata is written in the Go tool's byte form") {
  CHECK(EncodeMetadata({"abc", "2026-01-02T03:04:05Z", {}}) ==
        R"({"gitCommitHash":"abc","lastSyncedAt":"2026-01-02T03:04:05Z"})");
  CHECK(EncodeMetadata({"", "t", {"tazuna-state-m.0a1b2c3d.1"}}) ==
        R"({"gitCommitHash":"","lastSyncedAt":"t","shards":["tazuna-state-m.0a1b2c3d.1"]})");
}

TEST_CASE("store: small state is one ConfigMap with encoded keys and Go entry values") {
  const auto shards = BuildShards("web", {{"web//v1/ConfigMap/ns/a", std::string(64, 'a')}}, {"c", "t", {}}, "g");
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
  const auto shards = BuildShards("m", entries, {"c", "t", {}}, "0a1b2c3d");
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

}  // namespace tazuna::state
