#include "manifest/input_digest.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include <doctest/doctest.h>

#include "fakes.hpp"
#include "manifest/render_cache.hpp"
#include "util/file_reader.hpp"

namespace tazuna::manifest {
namespace {

namespace fs = std::filesystem;

// A repository on disk (a git work tree) with a kustomize overlay over a base outside its folder, and a
// kustomize binary on PATH; removed at the end.
struct Repo {
  fs::path root = fs::temp_directory_path() / ("tazuna-digest-" + std::to_string(::getpid()) + "-" +
                                               std::to_string(reinterpret_cast<uintptr_t>(this)));
  util::DiskFileReader files;
  testing::FakeProcessRunner processes;
  util::Environment env;
  std::ostringstream log_stream;
  util::Logger log{log_stream, 0};
  RenderContext ctx{processes, files, env, log, nullptr, std::chrono::seconds(300), ""};
  TazunaFile file;
  Manifest kustomize, plain;

  Repo() {
    Write("repo/.git/HEAD", "ref: refs/heads/main\n");
    Write("repo/base/kustomization.yaml", "resources:\n- cm.yaml\n");
    Write("repo/base/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n");
    Write("repo/apps/prod/kustomization.yaml", "resources:\n- ../../base\nconfigMapGenerator:\n- {name: g, files: [d.txt]}\n");
    Write("repo/apps/prod/d.txt", "one\n");
    Write("repo/plain/a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n");
    Write("bin/kustomize", "\x7f" "ELF not really");
    fs::permissions(root / "bin/kustomize", fs::perms::owner_all);
    env.Set("PATH", (root / "bin").string());
    file.dir = (root / "repo").string();
    kustomize.name = "apps";
    kustomize.type = "kustomize";
    kustomize.path = "apps/prod";
    plain.name = "plain";
    plain.type = "manifests";
    plain.path = "plain";
    ctx.plugin_version = "1.0.0 abc";
  }
  ~Repo() { fs::remove_all(root); }
  void Write(const std::string& rel, const std::string& text) {
    fs::create_directories((root / rel).parent_path());
    std::ofstream(root / rel, std::ios::trunc) << text;
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
  Manifest hf = r.kustomize;
  hf.type = "helmfile";
  CHECK_FALSE(r.Digest(hf).cacheable());
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

}  // namespace tazuna::manifest
