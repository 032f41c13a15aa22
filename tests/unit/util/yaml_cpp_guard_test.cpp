#include "util/yaml_cpp_guard.hpp"

#include <doctest/doctest.h>

#include "util/strings.hpp"

namespace tazuna::util {
namespace {

TEST_CASE("yaml-cpp guard: a ',' at document level is found before LoadAll loops on it") {
  const std::pair<const char*, std::optional<YamlPosition>> cases[] = {
      {",", YamlPosition{0, 0}},
      {"[a]\n, b", YamlPosition{1, 0}},
      {"- a\n- b\n,", YamlPosition{2, 0}},
      {"--- ,", YamlPosition{0, 4}},
      {"{a: 1}, b", YamlPosition{0, 6}},
      {"a, b", std::nullopt},  // a plain scalar may hold ','
      {"k: [a, b]\n", std::nullopt},
      {"---\n---\n---\n", std::nullopt},
      {"", std::nullopt},
      {"a: [1, 2\n", std::nullopt},  // a syntax error is LoadAll's to report
  };
  for (const auto& [in, want] : cases) {
    const auto& captured = in;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    CHECK(FindEndlessDocuments(in) == want);
  }
}

TEST_CASE("yaml-cpp guard: messages") {
  CHECK(YamlCppMessage("bad file") == "nesting too deep (more than 2000 levels)");
  CHECK(YamlCppMessage("unknown escape character: \n") == "unknown escape character: \\n");
  CHECK(YamlCppMessage(std::string("x\x01y")) == "x\\x01y");
  CHECK(YamlCppMessage("end of map not found") == "end of map not found");
}

TEST_CASE("strings: Quote escapes what would break a one-line message") {
  CHECK(Quote("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(Quote("line\nnext\ttab\r") == "\"line\\nnext\\ttab\\r\"");
  CHECK(Quote(std::string("nul\0del\x7f", 8)) == "\"nul\\x00del\\x7f\"");
  CHECK(Quote("caf\xc3\xa9") == "\"caf\xc3\xa9\"");  // UTF-8 text stays as it is
}

TEST_CASE("strings: Printable quotes only what has control characters") {
  CHECK(Printable("client.authentication.k8s.io/v1") == "client.authentication.k8s.io/v1");
  CHECK(Printable("caf\xc3\xa9 \"x\"") == "caf\xc3\xa9 \"x\"");
  CHECK(Printable("a\nb") == "\"a\\nb\"");
  CHECK(Printable(std::string("\0", 1)) == "\"\\x00\"");
}

}  // namespace
}  // namespace tazuna::util
