#include "util/secret_mask.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

namespace tazuna::util {
namespace {

TEST_CASE("secret mask: data and stringData of core Secrets only") {
  struct Case {
    std::string name;
    std::string in;
    bool want_masked = false;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"v1 Secret", R"({"apiVersion":"v1","kind":"Secret","data":{"a":"c2Vj"},"stringData":{"b":"sec"}})", true,
       R"({"apiVersion":"v1","data":{"a":"***"},"kind":"Secret","stringData":{"b":"***"}})"},
      {"Secret without apiVersion (a logged list item)", R"({"kind":"Secret","data":{"a":"x"}})", true,
       R"({"data":{"a":"***"},"kind":"Secret"})"},
      {"Secret without values", R"({"apiVersion":"v1","kind":"Secret","type":"Opaque"})", false,
       R"({"apiVersion":"v1","kind":"Secret","type":"Opaque"})"},
      {"ConfigMap", R"({"apiVersion":"v1","kind":"ConfigMap","data":{"a":"x"}})", false,
       R"({"apiVersion":"v1","data":{"a":"x"},"kind":"ConfigMap"})"},
      {"another group's Secret kind", R"({"apiVersion":"example.com/v1","kind":"Secret","data":{"a":"x"}})", false,
       R"({"apiVersion":"example.com/v1","data":{"a":"x"},"kind":"Secret"})"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    nlohmann::json object = nlohmann::json::parse(c.in);
    CHECK(MaskSecretValues(object) == c.want_masked);
    CHECK(object.dump() == c.want);
  }
}

TEST_CASE("secret mask: the mask may depend on the field and key") {
  nlohmann::json object = nlohmann::json::parse(R"({"apiVersion":"v1","kind":"Secret","data":{"a":"x","b":"y"}})");
  CHECK(MaskSecretValues(object, [](std::string_view field, const std::string& key) {
    return std::string(field) + ":" + key;
  }));
  CHECK(object["data"] == nlohmann::json::parse(R"({"a":"data:a","b":"data:b"})"));
}

}  // namespace
}  // namespace tazuna::util

namespace tazuna::util {
namespace {

TEST_CASE("secret mask: JSON copies of a Secret in annotations (last-applied-configuration) are masked") {
  nlohmann::json secret = nlohmann::json::parse(R"({"apiVersion":"v1","kind":"Secret","metadata":{"annotations":{
    "kubectl.kubernetes.io/last-applied-configuration":"{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"stringData\":{\"p\":\"hunter2\"}}\n",
    "other":"[{\"data\":{\"k\":\"c2VjcmV0\"}}]","plain":"keep me"}},"data":{"p":"aHVudGVyMg=="}})");
  CHECK(MaskSecretValues(secret));
  const auto& a = secret["metadata"]["annotations"];
  CHECK(a["kubectl.kubernetes.io/last-applied-configuration"] ==
        R"({"apiVersion":"v1","kind":"Secret","stringData":{"p":"***"}})");
  CHECK(a["other"] == R"([{"data":{"k":"***"}}])");
  CHECK(a["plain"] == "keep me");
  CHECK(secret["data"]["p"] == "***");
}

TEST_CASE("secret mask: SecretBy::kForce masks whatever the kind says (PartialObjectMetadata of a Secret)") {
  const std::string annotation = R"({"kind":"Secret","stringData":{"p":"hunter2"}})";
  nlohmann::json meta = {{"kind", "PartialObjectMetadata"},
                         {"metadata", {{"annotations", {{"kubectl.kubernetes.io/last-applied-configuration", annotation}}}}}};
  nlohmann::json by_kind = meta;
  CHECK_FALSE(MaskSecretValues(by_kind));
  CHECK(MaskSecretValues(meta, SecretBy::kForce));
  CHECK(meta.dump().find("hunter2") == std::string::npos);
}

TEST_CASE("secret mask: SecretValues and ScrubValues find every echoed form") {
  const nlohmann::json secret = nlohmann::json::parse(
      R"({"kind":"Secret","data":{"a":"aHVudGVyMg=="},"stringData":{"b":"pa\"ss","c":"xy","n":12345}})");
  const std::vector<std::string> values = SecretValues(secret);
  CHECK(std::find(values.begin(), values.end(), "hunter2") != values.end());
  CHECK(std::find(values.begin(), values.end(), "aHVudGVyMg==") != values.end());
  CHECK(std::find(values.begin(), values.end(), "12345") != values.end());
  CHECK(std::find(values.begin(), values.end(), "xy") == values.end());  // too short to scrub
  CHECK(ScrubValues(R"(got "hunter2", "pa\"ss" and 12345 in aHVudGVyMg==)", values) ==
        R"(got "***", "***" and *** in ***)");
  CHECK(SecretValues(nlohmann::json::parse(R"({"kind":"ConfigMap","data":{"a":"value"}})")).empty());
}

}  // namespace
}  // namespace tazuna::util
