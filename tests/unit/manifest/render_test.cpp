#include "manifest/render.hpp"

#include <filesystem>
#include <sstream>

#include <doctest/doctest.h>

#include "fakes.hpp"
#include "manifest/objects.hpp"

namespace tazuna::manifest {
namespace {

using nlohmann::json;
using testing::FakeFileReader;
using testing::FakeProcessRunner;

struct Fixture {
  FakeFileReader files;
  FakeProcessRunner processes;
  util::Environment env{{{"PATH", "/usr/bin"}, {"HOME", "/home/u"}}};
  std::ostringstream log_stream;
  util::Logger log{log_stream, 9};
  RenderContext ctx{processes, files, env, log, nullptr, std::chrono::seconds(300), "/cache"};
  TazunaFile file;
  Fixture() { file.dir = "repo"; file.path = "repo/tazuna.yaml"; }

  util::Result<RenderedManifest> Run(const Manifest& m) { return Render(m, file, ctx); }
};

Manifest Make(const std::string& name, const std::string& type, const std::string& path) {
  Manifest m;
  m.name = name;
  m.type = type;
  m.path = path;
  return m;
}

std::vector<std::string> Ids(const std::vector<json>& objects) {
  std::vector<std::string> out;
  for (const json& o : objects) {
    const json& md = o.value("metadata", json::object());
    out.push_back(o.value("kind", "") + "/" + md.value("namespace", "") + "/" + md.value("name", ""));
  }
  return out;
}

TEST_CASE("render manifests: a directory is read recursively, sorted, .yaml/.yml/.json only") {
  Fixture f;
  f.files.files["repo/app/b.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n";
  f.files.files["repo/app/a/z.json"] = R"({"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "z"}})";
  f.files.files["repo/app/README.md"] = "not yaml: [";
  f.files.files["repo/app/c.yml"] =
      "---\n# only a comment\n---\nfoo: bar\n---\napiVersion: v1\nkind: Service\nmetadata: {name: c}\n";
  util::Result<RenderedManifest> r = f.Run(Make("app", "manifests", "app"));
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(Ids(r->objects) == std::vector<std::string>{"Secret//z", "ConfigMap//b", "Service//c"});
  CHECK_FALSE(r->always_sync);
  CHECK(f.processes.requests.empty());
}

TEST_CASE("render manifests: a glob and a single file; a missing path names it") {
  Fixture f;
  f.files.files["repo/x/one.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: one}\n";
  f.files.files["repo/x/two.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: two}\n";
  util::Result<RenderedManifest> glob = f.Run(Make("g", "manifests", "x/*.yaml"));
  REQUIRE(glob.has_value());
  CHECK(Ids(glob->objects) == std::vector<std::string>{"ConfigMap//one", "ConfigMap//two"});
  util::Result<RenderedManifest> single = f.Run(Make("s", "manifests", "x/two.yaml"));
  REQUIRE(single.has_value());
  CHECK(single->objects.size() == 1);
  util::Result<RenderedManifest> missing = f.Run(Make("m", "manifests", "nope.yaml"));
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message == "manifest \"m\": path \"repo/nope.yaml\" does not exist");
}

TEST_CASE("render: List expansion, defaultNamespace only on namespaced kinds, Namespace then CRD first") {
  Fixture f;
  f.files.files["repo/all.yaml"] =
      "apiVersion: v1\nkind: List\nitems:\n"
      "  - {apiVersion: v1, kind: ConfigMap, metadata: {name: cm}}\n"
      "  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, metadata: {name: cr}}\n"
      "---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n"
      "---\napiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n"
      "---\napiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: gadgets.example.com}\n"
      "spec: {group: example.com, scope: Cluster, names: {kind: Gadget}}\n"
      "---\napiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: other}\n"
      "---\napiVersion: v1\nkind: Namespace\nmetadata: {name: ns}\n";
  Manifest m = Make("all", "manifests", "all.yaml");
  m.manifests.default_namespace = "team";
  util::Result<RenderedManifest> r = f.Run(m);
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(Ids(r->objects) == std::vector<std::string>{"Namespace//ns", "CustomResourceDefinition//gadgets.example.com",
                                                    "ConfigMap/team/cm", "ClusterRole//cr", "Widget/team/w",
                                                    "Gadget//g", "Service/other/s"});
}

TEST_CASE("render: what kubectl apply reads as absent is absent (issue 25)") {
  Fixture f;
  f.files.files["repo/q.yaml"] =
      "\xEF\xBB\xBF# a comment-only document\r\n---\r\napiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: a\r\n"
      "  namespace:\r\n  labels: null\r\n  annotations:\r\n---\r\n# another\r\n---\r\n"
      "apiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: ConfigMap, metadata: {name: b, namespace: \"\"}}\n"
      "- {apiVersion: v1, kind: Namespace, metadata: {name: ns1, namespace: null}}\n";
  Manifest m = Make("q", "manifests", "q.yaml");
  m.manifests.default_namespace = "team";
  util::Result<RenderedManifest> r = f.Run(m);
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(Ids(r->objects) == std::vector<std::string>{"Namespace//ns1", "ConfigMap/team/a", "ConfigMap/team/b"});
  CHECK(r->objects[0]["metadata"].dump() == R"({"name":"ns1"})");
  CHECK(r->objects[1]["metadata"].dump() == R"({"name":"a","namespace":"team"})");
}

struct FixedScopes : ScopeLookup {
  std::optional<bool> IsNamespaced(const std::string&, const std::string& kind) override {
    if (kind == "Widget") return false;
    return std::nullopt;
  }
};

TEST_CASE("render: discovery scopes win over the built-in table") {
  Fixture f;
  FixedScopes scopes;
  f.ctx.scopes = &scopes;
  f.files.files["repo/w.yaml"] = "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\n---\n"
                                 "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n";
  Manifest m = Make("w", "manifests", "w.yaml");
  m.manifests.default_namespace = "team";
  util::Result<RenderedManifest> r = f.Run(m);
  REQUIRE(r.has_value());
  CHECK(Ids(r->objects) == std::vector<std::string>{"Widget//w", "ConfigMap/team/c"});
}

TEST_CASE("render: a document that is not a mapping is an error naming the file") {
  Fixture f;
  f.files.files["repo/bad.yaml"] = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n- 1\n- 2\n";
  util::Result<RenderedManifest> r = f.Run(Make("bad", "manifests", "bad.yaml"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "manifest \"bad\": repo/bad.yaml: document 2 is not a mapping (want a Kubernetes object)");
}

struct BadObjectCase {
  const char* what;
  std::string text;  // repo/objs/b.yaml; repo/objs/a.yaml is fine
  std::string want;
};

TEST_CASE("render: an object without apiVersion or metadata.name names the manifest, file and position") {
  const std::string cm = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ok}\n---\n";
  const std::string list = "apiVersion: v1\nkind: List\nitems:\n";
  const std::string at = "manifest \"web\": repo/objs/b.yaml: document ";
  const std::vector<BadObjectCase> cases = {
      {"no metadata.name", cm + "apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: x}\n",
       at + "2 (kind ConfigMap): missing metadata.name"},
      {"no metadata", cm + "apiVersion: v1\nkind: ConfigMap\ndata: {a: b}\n",
       at + "2 (kind ConfigMap): missing metadata.name"},
      {"empty name", "apiVersion: v1\nkind: Secret\nmetadata: {name: \"\"}\n",
       at + "1 (kind Secret): missing metadata.name"},
      {"generateName only", "apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: run-}\n",
       at + "1 (kind Job): missing metadata.name"},
      {"name not a string", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [a]}\n",
       at + "1 (kind ConfigMap): metadata.name must be a string"},
      {"metadata not a mapping", "apiVersion: v1\nkind: ConfigMap\nmetadata: cm\n",
       at + "1 (kind ConfigMap): metadata must be a mapping"},
      {"no apiVersion", cm + cm + "kind: Service\nmetadata: {name: s}\n", at + "3 (kind Service): missing apiVersion"},
      {"null apiVersion", "apiVersion:\nkind: Service\nmetadata: {name: s}\n",
       at + "1 (kind Service): missing apiVersion"},
      {"apiVersion not a string", "apiVersion: 1\nkind: Service\nmetadata: {name: s}\n",
       at + "1 (kind Service): apiVersion must be a string"},
      {"kind null", "apiVersion: v1\nkind:\nmetadata: {name: s}\n", at + "1: kind must be a non-empty string"},
      {"kind not a string", "apiVersion: v1\nkind: 3\nmetadata: {name: s}\n",
       at + "1: kind must be a non-empty string"},
      {"List item without name",
       list + "  - {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}\n"
              "  - {apiVersion: v1, kind: ConfigMap, metadata: {}}\n",
       at + "1 (kind List): item 2 (kind ConfigMap): missing metadata.name"},
      {"nested List item without apiVersion",
       cm + list + "  - {apiVersion: v1, kind: List, items: [{kind: Secret, metadata: {name: s}}]}\n",
       at + "2 (kind List): item 1 (kind List): item 1 (kind Secret): missing apiVersion"},
      {"List item not a mapping", list + "  - just text\n",
       at + "1 (kind List): item 1 is not a mapping (want a Kubernetes object)"},
      {"List items not a list", list + "  a: b\n", at + "1 (kind List): items must be a list"},
      {"namespace not a label", cm + "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: Bad_NS}\n",
       at + "2 (kind ConfigMap): invalid namespace \"Bad_NS\": use lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63 characters)"},
      {"namespace not a string", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: [a]}\n",
       at + "1 (kind ConfigMap): metadata.namespace must be a string"},
      {"Namespace name not a label", "apiVersion: v1\nkind: Namespace\nmetadata: {name: team.a}\n",
       at + "1 (kind Namespace): invalid namespace \"team.a\": use lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63 characters)"},
      {"name with a slash", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a/b}\n",
       at + "1 (kind ConfigMap): invalid metadata.name \"a/b\": may not contain '/'"},
      {"name with a query", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: 'a?b'}\n",
       at + "1 (kind ConfigMap): invalid metadata.name \"a?b\": may not contain '?'"},
      {"name with a tab", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: \"a\\tb\"}\n",
       at + "1 (kind ConfigMap): invalid metadata.name \"a\\tb\": may not contain whitespace or control characters"},
      {"name ..", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ..}\n",
       at + "1 (kind ConfigMap): invalid metadata.name \"..\": may not be '.' or '..'"},
  };
  for (const BadObjectCase& c : cases) {
    CAPTURE(c.what);
    Fixture f;
    f.files.files["repo/objs/a.yaml"] = cm;
    f.files.files["repo/objs/b.yaml"] = c.text;
    util::Result<RenderedManifest> r = f.Run(Make("web", "manifests", "objs"));
    REQUIRE_FALSE(r.has_value());
    CHECK(r.error().kind == util::ErrorKind::kInput);
    CHECK(r.error().message == c.want);
  }
}

TEST_CASE("render: kind-less documents and List items are skipped; nested Lists are flattened") {
  Fixture f;
  f.files.files["repo/all.yaml"] =
      "metadata: {name: no-kind}\n---\napiVersion: v1\nkind: List\nitems:\n"
      "  - {metadata: {name: no-kind-item}}\n  - null\n"
      "  - {apiVersion: v1, kind: List, items: [{apiVersion: v1, kind: ConfigMap, metadata: {name: inner}}]}\n"
      "  - {apiVersion: v1, kind: ConfigMap, metadata: {name: outer}}\n";
  util::Result<RenderedManifest> r = f.Run(Make("all", "manifests", "all.yaml"));
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(Ids(r->objects) == std::vector<std::string>{"ConfigMap//inner", "ConfigMap//outer"});
}

const char* kDeployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n";

TEST_CASE("render kustomize: kustomize build when present") {
  Fixture f;
  f.files.files["repo/k/kustomization.yaml"] = "resources: []\n";
  f.processes.handler = [](const util::ProcessRequest&) { return util::ProcessResult{0, kDeployment, "", false}; };
  Manifest m = Make("web", "kustomize", "k");
  m.kustomize.default_namespace = "apps";
  util::Result<RenderedManifest> r = f.Run(m);
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(f.processes.Commands() == std::vector<std::string>{"kustomize build repo/k"});
  CHECK(f.processes.requests[0].env.at("PATH") == "/usr/bin");
  CHECK(f.processes.requests[0].timeout == std::chrono::milliseconds(300000));
  CHECK(Ids(r->objects) == std::vector<std::string>{"Deployment/apps/web"});
}

TEST_CASE("render kustomize: falls back to kubectl kustomize; neither is a tool-missing error") {
  Fixture f;
  f.files.files["repo/k/kustomization.yaml"] = "resources: []\n";
  f.processes.handler = [](const util::ProcessRequest& req) -> util::Result<util::ProcessResult> {
    if (req.argv[0] == "kustomize") return testing::ToolMissing("kustomize");
    return util::ProcessResult{0, kDeployment, "", false};
  };
  util::Result<RenderedManifest> r = f.Run(Make("web", "kustomize", "k"));
  REQUIRE(r.has_value());
  CHECK(f.processes.Commands() == std::vector<std::string>{"kustomize build repo/k", "kubectl kustomize repo/k"});

  f.processes.handler = [](const util::ProcessRequest& req) -> util::Result<util::ProcessResult> {
    return testing::ToolMissing(req.argv[0]);
  };
  r = f.Run(Make("web", "kustomize", "k"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == util::ErrorKind::kToolMissing);
  CHECK(r.error().message == "manifest \"web\": kustomize: neither \"kustomize\" nor \"kubectl\" found on PATH");
}

TEST_CASE("render kustomize: an object without metadata.name names the kustomization path") {
  Fixture f;
  f.files.files["repo/k/kustomization.yaml"] = "resources: []\n";
  f.processes.handler = [](const util::ProcessRequest&) {
    return util::ProcessResult{0, std::string(kDeployment) + "---\napiVersion: v1\nkind: Service\nmetadata: {}\n", "",
                               false};
  };
  util::Result<RenderedManifest> r = f.Run(Make("web", "kustomize", "k"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "manifest \"web\": repo/k: document 2 (kind Service): missing metadata.name");
}

TEST_CASE("render kustomize: a failing build shows the tool's stderr") {
  Fixture f;
  f.files.files["repo/k/kustomization.yaml"] = "resources: [missing.yaml]\n";
  f.processes.handler = [](const util::ProcessRequest&) {
    return util::ProcessResult{1, "", "Error: accumulating resources: missing.yaml\n\n", false};
  };
  util::Result<RenderedManifest> r = f.Run(Make("web", "kustomize", "k"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == util::ErrorKind::kInput);
  CHECK(r.error().message == "manifest \"web\": kustomize build repo/k failed (exit status 1)");
  CHECK(r.error().detail_lines == std::vector<std::string>{"Error: accumulating resources: missing.yaml"});
  r = f.Run(Make("web", "kustomize", "nope"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "manifest \"web\": kustomize: directory \"repo/nope\" does not exist");
}


TEST_CASE("render helmfile: without kubeVersion, helm renders for the cluster's version and API versions") {
  Fixture f;
  f.files.files["repo/hf/helmfile.yaml"] = "releases:\n  - {name: web, namespace: apps, chart: ./web}\n";
  f.processes.handler = [](const util::ProcessRequest& req) -> util::Result<util::ProcessResult> {
    if (req.argv[0] == "helmfile") return testing::ToolMissing("helmfile");
    return util::ProcessResult{0, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n", "", false};
  };
  f.ctx.capabilities = []() -> std::optional<Capabilities> {
    return Capabilities{"v1.33.13", {"example.com/v1", "example.com/v1/Widget", "v1"}};
  };
  REQUIRE(f.Run(Make("hf", "helmfile", "hf")));
  CHECK(f.processes.Commands().back() ==
        "helm template web repo/hf/web --namespace apps --no-hooks --kube-version v1.33.13 --api-versions "
        "example.com/v1 --api-versions example.com/v1/Widget --api-versions v1 --values -");
  f.ctx.capabilities = [] { return std::optional<Capabilities>(); };  // a cluster that cannot say
  REQUIRE(f.Run(Make("hf", "helmfile", "hf")));
  CHECK(f.processes.Commands().back() == "helm template web repo/hf/web --namespace apps --no-hooks --values -");
  // ... then the version this plugin is built against, when the caller gives one (helm's own default,
  // v1.20.0 in a helm built from its Go module, is refused by charts requiring a newer Kubernetes).
  f.ctx.default_kube_version = "v1.33.13";
  REQUIRE(f.Run(Make("hf", "helmfile", "hf")));
  CHECK(f.processes.Commands().back() ==
        "helm template web repo/hf/web --namespace apps --no-hooks --kube-version v1.33.13 --values -");
  f.ctx.capabilities = nullptr;  // no cluster at all
  REQUIRE(f.Run(Make("hf", "helmfile", "hf")));
  CHECK(f.processes.Commands().back() ==
        "helm template web repo/hf/web --namespace apps --no-hooks --kube-version v1.33.13 --values -");
}

TEST_CASE("render helmfile: the real helmfile for what only it renders, vars on stdin, release namespaces apart") {
  Fixture f;
  f.file.environment = "prod";
  f.files.files["repo/hf/helmfile.yaml.gotmpl"] = "helmDefaults: {wait: true}\nreleases: []\n";
  f.processes.handler = [](const util::ProcessRequest&) { return util::ProcessResult{0, "", "", false}; };
  Manifest m = Make("hf", "helmfile", "hf");
  m.helmfile.include_crds = true;
  m.helmfile.kube_version = "1.31.0";
  m.helmfile.default_namespace = "fallback";
  m.helmfile.extra_value_files = {"extra/prod.yaml"};
  m.helmfile.vars["tag"] = HelmfileVar{"static", "", "secret-v2", {}, {}, "", "", "", ""};
  REQUIRE(f.Run(m));
  REQUIRE(f.processes.requests.size() == 1);
  const util::ProcessRequest& req = f.processes.requests[0];
  const std::vector<std::string> head(req.argv.begin(), req.argv.end() - 4);
  CHECK(util::Join(head, " ") ==
        // No --namespace: helmfile's would override every release's own namespace (HELM_NAMESPACE below).
        "helmfile --file repo/hf/helmfile.yaml.gotmpl --environment prod --state-values-file "
        "/dev/stdin template --no-hooks --include-crds --kube-version 1.31.0 --values " +
            // from the helmfile's directory, as the Go tool reads extraValueFiles
            std::filesystem::absolute("repo/hf/extra/prod.yaml").string());
  CHECK(req.argv[req.argv.size() - 4] == "--output-dir");
  CHECK(req.argv.back() == "{{ .OutputDir }}/n-{{ .Release.Namespace }}/r-{{ .Release.Name }}");
  CHECK(json::parse(req.stdin_data) == json::parse(R"({"tag":"secret-v2"})"));
  CHECK(req.env.at("HELM_NAMESPACE") == "fallback");
  CHECK(f.log_stream.str().find("secret-v2") == std::string::npos);
}

TEST_CASE("render helmfile: without helmfile, helm template per release; a release's namespace is its objects'") {
  Fixture f;
  f.file.environment = "prod";
  f.env.Set("DOMAIN", "example.org");
  f.files.files["repo/hf/helmfile.yaml.gotmpl"] =
      "repositories:\n  - {name: bitnami, url: https://charts.example.com}\n"
      "releases:\n"
      "  - name: web\n    namespace: apps\n    chart: ./charts/web\n    version: 1.2.3\n"
      "    values:\n      - values/base.yaml\n      - {image: {tag: \"{{ .Values.tag }}\"}, env: \"{{ .Environment.Name }}\"}\n"
      "    set:\n      - {name: a.b, value: \"x,y\"}\n      - {name: list, values: [1, \"{two}\"]}\n      - {name: skip, value: \"\"}\n"
      "  - name: cache\n    chart: bitnami/redis\n    values: [{host: '{{ .StateValues.domain | default \"none\" }}'}]\n"
      "  - {name: off, chart: ./x, installed: false}\n";
  f.files.files["repo/hf/values/base.yaml"] = "image: {repo: nginx, tag: old}\nreplicas: 1\n";
  f.files.files["repo/extra/prod.yaml"] = "replicas: 3\n";  // where the previous version read it: still read
  f.processes.handler = [](const util::ProcessRequest& req) -> util::Result<util::ProcessResult> {
    if (req.argv[0] == "helmfile") FAIL("helmfile is not needed for the subset");
    return util::ProcessResult{0, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: " + req.argv[2] + "}\n---\n"
                                  "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns-" + req.argv[2] + "}\n", "", false};
  };
  Manifest m = Make("hf", "helmfile", "hf");
  m.helmfile.include_crds = true;
  m.helmfile.kube_version = "1.31.0";
  m.helmfile.default_namespace = "fallback";
  m.helmfile.extra_value_files = {"extra/prod.yaml"};
  m.helmfile.vars["tag"] = HelmfileVar{"static", "", "v2", {}, {}, "", "", "", ""};
  m.helmfile.vars["domain"] = HelmfileVar{"env", "DOMAIN", "", {}, {}, "", "", "", ""};
  util::Result<RenderedManifest> r = f.Run(m);
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  const std::vector<std::string> commands = f.processes.Commands();
  REQUIRE(commands.size() == 2);
  // Releases in the order helmfile's --output-dir is read back: own namespace ("" first), then name.
  CHECK(commands[0] ==
        "helm template cache redis --repo https://charts.example.com --namespace fallback --no-hooks "
        "--include-crds --kube-version 1.31.0 --values -");
  CHECK(commands[1] ==
        "helm template web repo/hf/charts/web --namespace apps --version 1.2.3 --no-hooks --include-crds "
        "--kube-version 1.31.0 --values - --set a.b=x\\,y --set list={1,\\{two\\}}");
  CHECK(json::parse(f.processes.requests[1].stdin_data) ==
        json::parse(R"({"image":{"repo":"nginx","tag":"v2"},"env":"prod","replicas":3})"));
  CHECK(json::parse(f.processes.requests[0].stdin_data) == json::parse(R"({"host":"example.org","replicas":3})"));
  CHECK(f.log_stream.str().find("Warning: helmfile.extraValueFiles: \"extra/prod.yaml\" is read from the helmfile's "
                                "directory (repo/hf)") != std::string::npos);
  // Once it is where the Go tool reads it, that one wins, without a warning.
  f.files.files["repo/hf/extra/prod.yaml"] = "replicas: 5\n";
  f.log_stream.str("");
  REQUIRE(f.Run(m));
  CHECK(json::parse(f.processes.requests.back().stdin_data)["replicas"] == 5);
  CHECK(f.log_stream.str().find("extraValueFiles") == std::string::npos);
  // web's objects go to its release namespace; cache has none, so the manifest's defaultNamespace applies.
  CHECK(Ids(r->objects) == std::vector<std::string>{"Namespace//ns-cache", "Namespace//ns-web",
                                                    "ConfigMap/fallback/cache", "ConfigMap/apps/web"});
}

TEST_CASE("render helmfile: what needs the helmfile binary says so; every helmfile is a template, as in Go") {
  Fixture f;
  f.processes.handler = [](const util::ProcessRequest& req) -> util::Result<util::ProcessResult> {
    if (req.argv[0] == "helmfile") return testing::ToolMissing("helmfile");
    if (req.argv[0] == "helm" && req.argv[2] == "nohelm") return testing::ToolMissing("helm");
    return util::ProcessResult{0, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", "", false};
  };
  f.files.files["repo/a/helmfile.yaml.gotmpl"] = "releases:\n  - name: x\n    chart: \"{{ readFile .Values }}\"\n";
  util::Result<RenderedManifest> r = f.Run(Make("a", "helmfile", "a"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == util::ErrorKind::kToolMissing);
  CHECK(r.error().message == "manifest \"a\": repo/a/helmfile.yaml.gotmpl:3:16: template: function \"readFile\" not "
                             "defined (this function needs the helmfile binary)");
  // The environment only through helmfile.vars, as in the Go tool: refused whether helmfile is installed or not.
  f.files.files["repo/a/helmfile.yaml.gotmpl"] = "releases:\n  - {name: x, chart: '{{ env \"HOME\" }}'}\n";
  r = f.Run(Make("a", "helmfile", "a"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == util::ErrorKind::kInput);
  CHECK(r.error().message.find("function \"env\" not defined: a helmfile template does not read the environment") !=
        std::string::npos);
  f.files.files["repo/b/helmfile.yaml"] = "environments: {prod: {}}\nreleases: []\n";
  r = f.Run(Make("b", "helmfile", "b"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == util::ErrorKind::kToolMissing);
  CHECK(r.error().message == "manifest \"b\": repo/b/helmfile.yaml: \"environments\" needs the helmfile binary, "
                             "which is not on PATH");
  f.files.files["repo/c/helmfile.yaml"] = "releases:\n  - {name: nohelm, chart: ./c}\n";
  r = f.Run(Make("c", "helmfile", "c"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == util::ErrorKind::kToolMissing);
  CHECK(r.error().message == "manifest \"c\": helmfile: neither \"helmfile\" nor \"helm\" found on PATH");
  // A missing key is nil (missingkey=zero): `default` fills it, printing it gives <no value>.
  f.files.files["repo/d/helmfile.yaml.gotmpl"] =
      "releases:\n  - {name: x, chart: \"{{ .Values.nope | default \"./c\" }}\", values: [{v: \"{{ .Environment.Values }}\"}]}\n";
  r = f.Run(Make("d", "helmfile", "d"));
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(f.processes.Commands().back().find("helm template x repo/d/c ") == 0);
  CHECK(json::parse(f.processes.requests.back().stdin_data) == json::parse(R"({"v":"<no value>"})"));
  // A helmfile.yaml is a template too (helmfile v1 would read {{ }} as text; the Go tool renders it).
  f.files.files["repo/e/helmfile.yaml"] = "releases:\n  - {name: x, chart: ./c, values: [{a: \"{{ .Values.v }}\"}]}\n";
  Manifest e = Make("e", "helmfile", "e");
  e.helmfile.vars["v"] = HelmfileVar{"static", "", "given", {}, {}, "", "", "", ""};
  REQUIRE(f.Run(e));
  CHECK(json::parse(f.processes.requests.back().stdin_data) == json::parse(R"({"a":"given"})"));
}

TEST_CASE("render helmfile: tazuna.hint.yaml beside the helmfile checks the vars and fills in defaults") {
  Fixture f;
  f.processes.handler = [](const util::ProcessRequest&) -> util::Result<util::ProcessResult> {
    return util::ProcessResult{0, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", "", false};
  };
  f.files.files["repo/h/helmfile.yaml.gotmpl"] =
      "releases:\n  - {name: x, chart: ./c, values: [{label: '{{ .StateValues.label }}', env: '{{ .StateValues.environment }}',"
      " tags: '{{ .StateValues.tags | len }}'}]}\n";
  f.files.files["repo/h/tazuna.hint.yaml"] =
      "apiVersion: tazuna.pepabo.com/v1\nkind: TazunaHint\nvars:\n"
      "  label: {type: string, required: true}\n"
      "  environment: {type: string, default: production}\n"
      "  tags: {type: slice}\n"
      "  site: {type: string, format: url}\n";
  Manifest m = Make("h", "helmfile", "h");
  util::Result<RenderedManifest> r = f.Run(m);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "manifest \"h\": repo/h/tazuna.hint.yaml: hint var \"label\" is required but not provided");
  m.helmfile.vars["label"] = HelmfileVar{"static", "", "web", {}, {}, "", "", "", ""};
  r = f.Run(m);
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(json::parse(f.processes.requests.back().stdin_data) == json::parse(R"({"label":"web","env":"production","tags":"0"})"));
  m.helmfile.vars["site"] = HelmfileVar{"static", "", "not a url", {}, {}, "", "", "", ""};
  r = f.Run(m);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message.find("hint var \"site\" does not match format \"url\"") != std::string::npos);
  CHECK(r.error().message.find("not a url") == std::string::npos);
  m.helmfile.vars.erase("site");
  m.helmfile.vars["tags"] = HelmfileVar{"static", "", "one", {}, {}, "", "", "", ""};
  r = f.Run(m);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message.find("hint var \"tags\" expects type slice") != std::string::npos);
  f.files.files["repo/h/tazuna.hint.yaml"] = "vars:\n  label: {type: text}\n";
  r = f.Run(m);
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message.find("invalid type \"text\"") != std::string::npos);
}

TEST_CASE("render genesissecret: envfile provider, mapTo, later entries win, static, always-sync") {
  Fixture f;
  f.file.providers = {Provider{"ops", "envfile", "secrets/ops.env"}};
  f.files.files["repo/secrets/ops.env"] = "# comment\n\nDB_USER=admin\nDB_PASS=\"s3cr3t\"\nTOKEN='abc'\n";
  f.files.files["repo/gs.yaml"] =
      "apiVersion: tazuna.pepabo.com/v1\nkind: GenesisSecret\nspec:\n  provider: ops\n"
      "  secrets:\n"
      "    - items: {DB_USER: {mapTo: username}, DB_PASS: {mapTo: password}}\n"
      "    - items: {TOKEN: {mapTo: password}}\n"
      "  static: {url: https://db.example.com}\n"
      "  outputs:\n"
      "    - kubernetesSecret: {namespace: apps, name: db, labels: {app: db}}\n"
      "    - stdout: {}\n";
  util::Result<RenderedManifest> r = f.Run(Make("creds", "genesissecret", "gs.yaml"));
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(r->always_sync);
  REQUIRE(r->objects.size() == 1);
  CHECK(r->objects[0] == json::parse(R"({"apiVersion":"v1","kind":"Secret",
      "metadata":{"name":"db","namespace":"apps","labels":{"app":"db"}},"type":"Opaque",
      "stringData":{"username":"admin","password":"abc","url":"https://db.example.com"}})"));
  CHECK(f.processes.requests.empty());
}

TEST_CASE("render genesissecret: a missing envfile key names key and file, never values") {
  Fixture f;
  f.file.providers = {Provider{"ops", "envfile", "ops.env"}};
  f.files.files["repo/ops.env"] = "A=secret-value\n";
  f.files.files["repo/gs.yaml"] = "spec:\n  provider: ops\n  secrets:\n    - items: {B: {mapTo: b}}\n"
                                  "  outputs: [{kubernetesSecret: {name: s}}]\n";
  util::Result<RenderedManifest> r = f.Run(Make("creds", "genesissecret", "gs.yaml"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "manifest \"creds\": repo/gs.yaml: spec.secrets[0].items.B: key \"B\" not found in "
                             "envfile \"ops.env\" (provider \"ops\")");
  f.files.files["repo/gs2.yaml"] = "spec:\n  provider: nope\n  outputs: []\n";
  r = f.Run(Make("c2", "genesissecret", "gs2.yaml"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().message == "manifest \"c2\": repo/gs2.yaml: spec.provider: provider \"nope\" is not declared in "
                             "repo/tazuna.yaml spec.providers (declared: ops)");
}

TEST_CASE("render genesissecret: default-op runs op item get and keys by label or id") {
  Fixture f;
  f.files.files["repo/gs.yaml"] =
      "spec:\n  secrets:\n    - uri: op://my.1password.com/Platform/cloud\n      preferLabel: true\n"
      "      items: {accessKey: {mapTo: AWS_ACCESS_KEY_ID}}\n  outputs: [{kubernetesSecret: {name: cloud}}]\n";
  f.processes.handler = [](const util::ProcessRequest&) {
    return util::ProcessResult{0, R"({"fields":[{"id":"f1","label":"accessKey","value":"AKIA"}]})", "", false};
  };
  util::Result<RenderedManifest> r = f.Run(Make("cloud", "genesissecret", "gs.yaml"));
  REQUIRE_MESSAGE(r.has_value(), r.error().message);
  CHECK(f.processes.Commands() == std::vector<std::string>{"op --format json item get --vault Platform cloud"});
  CHECK(r->objects[0]["stringData"] == json::parse(R"({"AWS_ACCESS_KEY_ID":"AKIA"})"));
  f.processes.handler = [](const util::ProcessRequest&) -> util::Result<util::ProcessResult> {
    return testing::ToolMissing("op");
  };
  r = f.Run(Make("cloud", "genesissecret", "gs.yaml"));
  REQUIRE_FALSE(r.has_value());
  CHECK(r.error().kind == util::ErrorKind::kToolMissing);
  CHECK(r.error().message == "manifest \"cloud\": 1Password: \"op\" not found on PATH");
}

}  // namespace
}  // namespace tazuna::manifest
