#include <filesystem>
#include <sstream>

#include <doctest/doctest.h>

#include "digest_tree.hpp"
#include "manifest/digest_files.hpp"

namespace tazuna::manifest {
namespace {

namespace fs = std::filesystem;

// A repository whose kustomize manifest is `app/`, with files outside it that a kustomization can name (data/),
// and a kustomize binary on PATH.
struct Tree : testing::DigestTree {
  Manifest app;

  Tree() {
    Write(".git/HEAD", "ref: refs/heads/main\n");
    Tool("kustomize");
    Write("data/a.txt", "one\n");
    Write("data/a.env", "A=1\n");
    Write("data/patch.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n");
    Write("data/ops.yaml", "- {op: add, path: /spec/replicas, value: 2}\n");
    Write("data/repl.yaml", "- source: {kind: ConfigMap, name: c, fieldPath: data.a}\n  targets:\n"
                            "  - select: {kind: Deployment}\n    fieldPaths: [spec.template.metadata.labels.a]\n");
    Write("data/targets.yaml", "targets:\n- selector: {kind: Deployment}\n  fieldPath: metadata/labels/v\n");
    file.dir = root.string();
    app.name = "app";
    app.type = "kustomize";
    app.path = "app";
    ctx.plugin_version = "1.0.0 abc";
  }
  InputDigest Digest() { return DigestKustomize(app, file, ctx); }
  // Whether rewriting `rel` with `text` changes the digest; both must be digests.
  bool Changes(const std::string& rel, const std::string& text) {
    const InputDigest before = Digest();
    REQUIRE_MESSAGE(before.cacheable(), before.reason);
    Write(rel, text);
    const InputDigest after = Digest();
    REQUIRE_MESSAGE(after.cacheable(), after.reason);
    return after.digest != before.digest;
  }
};

// `doc` as one item of a YAML list of strings (a block scalar): an inline plugin configuration.
std::string InlineItem(const std::string& doc) {
  std::string out = "- |\n";
  std::istringstream lines(doc);
  for (std::string line; std::getline(lines, line);) out += "  " + line + "\n";
  return out;
}

// One configuration of each builtin kustomize accepts under transformers:, with the data file it reads ("").
struct BuiltinCase {
  const char* kind;
  const char* doc;
  const char* reads;
};

const BuiltinCase kTransformers[] = {
    {"AnnotationsTransformer",
     "apiVersion: builtin\nkind: AnnotationsTransformer\nmetadata: {name: a}\nannotations: {team: x}\n"
     "fieldSpecs: [{path: metadata/annotations, create: true}]\n",
     ""},
    {"LabelTransformer",
     "apiVersion: builtin\nkind: LabelTransformer\nmetadata: {name: l}\nlabels: {app: web}\n"
     "fieldSpecs: [{path: metadata/labels, create: true}]\n",
     ""},
    {"NamespaceTransformer",
     "apiVersion: builtin\nkind: NamespaceTransformer\nmetadata: {name: n, namespace: team}\nunsetOnly: true\n"
     "setRoleBindingSubjects: allServiceAccounts\nfieldSpecs: [{path: metadata/namespace, create: true}]\n",
     ""},
    {"PatchTransformer",
     "apiVersion: builtin\nkind: PatchTransformer\nmetadata: {name: p}\npath: ../data/patch.yaml\n"
     "target: {kind: Deployment, labelSelector: app=web}\noptions: {allowNameChange: true}\n",
     "data/patch.yaml"},
    {"PatchStrategicMergeTransformer",
     "apiVersion: builtin\nkind: PatchStrategicMergeTransformer\nmetadata: {name: s}\npaths: [../data/patch.yaml]\n",
     "data/patch.yaml"},
    {"PatchJson6902Transformer",
     "apiVersion: builtin\nkind: PatchJson6902Transformer\nmetadata: {name: j}\npath: ../data/ops.yaml\n"
     "target: {group: apps, version: v1, kind: Deployment, name: web}\n",
     "data/ops.yaml"},
    {"PrefixSuffixTransformer",
     "apiVersion: builtin\nkind: PrefixSuffixTransformer\nmetadata: {name: ps}\nprefix: a-\nsuffix: -b\n"
     "fieldSpecs: [{path: metadata/name}]\n",
     ""},
    {"PrefixTransformer", "apiVersion: builtin\nkind: PrefixTransformer\nmetadata: {name: p}\nprefix: a-\n", ""},
    {"SuffixTransformer", "apiVersion: builtin\nkind: SuffixTransformer\nmetadata: {name: s}\nsuffix: -b\n", ""},
    {"ImageTagTransformer",
     "apiVersion: builtin\nkind: ImageTagTransformer\nmetadata: {name: i}\nimageTag: {name: nginx, newTag: '1.27'}\n",
     ""},
    {"ReplicaCountTransformer",
     "apiVersion: builtin\nkind: ReplicaCountTransformer\nmetadata: {name: r}\nreplica: {name: web, count: 3}\n"
     "fieldSpecs: [{path: spec/replicas, kind: Deployment}]\n",
     ""},
    {"ReplacementTransformer",
     "apiVersion: builtin\nkind: ReplacementTransformer\nmetadata: {name: r}\nreplacements:\n- path: ../data/repl.yaml\n",
     "data/repl.yaml"},
    {"HashTransformer", "apiVersion: builtin\nkind: HashTransformer\nmetadata: {name: h}\n", ""},
    {"ValueAddTransformer",
     "apiVersion: builtin\nkind: ValueAddTransformer\nmetadata: {name: v}\nvalue: x\n"
     "targets: [{selector: {kind: ConfigMap}, fieldPath: metadata/labels/v, filePathPosition: 1}]\n"
     "targetFilePath: ../data/targets.yaml\n",
     "data/targets.yaml"},
};

}  // namespace

TEST_CASE("kustomize digest: generator inputs, in the kustomization and in generator files") {
  struct Case {
    const char* name;
    const char* kustomization;
    const char* changed;  // a file outside app/ that the render reads
    const char* text;
  };
  const Case cases[] = {
      {"configMapGenerator files", "configMapGenerator:\n- {name: c, files: [k=../data/a.txt]}\n", "data/a.txt", "2"},
      {"configMapGenerator envs", "configMapGenerator:\n- {name: c, envs: [../data/a.env]}\n", "data/a.env", "A=2"},
      {"configMapGenerator env", "configMapGenerator:\n- {name: c, env: ../data/a.env}\n", "data/a.env", "A=2"},
      {"secretGenerator", "secretGenerator:\n- {name: s, type: Opaque, files: [../data/a.txt], literals: [b=2]}\n",
       "data/a.txt", "2"},
      {"generator file", "generators: [../gen/cm.yaml]\n", "data/a.txt", "2"},
      {"generator file itself", "generators: [../gen/cm.yaml]\n", "gen/cm.yaml",
       "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata: {name: c}\nliterals: [a=2]\n"},
      {"inline generator",
       "generators:\n- |\n  apiVersion: builtin\n  kind: SecretGenerator\n  metadata: {name: s}\n  envs: [../data/a.env]\n",
       "data/a.env", "A=2"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Tree t;
    t.Write("gen/cm.yaml", "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata: {name: c}\n"
                           "files: [../data/a.txt]\nliterals: [a=1]\noptions: {disableNameSuffixHash: true}\n");
    t.Write("app/kustomization.yaml", c.kustomization);
    CHECK(t.Changes(c.changed, c.text));
  }
  Tree t;
  t.Write("app/kustomization.yaml", "configMapGenerator:\n- {name: c, literals: [a=1]}\n");
  CHECK(t.Changes("app/kustomization.yaml", "configMapGenerator:\n- {name: c, literals: [a=2]}\n"));
}

TEST_CASE("kustomize digest: each builtin transformer, inline and in one file of several documents") {
  std::string all;
  for (const BuiltinCase& c : kTransformers) {
    CAPTURE(c.kind);
    Tree t;
    t.Write("app/kustomization.yaml", "transformers:\n" + InlineItem(c.doc));
    const InputDigest inline_digest = t.Digest();
    CHECK_MESSAGE(inline_digest.cacheable(), inline_digest.reason);
    if (*c.reads != '\0') CHECK(t.Changes(c.reads, "# changed\n"));
    all += std::string(all.empty() ? "" : "---\n") + c.doc;
  }
  Tree t;
  t.Write("conf/transformers.yaml", all);
  t.Write("app/kustomization.yaml", "transformers: [../conf/transformers.yaml]\n");
  const InputDigest file_digest = t.Digest();
  REQUIRE_MESSAGE(file_digest.cacheable(), file_digest.reason);
  CHECK(t.Changes("conf/transformers.yaml", all + "---\n" + kTransformers[0].doc));
  CHECK(t.Changes("data/repl.yaml", "- {sourceValue: x, targets: [{select: {kind: A}, fieldPaths: [a]}]}\n"));
}

TEST_CASE("kustomize digest: replacements, components, configurations, openapi and crds are read where they are") {
  struct Case {
    const char* kustomization;
    const char* changed;
    const char* text;
  };
  const Case cases[] = {
      {"replacements:\n- path: ../data/repl.yaml\n", "data/repl.yaml",
       "source: {kind: ConfigMap, name: c, fieldPath: data.b}\ntargets: [{select: {kind: Deployment}, fieldPaths: [x]}]\n"},
      {"components: [../comp]\n", "comp/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n"},
      {"configurations: [../data/conf.yaml]\n", "data/conf.yaml", "nameReference: []\nimages: []\n"},
      {"openapi: {path: ../data/schema.json}\n", "data/schema.json", "{\"definitions\": {\"a\": {}}}\n"},
      {"crds: [../data/crd.json]\n", "data/crd.json", "{\"a\": {}}\n"},
      {"patchesStrategicMerge: [../data/patch.yaml]\n", "data/patch.yaml", "kind: Deployment\n"},
      {"patchesStrategicMerge:\n- |\n  kind: Deployment\n  metadata: {name: web}\n", "app/kustomization.yaml",
       "patchesStrategicMerge:\n- '{kind: Deployment, metadata: {name: api}}'\n"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.kustomization);
    Tree t;
    t.Write("comp/kustomization.yaml",
            "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [cm.yaml]\n");
    t.Write("comp/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
    t.Write("data/conf.yaml", "nameReference: []\n");
    t.Write("data/schema.json", "{}\n");
    t.Write("data/crd.json", "{}\n");
    t.Write("app/kustomization.yaml", c.kustomization);
    CHECK(t.Changes(c.changed, c.text));
  }
}

TEST_CASE("kustomize digest: a path through a symlink is cleaned before the symlink is followed, as kustomize does") {
  Tree t;
  t.Write("base/kustomization.yaml", "resources: [cm.yaml]\n");
  t.Write("base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: base}\n");
  t.Write("third/base/kustomization.yaml", "resources: [cm.yaml]\n");
  t.Write("third/base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: third}\n");
  fs::create_directories(t.root / "third/deep");
  fs::create_directory_symlink(t.root / "third/deep", t.root / "vendor");
  // vendor/.. is the repository's root for kustomize (filepath.Join cleans it), third/ for the kernel.
  t.Write("app/kustomization.yaml", "resources: [../vendor/../base]\n");
  CHECK(t.Changes("base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: changed}\n"));
  CHECK_FALSE(t.Changes("third/base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: changed}\n"));
}

TEST_CASE("kustomize digest: what the allowlist does not know is rendered every time, with the reason") {
  struct Case {
    const char* kustomization;
    const char* file;  // written to app/t.yaml when not empty
    const char* reason;
  };
  const Case cases[] = {
      {"resources: []\nfrobnicate: true\n", "",
       "kustomize: \"app/kustomization.yaml\": unknown field \"frobnicate\""},
      {"patches:\n- {path: t.yaml, frobnicate: 1}\n", "kind: Deployment\n",
       "kustomize: \"app/kustomization.yaml\": unknown field \"patches[].frobnicate\""},
      {"configMapGenerator:\n- name: c\n  options: {immutable: true, sticky: true}\n", "",
       "kustomize: \"app/kustomization.yaml\": unknown field \"configMapGenerator[].options.sticky\""},
      {"configMapGenerator:\n- {name: c, kvSources: [{pluginType: go, name: x}]}\n", "",
       "kustomize: \"app/kustomization.yaml\": \"configMapGenerator[].kvSources\" runs key-value plugins"},
      {"helmCharts:\n- {name: x, repo: https://charts.example}\n", "",
       "kustomize: \"app/kustomization.yaml\": \"helmCharts\" inflates helm charts (fetched)"},
      {"kind: Overlay\n", "", "kustomize: \"app/kustomization.yaml\": unknown kind \"Overlay\""},
      {"resources: cm.yaml\n", "", "kustomize: \"app/kustomization.yaml\": \"resources\" is not a list"},
      {"transformers: [t.yaml]\n",
       "apiVersion: builtin\nkind: LabelTransformer\nlabels: {a: b}\n---\napiVersion: builtin\nkind: Frobnicator\n",
       "kustomize: \"app/t.yaml\": unknown builtin plugin kind \"Frobnicator\""},
      {"transformers: [t.yaml]\n", "apiVersion: builtin\nkind: PrefixTransformer\nprefix: a-\nsuffix: -b\n",
       "kustomize: \"app/t.yaml\": unknown field \"PrefixTransformer.suffix\""},
      {"transformers: [t.yaml]\n", "apiVersion: builtin\nkind: SortOrderTransformer\n",
       "kustomize: \"app/t.yaml\": unknown builtin plugin kind \"SortOrderTransformer\""},
      {"transformers: [t.yaml]\n", "apiVersion: someteam.example.com/v1\nkind: ChartRenderer\n",
       "kustomize: \"app/t.yaml\": plugin \"ChartRenderer\" of apiVersion \"someteam.example.com/v1\" is not a builtin"},
      {"transformers: [t.yaml]\n",
       "apiVersion: example.com/v1\nkind: Fn\nmetadata:\n  annotations:\n"
       "    config.kubernetes.io/function: |\n      exec: {path: ./fn.sh}\n",
       "kustomize: \"app/t.yaml\": runs a KRM function (annotation \"config.kubernetes.io/function\")"},
      {"validators:\n- |\n  apiVersion: builtin\n  kind: LabelTransformer\n  metadata:\n    annotations:\n"
       "      config.k8s.io/function: 'container: {image: x}'\n",
       "", "kustomize: \"app/kustomization.yaml\": runs a KRM function (annotation \"config.k8s.io/function\")"},
      {"generators: [t.yaml]\n", "apiVersion: builtin\nkind: HelmChartInflationGenerator\nchartName: x\n",
       "kustomize: \"app/t.yaml\": \"HelmChartInflationGenerator\" inflates helm charts (fetched)"},
      {"generators: [t.yaml]\n", "apiVersion: builtin\nkind: IAMPolicyGenerator\ncloud: gke\n",
       "kustomize: \"app/t.yaml\": \"IAMPolicyGenerator\" is not read by the digest"},
      {"transformers: [../comp]\n", "",
       "kustomize: \"app/kustomization.yaml\": \"transformers\" names the directory \"../comp\" "
       "(a kustomization whose output configures plugins)"},
      {"transformers: [https://example.com/t.yaml]\n", "",
       "kustomize: \"app/kustomization.yaml\": remote \"https://example.com/t.yaml\" (fetched: its content cannot be "
       "checked)"},
      {"configurations: [t.yaml]\n", "nameReference: []\nfrobnicate: []\n",
       "kustomize: \"app/t.yaml\": unknown field \"frobnicate\""},
      {"replacements:\n- path: t.yaml\n", "- source: {kind: A}\n  frobnicate: 1\n",
       "kustomize: \"app/t.yaml\": unknown field \"frobnicate\""},
      {"components: [../comp]\n", "", "kustomize: \"comp/kustomization.yaml\": unknown field \"frobnicate\""},
      {"generators: [t.yaml]\n", "apiVersion: builtin\nkind: ConfigMapGenerator\nenvs: [a.env]\n",
       "kustomize: \"app/t.yaml\": \"app/a.env\" takes \"TAG\" from the environment"},
      {"openapi: {path: t.yaml, version: v1.30}\n", "{}\n", ""},
  };
  for (const Case& c : cases) {
    CAPTURE(c.kustomization);
    Tree t;
    t.Write("comp/kustomization.yaml", "kind: Component\nfrobnicate: 1\n");
    t.Write("app/a.env", "A=1\nTAG\n");
    if (*c.file != '\0') t.Write("app/t.yaml", c.file);
    t.Write("app/kustomization.yaml", c.kustomization);
    CHECK(t.Digest().reason == c.reason);
  }
}

TEST_CASE("kustomize digest: a realistic overlay over a base and a component gets a digest") {
  Tree t;
  t.Write("base/kustomization.yaml",
          "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [deploy.yaml, svc.yaml]\n"
          "labels:\n- pairs: {app.kubernetes.io/name: web}\n  includeSelectors: true\n");
  t.Write("base/deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n");
  t.Write("base/svc.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: web}\n");
  t.Write("components/monitoring/kustomization.yaml",
          "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n"
          "patches:\n- path: pod-monitor.yaml\n  target: {kind: Deployment, labelSelector: app.kubernetes.io/name=web}\n");
  t.Write("components/monitoring/pod-monitor.yaml", "- {op: add, path: /metadata/annotations/scrape, value: 'true'}\n");
  t.Write("app/kustomization.yaml",
          "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nmetadata: {name: prod}\n"
          "namespace: web-prod\nnamePrefix: prod-\ncommonAnnotations: {owner: team-web}\n"
          "resources:\n- ../base\n- ingress.yaml\ncomponents: [../components/monitoring]\n"
          "labels:\n- pairs: {env: prod}\n  includeTemplates: true\n"
          "images:\n- {name: web, newName: ghcr.io/example/web, newTag: 1.4.2}\n"
          "- {name: sidecar, digest: 'sha256:0123'}\n"
          "replicas:\n- {name: web, count: 3}\n"
          "patches:\n- path: resources.yaml\n- patch: |-\n    - {op: replace, path: /spec/strategy/type, value: Recreate}\n"
          "  target: {group: apps, version: v1, kind: Deployment, name: web}\n  options: {allowNameChange: false}\n"
          "configMapGenerator:\n- name: web-config\n  behavior: create\n  files: [config/app.yaml]\n  literals: [LOG=info]\n"
          "secretGenerator:\n- {name: web-tls, type: kubernetes.io/tls, files: [tls.crt=config/tls.crt]}\n"
          "generatorOptions: {disableNameSuffixHash: false, labels: {generated: 'true'}}\n"
          "replacements:\n- source: {kind: ConfigMap, name: web-config, fieldPath: metadata.name}\n"
          "  targets:\n  - select: {kind: Deployment}\n    fieldPaths: [spec.template.spec.volumes.0.configMap.name]\n"
          "sortOptions: {order: legacy, legacySortOptions: {orderFirst: [Namespace], orderLast: [ValidatingWebhookConfiguration]}}\n"
          "buildMetadata: [originAnnotations]\n");
  t.Write("app/ingress.yaml", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: web}\n");
  t.Write("app/resources.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n");
  t.Write("app/config/app.yaml", "log: info\n");
  t.Write("app/config/tls.crt", "not a certificate\n");
  const InputDigest first = t.Digest();
  REQUIRE_MESSAGE(first.cacheable(), first.reason);
  CHECK(t.Digest().digest == first.digest);
  CHECK(t.Changes("components/monitoring/pod-monitor.yaml", "[]\n"));
  CHECK(t.Changes("base/svc.yaml", "apiVersion: v1\nkind: Service\nmetadata: {name: web2}\n"));
}

}  // namespace tazuna::manifest
