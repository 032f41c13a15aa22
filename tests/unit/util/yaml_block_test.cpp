#include "util/yaml_block.hpp"

#include <string>

#include <doctest/doctest.h>

#include "util/yaml_json.hpp"

namespace tazuna::util {
namespace {

using nlohmann::json;

struct BlockCase {
  const char* name;
  const char* text;
  bool read;  // true: the block reader reads it (and must equal yaml-cpp); false: left to yaml-cpp
};

const BlockCase kBlockCases[] = {
    {"mapping and sequence", "a: 1\nb:\n- x\n- y: 2\n  z: [ ]\nc: {}\n", false},
    {"empty flow collections", "a: []\nb: {}\nc:\n  - []\n", true},
    {"compact sequence under a key", "a:\n- 1\n- 2\nb: c\n", true},
    {"nested sequence entry", "a:\n  -\n    - x\n", true},
    {"typed plain scalars", "i: 10\nf: 1.5\nb: yes\nnil: ~\nt: 2001-12-14\no: 0o17\nh: 0x1F\ns: 'yes'\n", true},
    {"comments everywhere", "# head\na: 1 # tail\n# mid\nb:   # after key\n  c: x#y\n", true},
    {"literal strip and clip", "a: |-\n  x\n\n  y\n\nb: |\n  z\n    deeper\n\n\nc: |\nd: e\n", true},
    {"literal at the end of a stream without a line break", "- |\n  last", true},
    {"literal in a sequence", "- |\n  one\n  two\n- |-\n   three\n", true},
    {"multi-line plain", "d: first line\n  second\n\n  third\n\n\n  fourth\ne: f\n", true},
    {"multi-line plain in a sequence", "- alpha\n  beta\n- gamma\n  `g`\n  'delta' \"eps\" [x] {y} &z *w !v |u >t\n", true},
    {"multi-line single quoted", "a: 'one\n  two''s\n\n  three  '\nb: 'x  \n   y'\n", true},
    {"multi-line double quoted", "a: \"one\\n\n  two \\\"q\\\"\n\n  \\u00e9t\\u00E9\"\n", true},
    {"quoted keys", "'a b': 1\n\"c:d\": 2\n'': 3\n", true},
    {"documents", "---\na: 1\n---\n---\n- b\n--- # c\n", true},
    {"key with colon inside", "a:b: c\nurl: http://x:80/y\n", true},
    {"sequence indent", "a:\n    -   b: 1\n        c: 2\n    - d\n", true},
    {"unicode", "a: \"\\u00e9\\u4e2d\"\nb: é\n", true},
    {"timestamps and numbers as strings", "a: 12:30:00\nb: 1_000\nc: .5\nd: -.inf\n", false},
    {"anchor", "a: &x 1\nb: *x\n", false},
    {"tag", "a: !!str 1\n", false},
    {"folded", "a: >\n  x\n  y\n", false},
    {"keep chomping", "a: |+\n  x\n\n", false},
    {"indentation indicator", "a: |2\n   x\n", false},
    {"non-empty flow", "a: [1, 2]\n", false},
    {"duplicate key", "a: 1\na: 2\n", false},
    {"merge key", "a: &b {x: 1}\nc:\n  <<: *b\n", false},
    {"integer key", "1: a\n", false},
    {"YAML 1.1 bool key", "y: 1\n", false},
    {"reserved first character", "a: `b`\n", false},
    {"bool key", "on: push\n", false},
    {"tab", "a:\tb\n", false},
    {"carriage return", "a: b\r\n", false},
    {"plain after a comment", "a: b # c\n  d\n", false},
    {"mapping in a plain value", "a: b: c\n", false},
    {"scalar document", "just text\n", false},
    {"empty stream", "# nothing\n", false},
    {"escaped line break", "a: \"x\\\n  y\"\n", false},
    {"unknown escape", "a: \"\\x41\"\n", false},
    {"unclosed quote", "a: 'x\n", false},
    {"indented top level", "  a: 1\n", false},
    {"less indented continuation", "a:\n  b: 'x\n  y'\n", false},
    {"document end marker", "a:\n  - b\n... c:\n", false},
    {"three dashes and text", "a: 1\n---b: 2\n", false},
    {"directive", "%YAML 1.1\n---\na: 1\n", false},
};

TEST_CASE("the block reader reads what yaml-cpp reads, or leaves it to yaml-cpp") {
  for (const BlockCase& c : kBlockCases) {
    const std::string name = c.name;
    CAPTURE(name);
    YamlOptions options{"in.yaml"};
    options.block_reader = false;
    const auto block = ParseBlockYamlStream(c.text, options.max_nodes);
    const auto slow = ParseYamlStream(c.text, options);
    CHECK(block.has_value() == c.read);
    if (block) {
      REQUIRE(slow);
      CHECK(json(*block).dump() == json(*slow).dump());
    }
  }
}

TEST_CASE("the block reader folds as YAML does") {
  const auto docs = ParseBlockYamlStream("a: one\n  two\n\n  three\nb: 'x\n\n\n  y'\nc: |-\n  l1\n\n  l2\n", 100);
  REQUIRE(docs);
  CHECK((*docs)[0]["a"] == "one two\nthree");
  CHECK((*docs)[0]["b"] == "x\n\ny");
  CHECK((*docs)[0]["c"] == "l1\n\nl2");
}

TEST_CASE("the block reader leaves a stream with more nodes than allowed to yaml-cpp") {
  CHECK(ParseBlockYamlStream("a: 1\nb: 2\nc: 3\n", 100));
  CHECK_FALSE(ParseBlockYamlStream("a: 1\nb: 2\nc: 3\n", 4));
  size_t left_at = 0;
  CHECK_FALSE(ParseBlockYamlStream("a: 1\nb: &x 2\n", 100, &left_at));
  CHECK(left_at == 2);
}

TEST_CASE("ParseYamlStream reports yaml-cpp's error for what the block reader leaves") {
  auto docs = ParseYamlStream("a: 1\na: 2\n", YamlOptions{"in.yaml"});
  REQUIRE_FALSE(docs);
  CHECK(docs.error().message == "in.yaml:2:1: duplicate key \"a\"");
}

}  // namespace
}  // namespace tazuna::util
