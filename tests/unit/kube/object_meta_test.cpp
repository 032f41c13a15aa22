#include "kube/object_meta.hpp"

#include <doctest/doctest.h>

namespace tazuna::kube {
namespace {

using nlohmann::json;

TEST_CASE("ReadObjectMeta takes uid and resourceVersion of the top-level metadata only") {
  const std::string body = R"({"kind":"CustomResourceDefinition","spec":{"metadata":{"uid":"spec-uid"},
    "versions":[{"name":"v1","schema":{"uid":"x"}}]},"metadata":{"name":"a","labels":{"uid":"label"},
    "managedFields":[{"manager":"tazuna","fieldsV1":{"f:metadata":{"uid":"no"}}}],
    "uid":"1234","resourceVersion":"77"},"status":{"uid":"status"}})";
  auto meta = ReadObjectMeta(body);
  REQUIRE(meta);
  CHECK(meta->uid == "1234");
  CHECK(meta->resource_version == "77");
}

TEST_CASE("ReadObjectMeta of a PartialObjectMetadata answer, and of bad JSON") {
  auto meta = ReadObjectMeta(R"({"kind":"PartialObjectMetadata","metadata":{"resourceVersion":"5","uid":"u"}})");
  REQUIRE(meta);
  CHECK(meta->uid == "u");
  CHECK(meta->resource_version == "5");
  CHECK_FALSE(ReadObjectMeta(R"({"metadata":{"uid":"u")"));
  CHECK_FALSE(ReadObjectMeta(""));
  auto empty = ReadObjectMeta("{}");
  REQUIRE(empty);
  CHECK(empty->uid.empty());
}

TEST_CASE("JsonWithMetadata replaces or adds metadata and keeps everything else") {
  const json object = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "a"}}},
                       {"data", {{"k", "v"}}}};
  const json meta = {{"name", "a"}, {"labels", {{"x", "y"}}}};
  json expected = object;
  expected["metadata"] = meta;
  CHECK(json::parse(JsonWithMetadata(object, meta)) == expected);
  const json bare = {{"kind", "X"}};
  CHECK(json::parse(JsonWithMetadata(bare, meta)) == json{{"kind", "X"}, {"metadata", meta}});
  CHECK(json::parse(JsonWithMetadata(json::object(), meta)) == json{{"metadata", meta}});
}

}  // namespace
}  // namespace tazuna::kube
