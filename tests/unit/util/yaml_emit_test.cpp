#include "util/yaml_emit.hpp"

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include <doctest/doctest.h>

#include "util/yaml_json.hpp"

namespace tazuna::util {
namespace {

using nlohmann::json;

TEST_CASE("yaml emit: kubectl layout") {
  const json v = json::parse(R"({
    "kind": "ConfigMap", "apiVersion": "v1",
    "metadata": {"name": "cfg", "labels": {}},
    "data": {"a": "1", "b": "yes", "c": "plain text", "d": "line1\nline2\n"},
    "list": [1, "x", {"k": "v", "j": [true, null]}, [], [1, 2]],
    "n": 1.5, "e": []
  })");
  CHECK(EmitYaml(v) ==
        "apiVersion: v1\n"
        "data:\n"
        "  a: \"1\"\n"
        "  b: \"yes\"\n"
        "  c: plain text\n"
        "  d: |\n"
        "    line1\n"
        "    line2\n"
        "e: []\n"
        "kind: ConfigMap\n"
        "list:\n"
        "- 1\n"
        "- x\n"
        "- j:\n"
        "  - true\n"
        "  - null\n"
        "  k: v\n"
        "- []\n"
        "- - 1\n"
        "  - 2\n"
        "metadata:\n"
        "  labels: {}\n"
        "  name: cfg\n"
        "\"n\": 1.5\n");  // `n` alone would read as false
}

TEST_CASE("yaml emit: strings are quoted where a plain scalar would change") {
  const std::pair<const char*, const char*> cases[] = {
      {"yes", "\"yes\""},       {"No", "\"No\""},        {"on", "\"on\""},
      {"007", "\"007\""},       {"1e3", "\"1e3\""},      {"null", "\"null\""},
      {"~", "\"~\""},           {"", "\"\""},            {"0x1F", "\"0x1F\""},
      {".inf", "\"\\.inf\""},   {"1_000", "\"1_000\""},  {"<<", "\"<<\""},
      {" lead", "' lead'"},     {"trail ", "'trail '"},  {"a: b", "'a: b'"},
      {"a #b", "'a #b'"},       {"#x", "'#x'"},          {"*x", "'*x'"},
      {"&x", "'&x'"},           {"!x", "'!x'"},          {"- x", "'- x'"},
      {"---", "'---'"},         {"it's: x", "'it''s: x'"}, {"key:", "'key:'"},
      {"tab\there", "\"tab\\there\""}, {"\x01", "\"\\x01\""}, {"a\xe2\x80\xa8z", "\"a\\Lz\""},
      {"plain", "plain"},       {"-flag", "-flag"},      {"a/b:c", "a/b:c"},
      {"\xc3\xa9t\xc3\xa9", "\xc3\xa9t\xc3\xa9"},        {"2001-12-14", "2001-12-14"},
  };
  for (const auto& [in, want] : cases) {
    const auto& captured = in;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    std::string w = want;
    if (w == "\"\\.inf\"") w = "\".inf\"";
    CHECK(EmitYaml(json(in)) == w + "\n");
  }
}

TEST_CASE("yaml emit: multi-line strings use literal blocks only when exact") {
  CHECK(EmitYaml(json{{"s", "a\nb"}}) == "s: |-\n  a\n  b\n");
  CHECK(EmitYaml(json{{"s", "a\n\nb\n\n"}}) == "s: |+\n  a\n\n  b\n\n");
  CHECK(EmitYaml(json{{"s", " lead\nx"}}) == "s: \" lead\\nx\"\n");
  CHECK(EmitYaml(json{{"s", "a\r\nb"}}) == "s: \"a\\r\\nb\"\n");
  CHECK(EmitYaml(json{{"s", "\n"}}) == "s: \"\\n\"\n");
}

void CheckRoundTrip(const json& v) {
  const std::string text = EmitYaml(v);
  auto back = ParseYamlDocument(text, {"emitted"});
  CAPTURE(text);
  REQUIRE(back);
  CHECK(*back == v);
}

json RandomValue(std::mt19937& rng, int depth) {
  static const char* kPieces[] = {"a", " ", "yes", "0", "1e3", ":", "#", "-", "\n", "'", "\"", "\\",
                                  "\t", "{", "[", "&", "*", "!", "|", ">", "%", "@", "`", "~",
                                  "null", ".", "\xc3\xa9", "\xe2\x80\xa8", "\x01", "<<", "0x1", "..."};
  switch (rng() % (depth > 3 ? 5 : 7)) {
    case 0: return nullptr;
    case 1: return rng() % 2 == 0;
    case 2: return static_cast<int64_t>(rng() % 2000) - 1000;
    case 3: return static_cast<double>(static_cast<int>(rng() % 20000) - 10000) / 8.0;
    case 4: {
      std::string s;
      for (unsigned n = rng() % 5; n > 0; --n) s += kPieces[rng() % std::size(kPieces)];
      return s;
    }
    case 5: {
      json arr = json::array();
      for (unsigned n = rng() % 4; n > 0; --n) arr.push_back(RandomValue(rng, depth + 1));
      return arr;
    }
    default: {
      json obj = json::object();
      for (unsigned n = rng() % 4; n > 0; --n) {
        obj[RandomValue(rng, 99).dump()] = RandomValue(rng, depth + 1);
      }
      return obj;
    }
  }
}

TEST_CASE("yaml emit: random values round-trip through ParseYamlDocument") {
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) CheckRoundTrip(RandomValue(rng, 0));
}

TEST_CASE("yaml emit: every parsable corpus document round-trips") {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(TAZUNA_TESTDATA "/compat")) {
    if (entry.path().extension() != ".yaml") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::stringstream buffer;
    buffer << in.rdbuf();
    std::string text = buffer.str();
    size_t start = 0;
    while (start <= text.size()) {
      size_t sep = text.find("\n---\n", start);
      const std::string doc = text.substr(start, sep == std::string::npos ? std::string::npos : sep + 1 - start);
      start = sep == std::string::npos ? text.size() + 1 : sep + 5;
      auto parsed = ParseYamlDocument(doc, {entry.path().string()});
      if (!parsed || parsed->is_null()) continue;
      CheckRoundTrip(*parsed);
      ++checked;
    }
  }
  CHECK(checked > 200);
}

}  // namespace
}  // namespace tazuna::util
