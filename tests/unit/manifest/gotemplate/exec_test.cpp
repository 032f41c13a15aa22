#include "manifest/gotemplate/exec.hpp"

#include <doctest/doctest.h>

#include "manifest/gotemplate/parse.hpp"

namespace tazuna::manifest::gotemplate {
namespace {

// Parses and executes `text` as tazuna.yaml is (missingkey=error, tmpl.Data{Environment: env}).
util::Result<std::string> Run(const std::string& text, const std::string& env = "prod", ExecOptions options = {}) {
  const Source source{text, "f.yaml"};
  std::set<std::string> names;
  for (const auto& [name, f] : Builtins()) names.insert(name);
  auto trees = Parse(source, "f.yaml", names);
  if (!trees) return trees.error();
  const GoValue data = GoValue::Struct({"tmpl.Data", {{"Environment", GoValue::String(env)}}});
  return Execute(source, *trees, "f.yaml", data, options);
}

TEST_CASE("gotemplate: the constructs tazuna.yaml files use") {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"{{ .Environment }}", "prod"},
      {"{{- if eq .Environment \"prod\" }}\n  a{{ else }}b{{ end }}", "\n  a"},
      {"{{ if eq .Environment \"dev\" \"prod\" }}x{{ end }}", "x"},
      {"{{ $e := .Environment }}{{ with $e }}<{{ . }}>{{ end }}", "<prod>"},
      {"{{ range $i := 3 }}{{ $i }}{{ end }}", "012"},
      {"{{ .Environment | printf \"%s-%03d\" | printf \"[%s]\" }}", "[prod-%!d(MISSING)]"},
      {"{{ printf \"%s-%03d\" .Environment 7 }}", "prod-007"},
      {"{{ define \"x\" }}<{{ . }}>{{ end }}{{ template \"x\" .Environment }}", "<prod>"},
      {"a {{- /* gone */ -}} b", "ab"},
      {"{{ . }} {{ printf \"%#v\" . }}", "{prod} tmpl.Data{Environment:\"prod\"}"},
      {"{{ 1e6 }} {{ 0x10 }} {{ 'a' }} {{ 1+2i }}", "1e+06 16 97 (1+2i)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto out = Run(c.text);
    REQUIRE_MESSAGE(out.has_value(), out.error().message);
    CHECK(*out == c.want);
  }
}

TEST_CASE("gotemplate: errors name the file, line and column with Go's message") {
  struct Case {
    const char* text;
    const char* want;
  } cases[] = {
      {"a\n  {{ .Env }}", "f.yaml:2:6: template: can't evaluate field Env in type tmpl.Data"},
      {"{{ .Environment.Name }}", "f.yaml:1:4: template: can't evaluate field Name in type string"},
      {"{{ env \"HOME\" }}", "f.yaml:1:4: template: function \"env\" not defined"},
      {"{{ if true }}", "f.yaml:1:14: template: unexpected EOF"},
      {"{{ $x }}", "f.yaml:1:4: template: undefined variable \"$x\""},
      {"{{ eq 1 \"1\" }}", "f.yaml:1:4: template: error calling eq: incompatible types for comparison"},
      {"{{ range .Environment }}{{ end }}", "f.yaml:1:4: template: range can't iterate over prod"},
      {"{{ break }}", "f.yaml:1:4: template: {{break}} outside {{range}}"},
      {"{{ nil }}", "f.yaml:1:4: template: nil is not a command"},
      {"{{ 9223372036854775808 }}", "f.yaml:1:4: template: 9223372036854775808 overflows int"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.text);
    auto out = Run(c.text);
    REQUIRE_FALSE(out.has_value());
    CHECK(out.error().kind == util::ErrorKind::kInput);
    CHECK(out.error().message == c.want);
  }
}

TEST_CASE("gotemplate: bounds on output, recursion and iterations are errors, not hangs") {
  ExecOptions small;
  small.max_output = 10;
  CHECK(Run("{{ range 20 }}x{{ end }}", "", small).error().message == "f.yaml:1:15: template: output exceeds 10 bytes");
  ExecOptions shallow;
  shallow.max_depth = 5;
  CHECK(Run("{{ define \"r\" }}{{ template \"r\" }}{{ end }}{{ template \"r\" }}", "", shallow).error().message ==
        "f.yaml:1:29: template: exceeded maximum template depth (5)");
  ExecOptions few;
  few.max_iterations = 100;
  CHECK(Run("{{ range 1000000000 }}{{ end }}", "", few).error().message ==
        "f.yaml:1:4: template: range: too many iterations");
  // Fuzz timeout case: a huge range with a small body stopped by the default bound, not after 16 MiB.
  CHECK(Run("{{ range 372036854775808 }}\n }}{{ end }}").error().message ==
        "f.yaml:1:4: template: range: too many iterations");
  std::string nested(600, '(');
  nested = "{{ " + nested + "1" + std::string(600, ')') + " }}";
  CHECK(Run(nested).error().message == "f.yaml:1:504: template: max expression depth exceeded");
  // A template that calls itself stops at the default depth, on any stack (ASan's frames are large).
  CHECK(Run("{{ define \"r\" }}{{ if 1 }}{{ with 1 }}{{ template \"r\" }}{{ end }}{{ end }}{{ end }}{{ template \"r\" }}")
            .error()
            .message.find("exceeded maximum template depth (100)") != std::string::npos);
}

}  // namespace
}  // namespace tazuna::manifest::gotemplate
