#include "util/secret_mask.hpp"

#include <doctest/doctest.h>

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
