#include "state/store.hpp"

#include <doctest/doctest.h>

#include "state/state_key.hpp"

namespace tazuna::state {

TEST_CASE("store: _metadata is written in the Go tool's byte form") {
  CHECK(EncodeMetadata({"abc", "2026-01-02T03:04:05Z", 0}) ==
        R"({"gitCommitHash":"abc","lastSyncedAt":"2026-01-02T03:04:05Z"})");
  CHECK(EncodeMetadata({"", "t", 2}) == R"({"gitCommitHash":"","lastSyncedAt":"t","shards":2})");
}

TEST_CASE("store: small state is one ConfigMap with encoded keys and Go entry values") {
  const auto shards = BuildShards({{"web//v1/ConfigMap/ns/a", std::string(64, 'a')}}, {"c", "t", 0});
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
  const auto shards = BuildShards(entries, {"c", "t", 0});
  CHECK(shards.size() >= 2);
  ManifestState back;
  for (size_t i = 0; i < shards.size(); ++i) {
    size_t bytes = 0;
    for (const auto& [k, v] : shards[i]) bytes += k.size() + v.size();
    CHECK(bytes <= kShardBytes + 1024);
    for (const auto& [k, v] : shards[i]) CHECK(k.size() <= kMaxDataKeyLength);
    REQUIRE(ParseData(ConfigMapName("m", static_cast<int>(i)), nlohmann::json(shards[i]), back));
  }
  CHECK(back.entries == entries);
  CHECK(back.metadata.shards == static_cast<int>(shards.size()) - 1);
}

TEST_CASE("store: a corrupt entry names the ConfigMap and key") {
  ManifestState s;
  const auto st = ParseData("tazuna-state-m", {{"m____v1__ConfigMap__c", "not json"}}, s);
  REQUIRE_FALSE(st);
  CHECK(st.error().message.rfind("configmap tazuna-state-m key m____v1__ConfigMap__c: ", 0) == 0);
}

}  // namespace tazuna::state
