#include "manifest/load.hpp"

#include <doctest/doctest.h>

#include "fakes.hpp"

namespace tazuna::manifest {
namespace {

using testing::FakeFileReader;

constexpr const char* kHeader = "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n";

struct InvalidCase {
  const char* what;
  std::map<std::string, std::string> files;  // "repo/tazuna.yaml" is loaded
  std::string environment;
  std::string tool_version;
  std::string want;
};

std::string Root(const std::string& spec_body) { return std::string(kHeader) + spec_body; }

TEST_CASE("load: Go template conditionals, variables and ranges in the file and its includes") {
  FakeFileReader files;
  files.files["repo/tazuna.yaml"] = Root(
      "  {{- $debug := ne .Environment \"prod\" }}\n"
      "  manifests:\n"
      "    - name: base\n"
      "      type: manifests\n"
      "      path: ./base/{{ if eq .Environment \"prod\" \"staging\" }}{{ .Environment }}{{ else }}dev{{ end }}\n"
      "{{- if $debug }}\n"
      "    - { name: debug, type: manifests, path: ./debug }\n"
      "{{- end }}\n"
      "{{- range $i := 2 }}\n"
      "    - { name: shard-{{ $i }}, type: manifests, path: {{ printf \"./shards/%02d\" $i }} }\n"
      "{{- end }}\n"
      "    - includes: [{ path: inc.yaml }]\n");
  files.files["repo/inc.yaml"] = Root(
      "  manifests:\n"
      "{{- with .Environment }}\n"
      "    - { name: env-{{ . }}, type: manifests, path: ./envs/{{ . | urlquery }} }\n"
      "{{- else }}\n"
      "    - { name: env-none, type: manifests, path: ./envs/none }\n"
      "{{- end }}\n");
  const auto names = [](const TazunaFile& f) {
    std::vector<std::string> out;
    for (const auto& m : f.manifests) out.push_back(m.name + "=" + m.path);
    return out;
  };
  util::Result<TazunaFile> prod = LoadTazunaFile("repo/tazuna.yaml", {"prod", ""}, files);
  REQUIRE_MESSAGE(prod.has_value(), prod.error().message);
  CHECK(names(*prod) == std::vector<std::string>{"base=./base/prod", "shard-0=./shards/00", "shard-1=./shards/01",
                                                 "env-prod=./envs/prod"});
  util::Result<TazunaFile> none = LoadTazunaFile("repo/tazuna.yaml", {"", ""}, files);
  REQUIRE_MESSAGE(none.has_value(), none.error().message);
  CHECK(names(*none) == std::vector<std::string>{"base=./base/dev", "debug=./debug", "shard-0=./shards/00",
                                                 "shard-1=./shards/01", "env-none=./envs/none"});
}

TEST_CASE("load: a full file with includes, environments and providers") {
  FakeFileReader files;
  files.files["repo/tazuna.yaml"] = Root(
      "  minimumSupportedTazunaVersion: v1.4.0\n"
      "  context_matches: [\"kind-.*\"]\n"
      "  environments:\n"
      "    prod: { context_matches: [\"prod-tokyo\"], context_match_mode: and }\n"
      "  providers:\n"
      "    - { name: ops-env, type: envfile, envfile: { path: ./secrets/ops.env } }\n"
      "  manifests:\n"
      "    - name: cni\n"
      "      type: kustomize\n"
      "      path: ./cni/overlays/{{ .Environment }}\n"
      "      kustomize: { defaultNamespace: kube-system }\n"
      "      tags: [infra]\n"
      "    - name: addons\n"
      "      includes: [{ path: ./addons/tazuna.yaml }]\n"
      "    - name: cert-manager\n"
      "      type: helmfile\n"
      "      path: ./cert-manager\n"
      "      dependsOn: [cni, metrics]\n"
      "      helmfile:\n"
      "        includeCRDs: yes\n"
      "        kubeVersion: \"1.31.0\"\n"
      "        extraValueFiles: [values/{{- .Environment -}}.yaml]\n"
      "        vars:\n"
      "          email: { from: env, env: ACME_EMAIL }\n"
      "          token: { from: op, op: { key: id, vault: Platform, item: cm, field: token } }\n"
      "          zones: { from: static, staticSlice: [a, b] }\n");
  files.files["repo/addons/tazuna.yaml"] = Root(
      "  manifests:\n"
      "    - { name: metrics, type: manifests, path: addons/metrics-{{ .Environment }}.yaml }\n"
      "    - { name: creds, type: genesissecret, path: secrets/creds.yaml }\n");
  util::Result<TazunaFile> f = LoadTazunaFile("repo/tazuna.yaml", {"prod", "1.5.0"}, files);
  REQUIRE_MESSAGE(f.has_value(), f.error().message);
  CHECK(f->dir == "repo");
  CHECK(f->environment == "prod");
  CHECK(f->minimum_version == "v1.4.0");
  CHECK(f->context_matches == std::vector<std::string>{"kind-.*"});
  CHECK(f->context_match_mode == "or");
  CHECK(f->environments.at("prod").context_match_mode == "and");
  REQUIRE(f->providers.size() == 1);
  CHECK(f->providers[0] == Provider{"ops-env", "envfile", "./secrets/ops.env"});
  REQUIRE(f->manifests.size() == 4);
  CHECK(f->manifests[0].path == "./cni/overlays/prod");
  CHECK(f->manifests[0].kustomize.default_namespace == "kube-system");
  CHECK(f->manifests[0].line == 11);
  CHECK(f->manifests[1].name == "metrics");
  CHECK(f->manifests[1].path == "addons/metrics-prod.yaml");
  CHECK(f->manifests[1].source_file == "repo/addons/tazuna.yaml");
  CHECK(f->manifests[2].name == "creds");
  const Manifest& cm = f->manifests[3];
  CHECK(cm.depends_on == std::vector<std::string>{"cni", "metrics"});
  CHECK(cm.helmfile.include_crds);
  CHECK(cm.helmfile.kube_version == "1.31.0");
  CHECK(cm.helmfile.extra_value_files == std::vector<std::string>{"values/prod.yaml"});
  CHECK(cm.helmfile.vars.at("email").env == "ACME_EMAIL");
  CHECK(cm.helmfile.vars.at("token").op_key == "id");
  CHECK(cm.helmfile.vars.at("token").op_field == "token");
  CHECK(cm.helmfile.vars.at("zones").static_slice == std::vector<std::string>{"a", "b"});
}

TEST_CASE("load: helmfile wait and timeoutSeconds (absent or 0: 300 s, as the Go tool)") {
  struct Case {
    std::string block;
    bool want_wait = false;
    int want_timeout = 300;
  };
  const std::vector<Case> cases = {
      {"{ wait: true, timeoutSeconds: 45 }", true, 45},
      {"{ wait: true }", true, 300},
      {"{ wait: true, timeoutSeconds: 0 }", true, 300},
      {"{ timeoutSeconds: \"60\" }", false, 60},
      {"{}", false, 300},
  };
  for (const auto& c : cases) {
    CAPTURE(c.block);
    FakeFileReader files;
    files.files["tazuna.yaml"] =
        "spec:\n  manifests:\n    - { name: a, type: helmfile, path: a, helmfile: " + c.block + " }\n";
    util::Result<TazunaFile> f = LoadTazunaFile("tazuna.yaml", {"", "dev"}, files);
    REQUIRE_MESSAGE(f.has_value(), f.error().message);
    CHECK(f->manifests[0].helmfile.wait == c.want_wait);
    CHECK(f->manifests[0].helmfile.timeout_seconds == c.want_timeout);
  }
}

TEST_CASE("load: statusGraceSeconds (ours): whole seconds up to a day; absent: -1 (--status-grace)") {
  const std::vector<std::pair<std::string, int>> cases = {
      {"", -1}, {", statusGraceSeconds: 0", 0}, {", statusGraceSeconds: 45", 45}, {", statusGraceSeconds: \"86400\"", 86400}};
  for (const auto& c : cases) {
    const std::string& field = c.first;
    const int want = c.second;
    CAPTURE(c.first);
    FakeFileReader files;
    files.files["tazuna.yaml"] = "spec:\n  manifests:\n    - { name: a, type: manifests, path: a.yaml" + field + " }\n";
    util::Result<TazunaFile> f = LoadTazunaFile("tazuna.yaml", {"", "dev"}, files);
    REQUIRE_MESSAGE(f.has_value(), f.error().message);
    CHECK(f->manifests[0].status_grace_seconds == want);
  }
}

TEST_CASE("load: minimal file; mode defaults to or; dev builds skip the version gate") {
  FakeFileReader files;
  files.files["tazuna.yaml"] = "spec:\n  minimumSupportedTazunaVersion: 99.0.0\n  manifests:\n"
                               "    - { name: a, type: manifests, path: a.yaml }\n";
  for (const std::string version : {"0.0.0-dev", "dev", ""}) {
    util::Result<TazunaFile> f = LoadTazunaFile("tazuna.yaml", {"", version}, files);
    REQUIRE_MESSAGE(f.has_value(), f.error().message);
    CHECK(f->dir == ".");
    CHECK(f->context_match_mode == "or");
    CHECK(f->manifests.size() == 1);
  }
}

TEST_CASE("load: context patterns RE2 accepts still load (non-greedy, classes, escapes)") {
  for (const std::string pattern : {"kind-.*", "a*?", "a+?b??", "x{2,3}?", "[*+]+", "[]*]*", "a\\*+", "(a*)*",
                                    "(?i)prod-.+"}) {
    CAPTURE(pattern);
    FakeFileReader files;
    files.files["tazuna.yaml"] = "spec:\n  context_matches: ['" + pattern +
                                 "']\n  manifests:\n    - { name: a, type: manifests, path: a.yaml }\n";
    util::Result<TazunaFile> f = LoadTazunaFile("tazuna.yaml", {"", ""}, files);
    CHECK_MESSAGE(f.has_value(), (f ? "" : f.error().message));
  }
}

TEST_CASE("load: names that fit a state ConfigMap, the longest included") {
  const std::string longest(227, 'a');
  for (const std::string& name : {std::string("web"), std::string("-web"), std::string("0"),
                                 std::string("cert-manager-2"), longest}) {
    CAPTURE(name);
    FakeFileReader files;
    files.files["tazuna.yaml"] = "spec:\n  manifests:\n    - { name: " + name + ", type: manifests, path: a.yaml }\n";
    util::Result<TazunaFile> f = LoadTazunaFile("tazuna.yaml", {}, files);
    REQUIRE_MESSAGE(f.has_value(), f.error().message);
    CHECK(f->manifests.at(0).name == name);
  }
}

TEST_CASE("load: a missing root file keeps the reader's error") {
  FakeFileReader files;
  util::Result<TazunaFile> f = LoadTazunaFile("nope/tazuna.yaml", {}, files);
  REQUIRE_FALSE(f.has_value());
  CHECK(f.error().kind == util::ErrorKind::kNotFound);
  CHECK(f.error().message == "open nope/tazuna.yaml: no such file or directory");
}

TEST_CASE("load: invalid files give one exact message") {
  const std::string one = "  manifests:\n    - { name: a, type: manifests, path: a.yaml }\n";
  const std::vector<InvalidCase> cases = {
#include "load_invalid_cases.inc"
  };
  for (const InvalidCase& c : cases) {
    CAPTURE(c.what);
    FakeFileReader files;
    files.files = c.files;
    util::Result<TazunaFile> f = LoadTazunaFile("repo/tazuna.yaml", {c.environment, c.tool_version}, files);
    REQUIRE_FALSE(f.has_value());
    CHECK(f.error().kind == util::ErrorKind::kInput);
    CHECK(f.error().message == c.want);
  }
}

TEST_CASE("load: keys of the Go tool's schema we do not act on are warnings, in file order") {
  struct Case {
    const char* what;
    std::map<std::string, std::string> files;
    std::vector<std::string> want;
  };
  const std::string test = "[{ type: WaitUntil, waitUntil: { name: x } }]";
  const std::vector<Case> cases = {
      {"none set", {{"repo/tazuna.yaml", Root("  manifests:\n    - { name: a, type: manifests, path: a.yaml }\n")}}, {}},
      {"set to nothing",
       {{"repo/tazuna.yaml", Root("  tests: []\n  requirements:\n  manifests:\n"
                                  "    - { name: a, type: manifests, path: a.yaml, tests: [] }\n")}},
       {}},
      {"each occurrence once",
       {{"repo/tazuna.yaml", Root("  tests: " + test + "\n  requirements: [{ command: helm }]\n  manifests:\n"
                                  "    - { name: a, type: manifests, path: a.yaml }\n"
                                  "    - name: b\n      type: manifests\n      path: b.yaml\n      tests: " + test +
                                  "\n")}},
       {"repo/tazuna.yaml:4:3: spec.tests is not run by kubectl tazuna (the Go tool runs them after apply); ignored",
        "repo/tazuna.yaml:5:3: spec.requirements is not checked by kubectl tazuna (the Go tool's legacy requirement "
        "checks); ignored",
        "repo/tazuna.yaml:11:7: spec.manifests[1].tests is not run by kubectl tazuna (the Go tool runs them after "
        "the manifest is applied); ignored"}},
      {"an included manifest's tests, not the include file's spec.tests (the Go tool ignores those too)",
       {{"repo/tazuna.yaml", Root("  manifests:\n    - includes: [{ path: inc.yaml }]\n")},
        {"repo/inc.yaml", Root("  tests: " + test + "\n  manifests:\n"
                               "    - { name: c, type: manifests, path: c.yaml, tests: " + test + " }\n")}},
       {"repo/inc.yaml:6:49: spec.manifests[0].tests is not run by kubectl tazuna (the Go tool runs them after "
        "the manifest is applied); ignored"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    FakeFileReader files;
    files.files = c.files;
    util::Result<TazunaFile> f = LoadTazunaFile("repo/tazuna.yaml", {}, files);
    REQUIRE_MESSAGE(f.has_value(), f.error().message);
    CHECK(f->warnings == c.want);
  }
}

}  // namespace
}  // namespace tazuna::manifest
