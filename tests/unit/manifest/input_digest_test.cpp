#include "manifest/input_digest.hpp"

#include <filesystem>

#include <doctest/doctest.h>

#include "digest_tree.hpp"
#include "manifest/render_cache.hpp"

namespace tazuna::manifest {
namespace {

namespace fs = std::filesystem;

// A repository on disk (a git work tree) with a kustomize overlay over a base outside its folder, a helmfile
// over a local chart with a values file, and kustomize and helm binaries on PATH; removed at the end.
struct Repo : testing::DigestTree {
  Manifest kustomize, plain, hf;

  Repo() {
    Write("repo/.git/HEAD", "ref: refs/heads/main\n");
    Write("repo/base/kustomization.yaml", "resources:\n- cm.yaml\n");
    Write("repo/base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n");
    Write("repo/apps/prod/kustomization.yaml", "resources:\n- ../../base\nconfigMapGenerator:\n- {name: g, files: [d.txt]}\n");
    Write("repo/apps/prod/d.txt", "one\n");
    Write("repo/plain/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
    Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, namespace: cm, chart: ./charts/app, values: [values.yaml]}\n");
    Write("repo/cm/values.yaml", "replicaCount: 1\n");
    Write("repo/cm/charts/app/Chart.yaml", "apiVersion: v2\nname: app\nversion: 1.0.0\n");
    Write("repo/cm/charts/app/templates/cm.yaml", "kind: ConfigMap\n");
    Write("repo/other/x.yaml", "a: b\n");
    Tool("kustomize");
    Tool("helm");
    file.dir = (root / "repo").string();
    kustomize.name = "apps";
    kustomize.type = "kustomize";
    kustomize.path = "apps/prod";
    plain.name = "plain";
    plain.type = "manifests";
    plain.path = "plain";
    hf.name = "cm";
    hf.type = "helmfile";
    hf.path = "cm";
    ctx.plugin_version = "1.0.0 abc";
    ctx.default_kube_version = "v1.33.13";
  }
  InputDigest Digest(const Manifest& m) { return DigestInputs(m, file, ctx); }
};

}  // namespace

TEST_CASE("input digest: every file a kustomization reads, by content, and nothing else") {
  Repo r;
  const InputDigest first = r.Digest(r.kustomize);
  REQUIRE(first.cacheable());
  CHECK(r.Digest(r.kustomize).digest == first.digest);  // stable
  fs::last_write_time(r.root / "repo/base/cm.yaml", fs::file_time_type::clock::now());
  CHECK(r.Digest(r.kustomize).digest == first.digest);  // a touch is not a change
  r.Write("repo/base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n");
  const InputDigest base_edit = r.Digest(r.kustomize);
  CHECK(base_edit.digest != first.digest);  // a base outside the manifest's folder
  r.Write("repo/apps/prod/d.txt", "two\n");
  CHECK(r.Digest(r.kustomize).digest != base_edit.digest);  // a generator's file
  r.Write("repo/unrelated/x.yaml", "a: b\n");
  const InputDigest now = r.Digest(r.kustomize);
  CHECK(now.digest == r.Digest(r.kustomize).digest);
  r.kustomize.kustomize.default_namespace = "team";
  CHECK(r.Digest(r.kustomize).digest != now.digest);  // the manifest's entry
  r.ctx.plugin_version = "1.0.1 def";
  CHECK(r.Digest(r.kustomize).digest != now.digest);  // another version of this plugin
}

TEST_CASE("input digest: what cannot be proven complete is always rendered, with the reason") {
  Repo r;
  r.Write("repo/apps/prod/kustomization.yaml", "resources:\n- github.com/org/repo//deploy?ref=v1.2.3\n");
  CHECK(r.Digest(r.kustomize).reason.find("remote") != std::string::npos);
  // Even pinned to a commit: the remotes it names in turn cannot be seen without fetching it.
  r.Write("repo/apps/prod/kustomization.yaml",
          "resources:\n- github.com/org/repo//deploy?ref=0123456789abcdef0123456789abcdef01234567\n");
  CHECK(r.Digest(r.kustomize).reason.find("remote") != std::string::npos);
  r.Write("repo/apps/prod/kustomization.yaml", "resources:\n- ../missing\n");  // a path kustomize cannot read
  CHECK(r.Digest(r.kustomize).reason.find("names nothing") != std::string::npos);
  r.Write("repo/apps/prod/kustomization.yaml", "configMapGenerator:\n- {name: g, envs: [app.env]}\n");
  r.Write("repo/apps/prod/app.env", "A=1\nIMAGE_TAG\n");  // IMAGE_TAG comes from the environment
  CHECK(r.Digest(r.kustomize).reason.find("from the environment") != std::string::npos);
  r.Write("repo/apps/prod/app.env", "A=1\n# a comment\n");
  CHECK(r.Digest(r.kustomize).cacheable());
  r.Write("repo/apps/prod/kustomization.yaml", "labels:\n- pairs: {a: b}\n  fields:\n  - {path: spec/x, kind: D}\n");
  CHECK(r.Digest(r.kustomize).cacheable());  // a field path is not a file
  r.Write("repo/apps/prod/kustomization.yaml", "helmCharts:\n- {name: x, repo: https://charts.example}\n");
  CHECK(r.Digest(r.kustomize).reason.find("inflates helm charts") != std::string::npos);
  r.Write("outside/kustomization.yaml", "resources: []\n");
  r.Write("repo/apps/prod/kustomization.yaml", "resources:\n- ../../../outside\n");
  CHECK(r.Digest(r.kustomize).reason.find("leaves the repository") != std::string::npos);
  r.Write("repo/apps/prod/kustomization.yaml", "resources: []\n");
  r.Write("bin/kustomize", "#!/bin/sh\nexec mise x -- kustomize \"$@\"\n");  // a version manager's shim
  CHECK(r.Digest(r.kustomize).reason.find("is a script") != std::string::npos);
  r.Write("bin/aqua-proxy", "\x7f" "ELF proxy");
  fs::permissions(r.root / "bin/aqua-proxy", fs::perms::owner_all);
  fs::remove(r.root / "bin/kustomize");
  fs::create_symlink(r.root / "bin/aqua-proxy", r.root / "bin/kustomize");
  CHECK(r.Digest(r.kustomize).reason.find("which may pick another tool") != std::string::npos);
  r.env.Set("PATH", "/nonexistent");
  CHECK(r.Digest(r.kustomize).reason == "kustomize: neither kustomize nor kubectl found on PATH");
  Manifest other = r.kustomize;
  other.type = "helmfile";
  CHECK_FALSE(r.Digest(other).cacheable());
}

TEST_CASE("input digest: a kustomization reached through a symlink is followed where it really is") {
  Repo r;
  fs::create_directories(r.root / "repo/clusters/prod");
  fs::create_directory_symlink(r.root / "repo/apps/prod", r.root / "repo/clusters/prod/app");
  r.kustomize.path = "clusters/prod/app";  // ../../base from the real directory is repo/base
  const InputDigest first = r.Digest(r.kustomize);
  REQUIRE(first.cacheable());
  r.Write("repo/base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: changed}\n");
  CHECK(r.Digest(r.kustomize).digest != first.digest);
}

TEST_CASE("input digest: plain manifests by the files their path names") {
  Repo r;
  const InputDigest first = r.Digest(r.plain);
  REQUIRE(first.cacheable());
  r.Write("repo/plain/sub/b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n");
  CHECK(r.Digest(r.plain).digest != first.digest);  // a new file in a subdirectory
}

TEST_CASE("render cache: a render read back as stored; Secrets and damaged files never") {
  Repo r;
  const RenderCache cache((r.root / "cache").string());
  const std::string digest(64, 'a');
  RenderedManifest m{"web", {{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "a"}}}}}, false,
                     "team", {"plain/a.yaml"}};
  CHECK_FALSE(cache.Load(digest));
  REQUIRE(cache.Store(digest, m));
  const auto back = cache.Load(digest);
  REQUIRE(back);
  CHECK(back->objects == m.objects);
  CHECK(back->sources == m.sources);
  CHECK(back->default_namespace == "team");
  CHECK((fs::status(r.root / "cache/render" / (digest + ".json")).permissions() & fs::perms::others_read) == fs::perms::none);
  m.objects.push_back({{"apiVersion", "v1"}, {"kind", "Secret"}, {"metadata", {{"name", "s"}}}});
  m.sources.push_back("plain/s.yaml");
  CHECK_FALSE(cache.Store(std::string(64, 'b'), m));
  r.Write("cache/render/" + std::string(64, 'c') + ".json", "{\"objects\": [1");
  CHECK_FALSE(cache.Load(std::string(64, 'c')));
  CHECK_FALSE(cache.Load("../../etc/passwd"));
}

TEST_CASE("render cache: kept under its size, the renders used least recently removed first") {
  Repo r;
  RenderedManifest m{"web", {{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "a"}}}}}, false, "",
                     {"plain/a.yaml"}};
  REQUIRE(RenderCache((r.root / "probe").string()).Store(std::string(64, '0'), m));
  const auto one_file = fs::file_size(r.root / "probe/render" / (std::string(64, '0') + ".json"));
  const RenderCache cache((r.root / "cache").string(), one_file * 4);  // room for four
  const auto digest = [](char c) { return std::string(64, c); };
  const auto when = fs::file_time_type::clock::now();
  for (char c : std::string("abcd")) {
    REQUIRE(cache.Store(digest(c), m));
    fs::last_write_time(r.root / "cache/render" / (digest(c) + ".json"), when - std::chrono::hours('e' - c));
  }
  CHECK(cache.Load(digest('a')));  // the oldest store, used now
  REQUIRE(cache.Store(digest('e'), m));  // five do not fit: down to three, the least recently used gone
  CHECK(cache.Load(digest('a')));
  CHECK(cache.Load(digest('e')));
  CHECK(cache.Load(digest('d')));
  CHECK_FALSE(cache.Load(digest('b')));
  CHECK_FALSE(cache.Load(digest('c')));
}

TEST_CASE("helmfile digest: the helmfile, its values, its local chart and what helm renders for") {
  Repo r;
  const InputDigest first = r.Digest(r.hf);
  REQUIRE_MESSAGE(first.cacheable(), first.reason);
  CHECK(r.Digest(r.hf).digest == first.digest);
  r.Write("repo/other/x.yaml", "a: c\n");
  CHECK(r.Digest(r.hf).digest == first.digest);  // a file no render reads
  r.Write("repo/cm/values.yaml", "replicaCount: 2\n");
  const std::string values = r.Digest(r.hf).digest;
  CHECK(values != first.digest);
  r.Write("repo/cm/charts/app/templates/cm.yaml", "kind: ConfigMap\nmetadata: {}\n");
  const std::string chart = r.Digest(r.hf).digest;
  CHECK(chart != values);
  r.env.Set("HELM_NAMESPACE_X", "1");  // helm and helmfile read their own variables
  const std::string helm_env = r.Digest(r.hf).digest;
  CHECK(helm_env != chart);
  r.ctx.capabilities = [] { return std::optional<Capabilities>(Capabilities{"v1.31.0", {"v1", "apps/v1"}}); };
  const std::string cluster = r.Digest(r.hf).digest;
  CHECK(cluster != helm_env);
  r.ctx.capabilities = [] { return std::optional<Capabilities>(Capabilities{"v1.31.0", {"v1", "apps/v1", "x/v1"}}); };
  CHECK(r.Digest(r.hf).digest != cluster);  // another API served
  r.hf.helmfile.default_namespace = "team";
  const std::string ns = r.Digest(r.hf).digest;
  CHECK(ns != cluster);
  r.Write("bin/helmfile", "\x7f" "ELF helmfile");
  fs::permissions(r.root / "bin/helmfile", fs::perms::owner_all);
  CHECK(r.Digest(r.hf).digest != ns);  // the real helmfile renders now
  r.file.environment = "prod";
  CHECK(r.Digest(r.hf).digest != ns);
}

TEST_CASE("helmfile digest: the environment only through vars, and exactly pinned remote charts") {
  Repo r;
  fs::remove(r.root / "repo/cm/helmfile.yaml");
  // A template reads no environment variable itself (as in the Go tool): refused, never cached.
  r.Write("repo/cm/helmfile.yaml.gotmpl",
          "releases:\n- {name: cm, chart: ./charts/app, namespace: {{ env \"CM_NS\" | quote }}}\n");
  r.env.Set("CM_NS", "one");
  CHECK(r.Digest(r.hf).reason.find("does not read the environment") != std::string::npos);
  r.Write("repo/cm/helmfile.yaml.gotmpl",
          "releases:\n- {name: cm, chart: ./charts/app, namespace: {{ .StateValues.ns | quote }}}\n");
  r.hf.helmfile.vars["ns"] = HelmfileVar{"env", "CM_NS", "", {}, {}, "", "", "", ""};
  const InputDigest first = r.Digest(r.hf);
  REQUIRE_MESSAGE(first.cacheable(), first.reason);
  r.env.Set("CM_NS", "two");
  CHECK(r.Digest(r.hf).digest != first.digest);  // the variable the var reads
  const std::string read = r.Digest(r.hf).digest;
  r.env.Set("UNRELATED", "x");
  CHECK(r.Digest(r.hf).digest == read);  // one no template reads
  // A chart from a repository, even at an exact version: its templates are not read (a random value it makes
  // would be a stale answer).
  r.Write("repo/cm/helmfile.yaml.gotmpl", "repositories:\n- {name: jetstack, url: https://charts.jetstack.io}\n"
                                          "releases:\n- {name: cm, chart: jetstack/cert-manager, version: v1.16.2}\n");
  CHECK(r.Digest(r.hf).reason.find("comes from a repository") != std::string::npos);
  r.Write("repo/cm/helmfile.yaml.gotmpl", "releases:\n- {name: cm, chart: oci://ghcr.io/x/y, version: 1.2.3}\n");
  CHECK(r.Digest(r.hf).reason.find("comes from a repository") != std::string::npos);
  r.Write("repo/cm/helmfile.yaml.gotmpl", "releases:\n- {name: cm, chart: {{ exec \"sh\" (list \"-c\" \"x\") }}}\n");
  CHECK(r.Digest(r.hf).reason.find("exec") != std::string::npos);  // a function that reads what no digest covers
}

TEST_CASE("helmfile digest: what cannot be proven complete is always rendered, with the reason") {
  Repo r;
  r.Write("repo/cm/helmfile.yaml", "environments: {default: {values: [env.yaml]}}\nreleases: []\n");
  CHECK(r.Digest(r.hf).reason.find("\"environments\" is not read by the digest") != std::string::npos);
  r.Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, chart: ./charts/app, hooks: [{command: date}]}\n");
  CHECK(r.Digest(r.hf).reason.find("releases[].hooks") != std::string::npos);
  r.Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, chart: ./charts/app, values: [v.yaml.gotmpl]}\n");
  CHECK(r.Digest(r.hf).reason.find("values template") != std::string::npos);
  r.Write("outside.yaml", "a: 1\n");
  r.Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, chart: ./charts/app, values: [../../outside.yaml]}\n");
  CHECK(r.Digest(r.hf).reason.find("leaves the repository") != std::string::npos);
  r.Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, chart: stable/app}\n");  // a repository helm was told of
  CHECK(r.Digest(r.hf).reason.find("names nothing") != std::string::npos);
  r.Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, chart: ./charts/app}\n");
  r.Write("repo/cm/charts/app/Chart.yaml",
          "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n- {name: redis, version: '>=17', repository: https://x}\n");
  CHECK(r.Digest(r.hf).reason.find("\"redis\" from a repository") != std::string::npos);
  r.Write("repo/cm/charts/app/Chart.lock", "dependencies: []\n");  // pinned, but fetched as an archive all the same
  CHECK(r.Digest(r.hf).reason.find("\"redis\" from a repository") != std::string::npos);
  r.Write("repo/cm/charts/app/Chart.yaml",
          "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n- {name: lib, repository: file://../lib}\n");
  r.Write("repo/cm/charts/lib/Chart.yaml", "apiVersion: v2\nname: lib\nversion: 1.0.0\n");
  CHECK(r.Digest(r.hf).cacheable());
  r.hf.helmfile.vars["token"] = HelmfileVar{"op", "", "", {}, {}, "id", "v", "i", "f"};
  CHECK(r.Digest(r.hf).reason.find("1Password") != std::string::npos);
}

TEST_CASE("helmfile digest: a local dependency outside the chart is read too") {
  Repo r;
  r.Write("repo/libs/common/Chart.yaml", "apiVersion: v2\nname: common\nversion: 0.1.0\n");
  r.Write("repo/libs/common/templates/_h.tpl", "{{ define \"x\" }}a{{ end }}\n");
  r.Write("repo/cm/charts/app/Chart.yaml",
          "apiVersion: v2\nname: app\nversion: 1.0.0\ndependencies:\n- {name: common, repository: file://../../../libs/common}\n");
  const InputDigest first = r.Digest(r.hf);
  REQUIRE_MESSAGE(first.cacheable(), first.reason);
  r.Write("repo/libs/common/templates/_h.tpl", "{{ define \"x\" }}b{{ end }}\n");
  CHECK(r.Digest(r.hf).digest != first.digest);
}

TEST_CASE("helmfile digest: what a review found it missed") {
  Repo r;
  // --set-file reads a file the subset does not know of.
  r.Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, chart: ./charts/app, set: [{name: m, file: ../m.txt}]}\n");
  CHECK(r.Digest(r.hf).reason.find("releases[].set[].file") != std::string::npos);
  // A chart of apiVersion v1 names its dependencies in requirements.yaml.
  r.Write("repo/cm/helmfile.yaml", "releases:\n- {name: cm, chart: ./charts/app}\n");
  r.Write("repo/lib/Chart.yaml", "apiVersion: v1\nname: lib\nversion: 0.1.0\n");
  r.Write("repo/lib/templates/cm.yaml", "kind: ConfigMap\n");
  r.Write("repo/cm/charts/app/requirements.yaml", "dependencies:\n- {name: lib, repository: file://../../../lib}\n");
  const std::string v1 = r.Digest(r.hf).digest;
  REQUIRE_FALSE(v1.empty());
  r.Write("repo/lib/templates/cm.yaml", "kind: ConfigMap\nmetadata: {}\n");
  CHECK(r.Digest(r.hf).digest != v1);
  // A template whose output differs every time is never served from a cache or a state.
  r.Write("repo/lib/templates/cm.yaml", "metadata:\n  annotations: {rollme: {{ randAlphaNum 5 | quote }}}\n");
  CHECK(r.Digest(r.hf).reason.find("calls \"randAlphaNum\"") != std::string::npos);
  r.Write("repo/lib/templates/cm.yaml", "# now and then: prose outside actions is no call\nkind: ConfigMap\n");
  CHECK(r.Digest(r.hf).cacheable());
  // The template sees .Namespace as helmfile does (empty: no --namespace), whatever defaultNamespace is.
  fs::remove(r.root / "repo/cm/helmfile.yaml");
  r.Write("repo/cm/helmfile.yaml.gotmpl", "releases:\n- {name: cm, chart: './charts/{{ .Namespace | default \"app\" }}'}\n");
  r.hf.helmfile.default_namespace = "other";
  CHECK(r.Digest(r.hf).cacheable());  // ./charts/app, not ./charts/other (which names nothing)
  CHECK_FALSE(r.Digest(r.hf).private_inputs);
  // Values of the environment key the local cache only: a state reader could test guesses against them.
  r.Write("repo/cm/helmfile.yaml.gotmpl", "releases:\n- {name: cm, chart: ./charts/app, values: [{t: '{{ .StateValues.v }}'}]}\n");
  r.hf.helmfile.vars["v"] = HelmfileVar{"env", "V", "", {}, {}, "", "", "", ""};
  r.env.Set("V", "x");
  CHECK(r.Digest(r.hf).private_inputs);
}

}  // namespace tazuna::manifest
