#include "manifest/hint.hpp"

#include <doctest/doctest.h>

namespace tazuna::manifest {
namespace {

using nlohmann::json;

const char* kPath = "svc/tazuna.hint.yaml";

std::string ParseError(const std::string& text) {
  util::Result<Hint> hint = ParseHint(text, kPath);
  return hint ? "" : hint.error().message;
}

std::string ApplyError(const std::string& text, const json& given) {
  util::Result<Hint> hint = ParseHint(text, kPath);
  REQUIRE(hint);
  util::Result<json> out = ApplyHint(*hint, given, kPath);
  return out ? "" : out.error().message;
}

TEST_CASE("hint files: the Go tool's schema rules, and unknown keys refused") {
  CHECK(ParseError("apiVersion: tazuna.pepabo.com/v1\nkind: TazunaHint\nvars:\n  a: {type: string, required: true, description: d}\n") == "");
  CHECK(ParseError("") == "");
  CHECK(ParseError("vars:\n  a: {type: int}\n") ==
        "svc/tazuna.hint.yaml: hint var \"a\" has invalid type \"int\" (must be string, slice, or map)");
  CHECK(ParseError("vars:\n  a: {}\n").find("invalid type \"\"") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string, required: true, default: x}\n").find("required: true with a default") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: slice, format: ip}\n").find("format is only valid for type string") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string, format: phone}\n").find("unknown format \"phone\"") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string, required_with: [b]}\n").find("required_with referencing non-existent var \"b\"") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string, required: true, required_without: [a]}\n").find("with required_without") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string}\nrules:\n- {type: anyof, vars: [a, a]}\n").find("rule[0] has unknown type \"anyof\"") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string}\nrules:\n- {type: oneof_required, vars: [a]}\n").find("at least 2 vars, got 1") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string}\nrules:\n- {type: oneof_required, vars: [a, z]}\n").find("non-existent var \"z\"") != std::string::npos);
  // A misspelt key would silently switch a rule off: refused, naming it.
  CHECK(ParseError("vars:\n  a: {type: string, requierd: true}\n").find("unknown field \"requierd\"") != std::string::npos);
  CHECK(ParseError("varz: {}\n").find("unknown field \"varz\"") != std::string::npos);
  CHECK(ParseError("vars: [a]\n").find("vars must be a mapping") != std::string::npos);
  CHECK(ParseError("vars:\n  a: {type: string, required: yes please}\n").find("must be true or false") != std::string::npos);
  CHECK(ParseError("vars: {a: {type: string\n").find("svc/tazuna.hint.yaml") != std::string::npos);
}

TEST_CASE("hints applied: required, defaults, zero values, conditions and rules on what was given") {
  const std::string text =
      "vars:\n"
      "  name: {type: string, required: true}\n"
      "  env: {type: string, default: production}\n"
      "  replicas: {type: string, default: 3}\n"
      "  tags: {type: slice}\n"
      "  extra: {type: map}\n"
      "  note: {type: string}\n";
  util::Result<Hint> hint = ParseHint(text, kPath);
  REQUIRE(hint);
  util::Result<json> out = ApplyHint(*hint, json{{"name", "x"}, {"other", "kept"}}, kPath);
  REQUIRE(out);
  CHECK(*out == json{{"name", "x"}, {"other", "kept"}, {"env", "production"}, {"replicas", 3}, {"tags", json::array()},
                     {"extra", json::object()}, {"note", ""}});
  CHECK(ApplyError(text, json::object()) == "svc/tazuna.hint.yaml: hint var \"name\" is required but not provided");
  // Given values win over defaults, even empty ones.
  out = ApplyHint(*hint, json{{"name", "x"}, {"env", ""}}, kPath);
  REQUIRE(out);
  CHECK((*out)["env"] == "");

  // required_with and required_without (documented keys; the Go tool's YAML library reads neither, so it never
  // enforced them) look at what was given, not at injected zero values.
  const std::string cond =
      "vars:\n"
      "  apiKey: {type: string, required_with: [secretKey]}\n"
      "  secretKey: {type: string}\n"
      "  fallback: {type: string, requiredwithout: [endpoint]}\n"
      "  endpoint: {type: string}\n";
  CHECK(ApplyError(cond, json{{"endpoint", "e"}}) == "");
  CHECK(ApplyError(cond, json{{"endpoint", "e"}, {"secretKey", "s"}}) ==
        "svc/tazuna.hint.yaml: hint var \"apiKey\" is required because \"secretKey\" is provided (required_with)");
  CHECK(ApplyError(cond, json{{"endpoint", "e"}, {"secretKey", "s"}, {"apiKey", "k"}}) == "");
  CHECK(ApplyError(cond, json::object()) ==
        "svc/tazuna.hint.yaml: hint var \"fallback\" is required because none of [endpoint] are provided (required_without)");
  CHECK(ApplyError(cond, json{{"fallback", "f"}}) == "");

  const std::string rules =
      "vars:\n  host: {type: string, default: h}\n  ip: {type: string}\n"
      "rules:\n- {type: oneof_required, vars: [host, ip]}\n- {type: oneof_required, vars: [host, ip], message: say one}\n";
  CHECK(ApplyError(rules, json::object()) ==
        "svc/tazuna.hint.yaml: rule[0] (oneof_required): at least one of [host ip] must be provided");
  CHECK(ApplyError(rules, json{{"ip", "1.2.3.4"}}) == "");
}

TEST_CASE("hint formats: checked on non-empty strings, the value never in the message") {
  const std::string text = "vars:\n  ip: {type: string, format: ip}\n";
  CHECK(ApplyError(text, json::object()) == "");  // the injected "" is not checked
  CHECK(ApplyError(text, json{{"ip", "10.0.0.300"}}) ==
        "svc/tazuna.hint.yaml: hint var \"ip\" does not match format \"ip\": invalid IP address");
  CHECK(ApplyError(text, json{{"ip", "10.0.0.3"}}) == "");
}

TEST_CASE("hint formats answer as the Go functions the Go tool calls") {
  // Each expectation was read from Go 1.22 (net.ParseIP, net.ParseCIDR, url.ParseRequestURI, time.Parse).
  struct Case {
    const char* format;
    const char* value;
    bool ok;
  };
  const Case cases[] = {
      {"hostname", "example.com", true}, {"hostname", "a-b.c1", true}, {"hostname", "-a.com", false},
      {"hostname", "a..b", false}, {"hostname", "a_b", false}, {"hostname", "localhost", true},
      {"email", "a.b+c@x.example.org", true}, {"email", "a@b", false}, {"email", "a@b.c1", false}, {"email", "@b.co", false},
      {"email", "a@@b.co", false},
      {"uuid", "123e4567-e89b-12d3-a456-426614174000", true}, {"uuid", "123e4567e89b12d3a456426614174000", false},
      {"semver", "1.2.3", true}, {"semver", "v1.2.3-rc.1+b.5", true}, {"semver", "1.2", false}, {"semver", "1.2.3-", false},
      {"semver", "1.2.3-a..b", false}, {"semver", "1.2.3+x-y", true},
      {"ip", "1.2.3.4", true}, {"ip", "01.2.3.4", false}, {"ip", "::ffff:1.2.3.4", true}, {"ip", "fe80::1%eth0", false},
      {"ip", "1:2:3:4:5:6:1.2.3.4", true}, {"ip", " 1.2.3.4", false},
      {"cidr", "10.0.0.0/8", true}, {"cidr", "10.0.0.0/08", true}, {"cidr", "10.0.0.0/33", false}, {"cidr", "::/128", true},
      {"cidr", "::/129", false}, {"cidr", "10.0.0.0/", false}, {"cidr", "1.2.3.4/+8", false},
      {"url", "http://x", true}, {"url", "x:y", true}, {"url", "/path", false}, {"url", "http://[::1", false},
      {"url", "http:", true}, {"url", "http://a b", false}, {"url", "1http://a", false}, {"url", "http://x/%zz", false},
      {"url", "http://x?%zz", true}, {"url", "h://a#frag", false}, {"url", "http://x\ty", false}, {"url", "http://h:8a/", false},
      {"url", "http://[::1]:80/", true}, {"url", "http://[::1]x/", false}, {"url", "http://%41/", false},
      {"url", "http://u^@h/", false}, {"url", "http://a\"b/", true}, {"url", "http://x/a b", true},
      {"datetime", "2024-01-02T03:04:05Z", true}, {"datetime", "2024-01-02t03:04:05Z", false},
      {"datetime", "2024-02-30T03:04:05Z", false}, {"datetime", "2024-02-29T03:04:05Z", true},
      {"datetime", "2023-02-29T03:04:05Z", false}, {"datetime", "2024-01-02T24:00:00Z", false},
      {"datetime", "2024-01-02T03:04:05.123456789Z", true}, {"datetime", "2024-01-02T03:04:05.Z", false},
      {"datetime", "2024-01-02T03:04:05+24:60", true}, {"datetime", "2024-01-02T03:04:05+25:00", false},
      {"datetime", "2024-01-02T03:04:05+0900", false}, {"datetime", "2024-01-02T03:04:05,5Z", true},
      {"datetime", "2024-01-02", false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.format);
    CAPTURE(c.value);
    CHECK(FormatViolation(c.format, c.value).empty() == c.ok);
  }
}

TEST_CASE("hint types against tazuna.yaml's vars") {
  util::Result<Hint> hint = ParseHint("vars:\n  s: {type: string}\n  l: {type: slice}\n  m: {type: map}\n", kPath);
  REQUIRE(hint);
  HelmfileVar text{"static", "", "x", {}, {}, "", "", "", ""};
  HelmfileVar list{"static", "", "", {"a"}, {}, "", "", "", ""};
  HelmfileVar env{"env", "E", "", {}, {}, "", "", "", ""};
  CHECK(CheckVarKinds(*hint, {{"s", text}, {"l", list}}, kPath));
  CHECK(CheckVarKinds(*hint, {{"l", env}, {"m", env}}, kPath));  // a string from env is not checked, as in Go
  CHECK(CheckVarKinds(*hint, {{"s", list}}, kPath).error().message.find("expects type string") != std::string::npos);
  CHECK(CheckVarKinds(*hint, {{"l", text}}, kPath).error().message.find("expects type slice") != std::string::npos);
  CHECK(CheckVarKinds(*hint, {{"m", list}}, kPath).error().message.find("expects type map") != std::string::npos);
}

}  // namespace
}  // namespace tazuna::manifest
