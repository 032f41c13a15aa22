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

#include "util/go_json.hpp"
#include "util/go_strconv.hpp"

namespace tazuna::util {
namespace {

// The inside of a quoted form ("..." -> ...).
std::string Inner(const std::string& quoted) { return quoted.substr(1, quoted.size() - 2); }

TEST_CASE("secret mask: ScrubValues finds a value raw, JSON-escaped, HTML-escaped, Go-quoted and nested") {
  const std::vector<std::string> values = {
      "zz-SECRET-R1\"tail", "back\\slash\\path", "tab\there", "new\nline\r\n", "ctl\x01\x7f-x", "nb\xc2\xa0sp",
      "lt<gt>amp&", "all\"\\\t<>&\xc2\xa0\x01", "emoji-\xf0\x9f\x94\x91-key", "\\u0041-not-an-escape"};
  for (const std::string& value : values) {
    const std::string json_plain = Inner(nlohmann::json(value).dump());
    const std::string json_html = Inner(GoJsonMarshal(value));
    const std::string go = Inner(GoQuote(value, QuoteMode::kUnicode));
    const std::string go_ascii = Inner(GoQuote(value, QuoteMode::kAscii));
    const std::vector<std::string> forms = {value,
                                            json_plain,
                                            json_html,
                                            go,
                                            go_ascii,
                                            Inner(GoJsonMarshal(go)),
                                            Inner(nlohmann::json(go).dump()),
                                            Inner(GoJsonMarshal(go_ascii)),
                                            Inner(GoJsonMarshal(Inner(GoJsonMarshal(go))))};
    for (const std::string& form : forms) {
      CAPTURE(value);
      CAPTURE(form);
      CHECK(ScrubValues("before {\"" + form + "\"} after", {value}) == "before {\"***\"} after");
    }
  }
}

TEST_CASE("secret mask: ScrubValues masks the apiserver's echo of a mistyped value at -v 0 and in a raw body") {
  const std::vector<std::string> values = {"zz-SECRET-R1\"tail", "a<b>&c\tz"};
  const std::string message = R"(Secret "bad" is invalid: .stringData.password: expected string, got )"
                              R"(&value.valueUnstructured{Value:[]interface {}{"zz-SECRET-R1\"tail"}})";
  CHECK(ScrubValues(message, values) == R"(Secret "bad" is invalid: .stringData.password: expected string, got )"
                                        R"(&value.valueUnstructured{Value:[]interface {}{"***"}})");
  const std::string body = R"({"message":"got []interface {}{\"zz-SECRET-R1\\\"tail\", \"a\u003cb\u003e\u0026c\\tz\"}"})";
  CHECK(ScrubValues(body, values) == R"({"message":"got []interface {}{\"***\", \"***\"}"})");
}

TEST_CASE("secret mask: ScrubValues leaves other text, escapes and partial runes alone") {
  CHECK(ScrubValues(R"(a \"x\" \\ \u0041 \xZZ \ at end \)", {"not-there"}) == R"(a \"x\" \\ \u0041 \xZZ \ at end \)");
  CHECK(ScrubValues("keep", {}) == "keep");
  // Overlapping and repeated matches become one mask each; text around them is kept byte for byte.
  CHECK(ScrubValues("xx secret-one-two yy secret-one zz", {"secret-one-two", "one-two yy"}) == "xx *** secret-one zz");
  CHECK(ScrubValues("p=secret\\u00e9 q", {"secret\xc3\xa9"}) == "p=*** q");
}

TEST_CASE("secret mask: a mistyped data or stringData (a string, a list) is masked and collected") {
  struct Case {
    std::string name, in, want;
  };
  const std::vector<Case> cases = {
      {"stringData a string", R"({"kind":"Secret","stringData":"mistyped-value"})",
       R"({"kind":"Secret","stringData":"***"})"},
      {"stringData a list", R"({"kind":"Secret","stringData":["listed-value",{"k":"nested-value"},null,7]})",
       R"({"kind":"Secret","stringData":["***",{"k":"***"},null,"***"]})"},
      {"data a string", R"({"kind":"Secret","data":"bWlzdHlwZWQ="})", R"({"data":"***","kind":"Secret"})"},
      {"data null", R"({"kind":"Secret","data":null})", R"({"data":null,"kind":"Secret"})"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    nlohmann::json object = nlohmann::json::parse(c.in);
    MaskSecretValues(object);
    CHECK(object == nlohmann::json::parse(c.want));
  }
  nlohmann::json keyed = nlohmann::json::parse(R"({"kind":"Secret","stringData":["listed-value"]})");
  CHECK(MaskSecretValues(keyed, [](std::string_view field, const std::string& key) {
    return std::string(field) + ":" + key;
  }));
  CHECK(keyed["stringData"] == nlohmann::json::parse(R"(["stringData:"])"));

  const auto has = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  const auto text = SecretValues(nlohmann::json::parse(R"({"kind":"Secret","stringData":"mistyped-value"})"));
  CHECK(has(text, "mistyped-value"));
  CHECK(has(text, "bWlzdHlwZWQtdmFsdWU="));
  const auto list = SecretValues(
      nlohmann::json::parse(R"({"kind":"Secret","stringData":["listed-value",null],"data":["bWlzdHlwZWQ="]})"));
  CHECK(has(list, "listed-value"));
  CHECK(has(list, "mistyped"));
  CHECK(has(list, "bWlzdHlwZWQ="));
  CHECK_FALSE(has(list, "null"));
}

}  // namespace
}  // namespace tazuna::util
