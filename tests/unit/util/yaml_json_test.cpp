#include "util/yaml_json.hpp"

#include <string>

#include <doctest/doctest.h>

#include "util/go_json.hpp"

namespace tazuna::util {
namespace {

using nlohmann::json;

const YamlOptions kOptions{"in.yaml"};

struct TypingCase {
  const char* scalar;    // written as `v: <scalar>`
  const char* go_json;   // Go: encoding/json of v after sigs.k8s.io/yaml, or "error"
};

// Generated from the Go oracle (tests/compat/yamlhash on tests/testdata/compat/typing.yaml).
const TypingCase kTypingTable[] = {
    {"~", "null"},
    {"null", "null"},
    {"Null", "null"},
    {"NULL", "null"},
    {"nUll", "\"nUll\""},
    {"", "null"},
    {"y", "true"},
    {"Y", "true"},
    {"yes", "true"},
    {"Yes", "true"},
    {"YES", "true"},
    {"yEs", "\"yEs\""},
    {"n", "false"},
    {"N", "false"},
    {"no", "false"},
    {"No", "false"},
    {"NO", "false"},
    {"true", "true"},
    {"True", "true"},
    {"TRUE", "true"},
    {"tRue", "\"tRue\""},
    {"false", "false"},
    {"False", "false"},
    {"FALSE", "false"},
    {"on", "true"},
    {"On", "true"},
    {"ON", "true"},
    {"off", "false"},
    {"Off", "false"},
    {"OFF", "false"},
    {"0", "0"},
    {"-0", "0"},
    {"+0", "0"},
    {"1", "1"},
    {"-1", "-1"},
    {"+1", "1"},
    {"007", "7"},
    {"08", "8"},
    {"09", "9"},
    {"010", "8"},
    {"0x1F", "31"},
    {"0X1f", "31"},
    {"-0x1F", "-31"},
    {"+0x1F", "31"},
    {"0x", "\"0x\""},
    {"0o17", "15"},
    {"0O17", "15"},
    {"0b101", "5"},
    {"-0b101", "-5"},
    {"0B11", "3"},
    {"0b2", "\"0b2\""},
    {"1_000", "1000"},
    {"1__0", "10"},
    {"_1", "\"_1\""},
    {"1_", "1"},
    {"0x_1F", "31"},
    {"9223372036854775807", "9223372036854776000"},
    {"9223372036854775808", "9223372036854776000"},
    {"-9223372036854775808", "-9223372036854776000"},
    {"-9223372036854775809", "-9223372036854776000"},
    {"18446744073709551615", "18446744073709552000"},
    {"18446744073709551616", "18446744073709552000"},
    {"99999999999999999999999", "1e+23"},
    {"0xFFFFFFFFFFFFFFFF", "18446744073709552000"},
    {"0x10000000000000000", "\"0x10000000000000000\""},
    {"1.5", "1.5"},
    {"-1.5", "-1.5"},
    {"+1.5", "1.5"},
    {"1.", "1"},
    {"-1.", "-1"},
    {".5", "0.5"},
    {"-.5", "-0.5"},
    {"+.5", "0.5"},
    {"._5", "\"._5\""},
    {".5_0", "0.5"},
    {"1e3", "1000"},
    {"1E3", "1000"},
    {"1e+3", "1000"},
    {"1e-3", "0.001"},
    {"1.5e3", "1500"},
    {"-1e3", "-1000"},
    {"1e", "\"1e\""},
    {"e3", "\"e3\""},
    {".e3", "\".e3\""},
    {"1e400", "\"1e400\""},
    {"-1e400", "\"-1e400\""},
    {"1e-400", "0"},
    {"-1e-400", "-0"},
    {"4.9e-324", "5e-324"},
    {"1.7976931348623157e308", "1.7976931348623157e+308"},
    {"1e20", "100000000000000000000"},
    {"1e21", "1e+21"},
    {"1e-6", "0.000001"},
    {"1e-7", "1e-7"},
    {"0.000001", "0.000001"},
    {"0.0000001", "1e-7"},
    {"123456789012345678", "123456789012345680"},
    {"9007199254740993", "9007199254740992"},
    {"-0.0", "-0"},
    {"0.0", "0"},
    {"3.14159265358979323846", "3.141592653589793"},
    {".inf", "error"},
    {".Inf", "error"},
    {".INF", "error"},
    {"+.inf", "error"},
    {"-.inf", "error"},
    {"-.Inf", "error"},
    {".iNf", "\".iNf\""},
    {"inf", "\"inf\""},
    {"-inf", "\"-inf\""},
    {"infinity", "\"infinity\""},
    {".infinity", "\".infinity\""},
    {"nan", "\"nan\""},
    {"NaN", "\"NaN\""},
    {"1:20", "\"1:20\""},
    {"190:20:30", "\"190:20:30\""},
    {"2001-12-14", "\"2001-12-14\""},
    {"2001-12-14t21:59:43.10-05:00", "\"2001-12-14t21:59:43.10-05:00\""},
    {"2001-12-14 21:59:43.10", "\"2001-12-14 21:59:43.10\""},
    {"2001-12-14T21:59:43Z", "\"2001-12-14T21:59:43Z\""},
    {"2002-1-1", "\"2002-1-1\""},
    {"20011-12-14", "\"20011-12-14\""},
    {"12-14", "\"12-14\""},
    {"+", "\"+\""},
    {"-", "error"},
    {".", "\".\""},
    {"..", "\"..\""},
    {"0.1.2", "\"0.1.2\""},
    {"1,000", "\"1,000\""},
    {"$100", "\"$100\""},
    {"1/2", "\"1/2\""},
    {"0x1p3", "\"0x1p3\""},
    {"1e3_0", "1e+30"},
    {"<<", "\"\\u003c\\u003c\""},
    {"=", "\"=\""},
    {"hello world", "\"hello world\""},
    {"a: b", "error"},
    {"'quoted'", "\"quoted\""},
    {"\"double\"", "\"double\""},
    {"'yes'", "\"yes\""},
    {"\"1\"", "\"1\""},
    {"!!str 1", "\"1\""},
    {"!!str yes", "\"yes\""},
    {"!!int 12", "12"},
    {"!!int \"12\"", "12"},
    {"!!float 3", "3"},
    {"!!float '3'", "3"},
    {"!!bool yes", "true"},
    {"!!bool \"true\"", "true"},
    {"!!null ''", "null"},
    {"!!null ~", "null"},
    {"!!str ~", "\"~\""},
    {"!foo 12", "\"12\""},
    {"! 12", "\"12\""},
    {"!!binary aGVsbG8=", "\"hello\""},
    {"!!timestamp 2001-12-14", "\"2001-12-14\""},
    {"yes # comment", "true"},
    {"0 # zero", "0"},
    {"'it''s'", "\"it's\""},
    {"\"tab\\there\"", "\"tab\\there\""},
    {"\"\\u00e9\\x41\"", "\"\xc3\xa9" "A\""},
    {"-1_0.5", "-10.5"},
    {"1_0.5", "10.5"},
    {"0.5e+1_0", "5000000000"},
    {"!!int 1.5", "error"},
    {"!!int abc", "error"},
    {"!!bool 1", "error"},
    {"!!float abc", "error"},
    {"!!null x", "error"},
    {"!!binary ***", "error"},
    {".nan", "error"},
    {".NaN", "error"},
    {".inf", "error"},
    {"-.inf", "error"},
    {"!!timestamp foo", "error"},
    {"!!int 2001-12-14", "error"},
    {"!!float 18446744073709551615", "error"},
};

TEST_CASE("yaml json: plain scalars are typed as sigs.k8s.io/yaml types them") {
  for (const auto& c : kTypingTable) {
    const std::string scalar = c.scalar;
    const std::string doc = scalar.empty() ? "v:\n" : "v: " + scalar + "\n";
    CAPTURE(doc);
    auto parsed = ParseYamlDocument(doc, kOptions);
    if (std::string(c.go_json) == "error") {
      CHECK_FALSE(parsed);
      continue;
    }
    REQUIRE(parsed);
    CHECK(GoJsonMarshal(parsed->at("v")) == c.go_json);
  }
}

TEST_CASE("yaml json: integers stay integers, floats stay doubles") {
  auto parsed = ParseYamlDocument("a: 12\nb: 18446744073709551615\nc: 1.0\nd: -7\n", kOptions);
  REQUIRE(parsed);
  CHECK(parsed->at("a").is_number_integer());
  CHECK(parsed->at("a").get<int64_t>() == 12);
  CHECK(parsed->at("b").is_number_unsigned());
  CHECK(parsed->at("c").is_number_float());
  CHECK(parsed->at("d").get<int64_t>() == -7);
}

TEST_CASE("yaml json: streams yield every document, empty ones as null") {
  auto docs = ParseYamlStream("a: 1\n---\n---\nb: 2\n", kOptions);
  REQUIRE(docs);
  REQUIRE(docs->size() == 3);
  CHECK((*docs)[0] == json{{"a", 1}});
  CHECK((*docs)[1].is_null());
  CHECK((*docs)[2] == json{{"b", 2}});
  auto empty = ParseYamlDocument("", kOptions);
  REQUIRE(empty);
  CHECK(empty->is_null());
  auto two = ParseYamlDocument("a: 1\n---\nb: 2\n", kOptions);
  REQUIRE_FALSE(two);
  CHECK(two.error().message == "in.yaml: expected one YAML document, got 2");
}

TEST_CASE("yaml json: merge keys apply in order like goyaml.v2") {
  const char* text =
      "base: &b {p: 1, q: 1}\n"
      "other: &o {q: 2, r: 2}\n"
      "first: {<<: *b, q: 9}\n"
      "after: {q: 9, <<: *b}\n"
      "list: {<<: [*b, *o]}\n"
      "quoted: {\"<<\": 1}\n";
  auto parsed = ParseYamlDocument(text, kOptions);
  REQUIRE(parsed);
  CHECK(parsed->at("first") == json{{"p", 1}, {"q", 9}});
  CHECK(parsed->at("after") == json{{"p", 1}, {"q", 1}});  // a later merge overrides, as Go
  CHECK(parsed->at("list") == json{{"p", 1}, {"q", 1}, {"r", 2}});
  CHECK(parsed->at("quoted") == json{{"<<", 1}});
}

TEST_CASE("yaml json: non-string keys are stringified as sigs.k8s.io/yaml does") {
  auto parsed = ParseYamlDocument("1: a\n1.5: b\n1000000.0: c\ntrue: d\nno: e\n.inf: f\n0x10: g\n", kOptions);
  REQUIRE(parsed);
  CHECK(*parsed == json{{"1", "a"}, {"1.5", "b"}, {"1e+06", "c"}, {"true", "d"}, {"false", "e"},
                        {".inf", "f"}, {"16", "g"}});
}

TEST_CASE("yaml json: errors carry file, line and column") {
  struct Case {
    const char* text;
    const char* message;
  };
  const Case cases[] = {
      {"a: 1\na: 2\n", "in.yaml:2:1: duplicate key \"a\""},
      {"m:\n  yes: 1\n  on: 2\n", "in.yaml:3:3: duplicate key \"true\""},
      {"a: .nan\n", "in.yaml:1:4: unsupported value .nan: JSON has no NaN or infinity"},
      {"~: x\n", "in.yaml:1:1: unsupported map key: null"},
      {"a: !!int 1.5\n", "in.yaml:1:4: cannot decode !!float `1.5` as a !!int"},
      // A multi-line value is quoted, so the message stays one line (a fuzzing find).
      {"v: !!float\"'ye'3': ks'\n\n", "in.yaml:1:4: cannot decode !!str `\"'ye'3': ks'\\n\"` as a !!float"},
      {"a: \"abc\n", "in.yaml:1:4: found unexpected end of stream while scanning a quoted scalar"},
      {"a: b\n\x01\n", "in.yaml:2:1: control characters are not allowed (character 0x01)"},
      {"a: \xff\n", "in.yaml:1:4: invalid UTF-8 in YAML input"},
      {"b:\n  <<: 1\n", "in.yaml:2:7: map merge requires map or sequence of maps as the value"},
      {"? [a]\n: x\n", "in.yaml:1:3: invalid map key: a map or sequence"},
  };
  for (const auto& c : cases) {
    auto parsed = ParseYamlDocument(c.text, kOptions);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().kind == ErrorKind::kInput);
    CHECK(parsed.error().message == c.message);
  }
}

TEST_CASE("yaml json: syntax errors are reported with a position") {
  auto parsed = ParseYamlDocument("a: [1, 2\n", kOptions);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().message.rfind("in.yaml:", 0) == 0);
}

TEST_CASE("yaml json: alias expansion is bounded") {
  std::string lol = "a: &a [x, x, x, x, x, x, x, x, x, x]\n";
  std::string prev = "a";
  for (char c = 'b'; c <= 'i'; ++c) {
    lol += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) lol += (i ? ", *" : "*") + prev;
    lol += "]\n";
    prev = std::string(1, c);
  }
  auto parsed = ParseYamlDocument(lol, kOptions);
  REQUIRE_FALSE(parsed);
  CHECK(parsed.error().message.find("nodes after alias expansion") != std::string::npos);
  YamlOptions small{"s.yaml", 5};
  CHECK_FALSE(ParseYamlDocument("[1, 2, 3, 4, 5]", small));
  CHECK(ParseYamlDocument("[1, 2, 3, 4]", small));
}

TEST_CASE("yaml json: an anchor that contains itself is an error, not a crash") {
  // The position is the anchored node's (yaml-cpp gives an alias no position of its own).
  const std::pair<std::string, std::string> cases[] = {
      {"a: &x [1, *x]\n", "in.yaml:1:4: anchor value contains itself"},
      // Found by tests/fuzz (yaml_json): through a map inside a flow sequence, the stack overflowed first.
      {"a: &x [t': *x]\n", "in.yaml:1:4: anchor value contains itself"},
      {"a: &x {b: {c: *x}}\n", "in.yaml:1:4: anchor value contains itself"},
      {"a: &x {<<: *x}\n", "in.yaml:1:4: anchor value contains itself"},
  };
  for (const auto& [in, want] : cases) {
    const auto& captured = in;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    auto parsed = ParseYamlDocument(in, kOptions);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().message == want);
  }
  // The same anchor twice side by side is no cycle.
  auto twice = ParseYamlDocument("a: &x {k: [1]}\nb: [*x, *x]\n", kOptions);
  REQUIRE(twice);
  CHECK(twice->at("b").size() == 2);
  // Chains of anchors nest without a cycle, up to a limit.
  std::string chain = "l0: &l0 [[[[[[[[[[1]]]]]]]]]]\n";
  for (int i = 1; i < 120; ++i) {
    chain += "l" + std::to_string(i) + ": &l" + std::to_string(i) + " [[[[[[[[[*l" + std::to_string(i - 1) + "]]]]]]]]]\n";
  }
  auto deep = ParseYamlDocument(chain, kOptions);
  REQUIRE_FALSE(deep);
  CHECK(deep.error().message.find("nesting too deep (more than 1000 levels)") != std::string::npos);
}

TEST_CASE("yaml json: yaml-cpp quirks are corrected") {
  auto parsed = ParseYamlDocument("s: \"a\\Nb\\_c\"\nk: >+\n  x\n\n\nz: 1\n", kOptions);
  REQUIRE(parsed);
  CHECK(parsed->at("s") == "a\xc2\x85" "b\xc2\xa0" "c");
  CHECK(parsed->at("k") == "x\n\n\n");
  CHECK_FALSE(ParseYamlDocument("a: \"x\\/y\"\n", kOptions));
  auto binary = ParseYamlDocument("b: !!binary /w==\n", kOptions);
  REQUIRE(binary);
  CHECK(binary->at("b") == "\xef\xbf\xbd");
}

TEST_CASE("yaml json: yaml-cpp failures that would hang or mislead are one-line errors") {
  const std::pair<std::string, std::string> cases[] = {
      // Found by tests/fuzz (yaml_json): yaml-cpp's LoadAll allocated empty documents forever.
      {",122e K", "in.yaml:1:1: unexpected ',' outside a flow collection"},
      {"[a]\n, b\n", "in.yaml:2:1: unexpected ',' outside a flow collection"},
      {"- a\n,\n", "in.yaml:2:1: unexpected ',' outside a flow collection"},
      {"\"a\", b\n", "in.yaml:1:4: unexpected ',' outside a flow collection"},
      {std::string("a: \"b") + '\0' + "c\"\n", "in.yaml:1:6: control characters are not allowed (character 0x00)"},
  };
  for (const auto& [in, want] : cases) {
    const auto& captured = in;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    auto parsed = ParseYamlStream(in, kOptions);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().message == want);
  }
  auto deep = ParseYamlStream(std::string(10000, '[') + std::string(10000, ']'), kOptions);
  REQUIRE_FALSE(deep);
  CHECK(deep.error().message.find("nesting too deep (more than 2000 levels)") != std::string::npos);
  auto empty = ParseYamlStream("---\n---\n", kOptions);  // empty documents at distinct places are fine
  REQUIRE(empty);
  CHECK(empty->size() == 2);
}

/// Checks that each YAML text parses to its one-document JSON value.
template <size_t N>
void CheckDocuments(const std::pair<std::string, json> (&cases)[N]) {
  for (const auto& [in, want] : cases) {
    const auto& captured = in;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    auto parsed = ParseYamlDocument(in, kOptions);
    REQUIRE(parsed);
    CHECK(*parsed == want);
  }
}

// Block scalar content at or below its parent's indentation is no content: the scalar is empty and the
// line after it must parse on its own. yaml-cpp 0.7 read a plain scalar alone on that line as a key with a
// null value, so a Secret's intended value became its key. Expected values and errors are
// sigs.k8s.io/yaml v1.4.0 YAMLToJSON's (a Go program under /tmp, 2026-11-29). goyaml.v2 names the line
// where it noticed (the next token: "line 7" at the end of the example); we name the scalar's own line.
TEST_CASE("yaml json: a block scalar's content at its parent's indentation is not its content") {
  const std::pair<std::string, std::string> errors[] = {
      // Go: yaml: line 7: could not find expected ':'
      {"apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: x}\nstringData:\n  password: |\n"
       "  zz-SECRET-MAL-5521\n",
       "in.yaml:6:3: could not find expected ':'"},
      // Go: yaml: line 4: could not find expected ':' (each of the next five)
      {"m:\n  p: |-\n  zz\n", "in.yaml:3:3: could not find expected ':'"},
      {"m:\n  p: |+\n  zz\n", "in.yaml:3:3: could not find expected ':'"},
      {"m:\n  p: |2\n  zz\n", "in.yaml:3:3: could not find expected ':'"},
      {"m:\n  p: >\n  zz\n", "in.yaml:3:3: could not find expected ':'"},
      {"l:\n- a: |\n  zz\n", "in.yaml:3:3: could not find expected ':'"},
      {"l:\n  - a: >-\n    zz\n", "in.yaml:3:5: could not find expected ':'"},  // Go: line 4
      {"key: |\nzz\n", "in.yaml:2:1: could not find expected ':'"},                // Go: line 3
      {"key: >+\n\nzz", "in.yaml:3:1: could not find expected ':'"},               // Go: line 4
      {"l:\n- |\nzz\n", "in.yaml:3:1: could not find expected ':'"},               // Go: line 4
      // Not only after block scalars: any plain scalar alone in a block mapping (Go: line 3 each).
      {"a: 1\nb\n", "in.yaml:2:1: could not find expected ':'"},
      {"a: 1\n!!str b\n", "in.yaml:2:1: could not find expected ':'"},
      {"a: 1\n~\n", "in.yaml:2:1: could not find expected ':'"},
      {"a: 1\n<<\n", "in.yaml:2:1: could not find expected ':'"},
  };
  for (const auto& [in, want] : errors) {
    const auto& captured = in;  // clang 14 cannot capture a structured binding
    CAPTURE(captured);
    auto parsed = ParseYamlStream(in, kOptions);
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().message == want);
    CHECK(parsed.error().message.find('\n') == std::string::npos);
  }
  const std::pair<std::string, json> values[] = {
      {"stringData:\n  password: |\n  key: v\n", {{"stringData", {{"password", ""}, {"key", "v"}}}}},
      {"m:\n  p: |-\n  k: v\n", {{"m", {{"p", ""}, {"k", "v"}}}}},
      {"m:\n  p: |+\n  k: v\n", {{"m", {{"p", ""}, {"k", "v"}}}}},
      {"m:\n  p: |+\n\n  k: v\n", {{"m", {{"p", "\n"}, {"k", "v"}}}}},
      {"m:\n  p: |2\n  k: v\n", {{"m", {{"p", ""}, {"k", "v"}}}}},
      {"m:\n  p: >\n  k: v\n", {{"m", {{"p", ""}, {"k", "v"}}}}},
      {"m:\n  p: >-\n  k: v\n", {{"m", {{"p", ""}, {"k", "v"}}}}},
      {"l:\n- a: |\n  b: v\n", {{"l", {{{"a", ""}, {"b", "v"}}}}}},
      {"l:\n- |\n- x\n", {{"l", {"", "x"}}}},
      {"key: |\nother: v\n", {{"key", ""}, {"other", "v"}}},
      // Indented past the parent: unchanged.
      {"m:\n  p: |\n    zz\n  k: v\n", {{"m", {{"p", "zz\n"}, {"k", "v"}}}}},
      {"m:\n  p: |-\n    zz\n", {{"m", {{"p", "zz"}}}}},
      {"m:\n  p: |+\n    zz\n\n", {{"m", {{"p", "zz\n\n"}}}}},
      {"m:\n  p: |2\n    zz\n", {{"m", {{"p", "zz\n"}}}}},
      {"m:\n  p: >\n    zz\n    yy\n  k: v\n", {{"m", {{"p", "zz yy\n"}, {"k", "v"}}}}},
      {"l:\n- a: |\n    zz\n", {{"l", {{{"a", "zz\n"}}}}}},
      // A flow mapping may leave out ':', and so may an explicit key.
      {"m: {a, b: 1}\n", {{"m", {{"a", nullptr}, {"b", 1}}}}},
      {"m:\n  ? a\n  b: 1\n", {{"m", {{"a", nullptr}, {"b", 1}}}}},
  };
  CheckDocuments(values);
}

// yaml-cpp 0.7 folds away one line break of a `>+` scalar, and ParseYamlStream puts it back. It took a line
// at or below the enclosing collection's indentation for content (so an empty `>+` became "\n"), counted an
// indentation indicator from the line's start instead of that collection's column (`- a: >2+`), and added a
// break the text does not have at its end. Expected values: sigs.k8s.io/yaml v1.4.0 (a Go program under
// /tmp, 2026-11-29).
TEST_CASE("yaml json: a '>+' scalar keeps exactly the line breaks goyaml.v2 keeps") {
  const std::pair<std::string, json> cases[] = {
      {"m:\n  p: >+\n  k: v\n", {{"m", {{"p", ""}, {"k", "v"}}}}},
      {"m:\n  p: >+\n\n  k: v\n", {{"m", {{"p", "\n"}, {"k", "v"}}}}},
      {"m:\n  p: >+\n\n\n  k: v\n", {{"m", {{"p", "\n\n"}, {"k", "v"}}}}},
      {"l:\n- a: >+\n  zz: 1\n", {{"l", {{{"a", ""}, {"zz", 1}}}}}},
      {"l:\n- a: >2+\n  zz: 1\n", {{"l", {{{"a", ""}, {"zz", 1}}}}}},
      {"l:\n- a: >2+\n      x\n\n  zz: 1\n", {{"l", {{{"a", "  x\n\n"}, {"zz", 1}}}}}},
      {"k: >+\n\nother: v\n", {{"k", "\n"}, {"other", "v"}}},
      {"m:\n  p: >+\n    x", {{"m", {{"p", "x"}}}}},
      // Unchanged: content indented past the parent.
      {"m:\n  p: >+\n    x\n\n\n  k: v\n", {{"m", {{"p", "x\n\n\n"}, {"k", "v"}}}}},
      {"l:\n- a: >+\n    x\n  b: 1\n", {{"l", {{{"a", "x\n"}, {"b", 1}}}}}},
      {"k: >+\n x\n\n", {{"k", "x\n\n"}}},
      // An alias counts the breaks where its anchor is written, not where the alias stands.
      {"a: &x >+\n  y\n\nb:\n  - *x\n  - c: *x\n", {{"a", "y\n\n"}, {"b", {"y\n\n", {{"c", "y\n\n"}}}}}},
  };
  CheckDocuments(cases);
  auto list = ParseYamlDocument("- >+\n\n  x\n\n- >1+\n  x\n\n- >+\n- y\n", kOptions);
  REQUIRE(list);
  CHECK(*list == json{"\nx\n\n", " x\n\n", "", true});
}

}  // namespace
}  // namespace tazuna::util
