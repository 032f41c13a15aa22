#include "manifest/sprig_functions.hpp"

#include <doctest/doctest.h>

#include "manifest/helmfile_template.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;

// The template rendered with vars as the Go tool renders a helmfile.yaml.gotmpl; "error: ..." on failure.
std::string Render(const std::string& text, const json& vars = json::object()) {
  HelmfileTemplateData data;
  data.values = vars;
  util::Result<std::string> out = RenderHelmfileTemplate(text, data, "helmfile.yaml.gotmpl");
  return out ? *out : "error: " + out.error().message;
}

TEST_CASE("sprig: spf13/cast conversions") {
  CHECK(Render(R"({{ int64 "12" }} {{ int "x" }} {{ int 1.9 }} {{ int "12.00" }} {{ int "0x1F" }} {{ int true }})") ==
        "12 0 1 12 31 1");
  CHECK(Render(R"({{ add "4" 1.9 }} {{ float64 "1.5" }} {{ atoi "-7" }} {{ atoi "7x" }})") == "5 1.5 -7 0");
  CHECK(Render(R"({{ div 1 0 }})").find("integer divide by zero") != std::string::npos);
}

TEST_CASE("sprig: set and merge change the map they are given, as Go's maps do") {
  const json vars = {{"image", {{"tag", "1"}}}};
  CHECK(Render(R"({{ $_ := set .StateValues.image "tag" "2" }}{{ .Values.image.tag }})", vars) == "2");
  CHECK(Render(R"({{ $d := dict "a" 1 }}{{ $_ := merge $d (dict "a" 2 "b" 3) }}{{ $d }})") == "map[a:1 b:3]");
  CHECK(Render(R"({{ mergeOverwrite (dict "a" "x" "l" (list 1)) (dict "a" "" "l" (list)) }})") == "map[a: l:[]]");
  CHECK(Render(R"({{ set nil "k" "v" }})").rfind("error: ", 0) == 0);
}

TEST_CASE("sprig: missing keys") {
  CHECK(Render("{{ .StateValues.x }}|{{ .StateValues.x | default \"d\" }}|{{ .Environment.Values }}") ==
        "<no value>|d|<no value>");
  CHECK(Render(R"({{ get .StateValues.x "k" }})").rfind("error: ", 0) == 0);
  CHECK(Render(R"([{{ get nil "k" }}] {{ hasKey (dict) "k" }})") == "[] false");
}

TEST_CASE("sprig: toYaml is goyaml.v2's output") {
  CHECK(Render(R"({{ toYaml (list "yes" "1" "" "<<" "a: b" "it's" 1.5 2.0) }})") ==
        "- \"yes\"\n- \"1\"\n- \"\"\n- <<\n- 'a: b'\n- it's\n- 1.5\n- 2");
  CHECK(Render(R"({{ toYaml (dict "a10" 1 "a9" 2 "B" 3 "_" 4) }})") == "_: 4\nB: 3\na9: 2\na10: 1");
  CHECK(Render(R"({{ toYaml (dict "lead" "\na" "keep" "a\n\n" "space" "a \nb") }})") ==
        "keep: |+\n  a\n\nlead: |2-\n\n  a\nspace: \"a \\nb\"");
  CHECK(Render(R"({{ toYaml 1i }}|{{ toYaml (list 1234567.5 0.000001) }})") == "|- 1.2345675e+06\n- 1e-06");
}

TEST_CASE("sprig: fromYaml and fromJson type numbers as float64 and report errors in the map") {
  CHECK(Render(R"({{ $m := fromYaml "k: 1000000\nn: 1" }}{{ $m.k }} {{ typeOf $m.k }} {{ $m }})") == "1e+06 float64 map[false:1 k:1e+06]");
  CHECK(Render(R"({{ hasKey (fromYaml "- a") "Error" }} {{ hasKey (fromJson "{") "Error" }} {{ fromJson "null" }})") ==
        "true true map[]");
}

TEST_CASE("sprig: the left-out functions are not defined, and the rest are") {
  for (const std::string& name : SprigFunctionsLeftOut()) {
    CHECK_MESSAGE(SprigFunctions().count(name) == 0, name);
  }
  CHECK(SprigFunctionsLeftOut().count("env") == 0);
  CHECK(SprigFunctions().count("env") == 0);
  CHECK(SprigFunctions().count("expandenv") == 0);
  for (const char* name : {"toYaml", "fromYaml", "toJson", "fromJson", "merge", "dig", "sha256sum", "mustFirst"}) {
    CHECK_MESSAGE(SprigFunctions().count(name) == 1, name);
  }
}

}  // namespace
}  // namespace tazuna::manifest
