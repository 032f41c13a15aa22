#include "manifest/oras_pull.hpp"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <sstream>

#include "fakes.hpp"
#include "manifest/renderers.hpp"
#include "util/file_reader.hpp"
#include "tar_builder.hpp"
#include "util/sha256.hpp"

namespace tazuna::manifest {
namespace {

const std::string kDigest = "sha256:" + std::string(64, 'a');

TEST_CASE("references: host with a port, tag or digest, latest when neither") {
  struct Case {
    std::string ref, repository, tag, digest;
  };
  const Case cases[] = {
      {"127.0.0.1:5000/app:v1", "127.0.0.1:5000/app", "v1", ""},
      {"ghcr.io/org/team/app@" + kDigest, "ghcr.io/org/team/app", "", kDigest},
      {"registry.example.com:443/app", "registry.example.com:443/app", "latest", ""},
      {"ghcr.io/org/app:v1@" + kDigest, "ghcr.io/org/app", "v1", kDigest},
  };
  for (const Case& c : cases) {
    CAPTURE(c.ref);
    util::Result<OrasReference> r = ParseOrasReference(c.ref);
    REQUIRE(r);
    CHECK(r->repository == c.repository);
    CHECK(r->tag == c.tag);
    CHECK(r->digest == c.digest);
  }
  CHECK(ParseOrasReference("app:v1").error().message ==
        "oras.reference \"app:v1\": expected REGISTRY/REPOSITORY[:TAG|@DIGEST]");
  CHECK(ParseOrasReference("ghcr.io/app@sha256:abc").error().message ==
        "oras.reference \"ghcr.io/app@sha256:abc\": a digest is sha256: and 64 lowercase hex digits");
  CHECK(!ParseOrasReference("ghcr.io/app:"));
}

std::string ImageManifest(const std::string& layers) {
  return R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","layers":[)" + layers + "]}";
}
std::string Layer(const std::string& type, const std::string& digest, uint64_t size = 10) {
  return R"({"mediaType":")" + type + R"(","digest":")" + digest + R"(","size":)" + std::to_string(size) + "}";
}

TEST_CASE("the one archive layer of a manifest") {
  CHECK(*ArchiveLayer(ImageManifest(Layer("application/vnd.oci.image.layer.v1.tar+gzip", kDigest)), 100) == kDigest);
  CHECK(*ArchiveLayer(ImageManifest(Layer("application/vnd.oci.image.layer.v1.tar", kDigest)), 100) == kDigest);
  CHECK(ArchiveLayer(ImageManifest(Layer("text/plain", kDigest)), 100).error().message ==
        "the layer's media type \"text/plain\" is not an archive (tar or tar+gzip)");
  CHECK(ArchiveLayer(ImageManifest(Layer("application/gzip", kDigest) + "," + Layer("application/gzip", kDigest)), 100)
            .error()
            .message == "the artifact has 2 layers; exactly one tar or tar.gz is expected");
  CHECK(ArchiveLayer(ImageManifest(""), 100).error().message == "the artifact has 0 layers; exactly one tar or tar.gz is expected");
  CHECK(ArchiveLayer(ImageManifest(Layer("application/x-tar", kDigest, 101)), 100).error().message ==
        "the layer is larger than 100 bytes");
  CHECK(ArchiveLayer(ImageManifest(Layer("application/x-tar", "md5:abc")), 100).error().message ==
        "the layer's digest \"md5:abc\" is not sha256");
  CHECK(ArchiveLayer(R"({"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[]})", 100)
            .error()
            .message == "the reference names an index of several manifests, not one artifact");
  CHECK(ArchiveLayer("not json", 100).error().message == "the manifest is not JSON");
}


namespace fs = std::filesystem;

// A registry in memory behind a fake `oras` CLI: resolve, manifest fetch and blob fetch (writing --output).
struct FakeRegistry {
  std::map<std::string, std::string> tags;   // "repo:tag" -> manifest digest
  std::map<std::string, std::string> blobs;  // digest -> bytes (manifests and layers)
  std::map<std::string, std::string> served;  // digest -> bytes sent instead (a registry that lies)
  std::function<void()> on_blob_fetch;        // runs as a layer is fetched (another run doing its part)

  static std::string Digest(const std::string& bytes) { return "sha256:" + util::Sha256Hex(bytes); }

  // Pushes `layer` as the one layer of a new manifest tagged repo:tag; returns the manifest's digest.
  std::string Push(const std::string& repo, const std::string& tag, const std::string& layer,
                   const std::string& type = "application/vnd.oci.image.layer.v1.tar") {
    const std::string layer_digest = Digest(layer);
    blobs[layer_digest] = layer;
    const std::string manifest = ImageManifest(Layer(type, layer_digest, layer.size()));
    const std::string digest = Digest(manifest);
    blobs[digest] = manifest;
    tags[repo + ":" + tag] = digest;
    return digest;
  }

  util::Result<util::ProcessResult> Answer(const util::ProcessRequest& req) const {
    const std::vector<std::string>& a = req.argv;
    const auto fail = [](const std::string& why) { return util::ProcessResult{1, "", "Error: " + why + "\n", false}; };
    if (a.size() >= 3 && a[1] == "resolve") {
      auto it = tags.find(a[2]);
      return it == tags.end() ? fail(a[2] + ": not found") : util::ProcessResult{0, it->second + "\n", "", false};
    }
    if (a.size() >= 6 && (a[1] == "manifest" || a[1] == "blob") && a[2] == "fetch" && a[4] == "--output") {
      const std::string digest = a[3].substr(a[3].find('@') + 1);
      auto it = served.count(digest) ? served.find(digest) : blobs.find(digest);
      if (it == blobs.end()) return fail(a[3] + ": not found");
      if (a[1] == "blob" && on_blob_fetch) on_blob_fetch();
      std::ofstream(a[5], std::ios::binary) << it->second;
      return util::ProcessResult{0, "", "", false};
    }
    return fail("unexpected call");
  }
};

struct PullFixture {
  fs::path cache = fs::temp_directory_path() / ("tazuna-oras-" + std::to_string(::getpid()) + "-" +
                                                std::to_string(reinterpret_cast<uintptr_t>(this)));
  FakeRegistry registry;
  util::DiskFileReader files;  // the delegate reads the unpacked tree
  testing::FakeProcessRunner processes;
  util::Environment env{{{"PATH", "/usr/bin"}, {"HOME", "/home/u"}}};
  std::ostringstream log_stream;
  util::Logger log{log_stream, 9};
  RenderContext ctx{processes, files, env, log, nullptr, std::chrono::seconds(300), cache.string()};

  PullFixture() {
    processes.handler = [this](const util::ProcessRequest& req) -> util::Result<util::ProcessResult> {
      if (req.argv[0] == "oras") return registry.Answer(req);
      return util::ProcessResult{0, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-" + req.argv.back() + "}\n", "", false};
    };
  }
  ~PullFixture() { fs::remove_all(cache); }
  PullFixture(const PullFixture&) = delete;
  PullFixture& operator=(const PullFixture&) = delete;

  std::vector<std::string> OrasCalls() const {
    std::vector<std::string> out;
    for (const std::string& c : processes.Commands()) {
      if (util::StartsWith(c, "oras ")) out.push_back(c.substr(5, c.find(' ', 5) - 5) + (util::StartsWith(c, "oras resolve") ? "" : " fetch"));
    }
    return out;
  }
  fs::path Dir(const std::string& sub) const { return cache / "oras" / sub; }
  size_t Entries(const std::string& sub) const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(cache / "oras" / sub)) ++n;
    return n;
  }
};

// Each case pulls references of its own: the pulls of a run are remembered by reference.
std::string UniqueRepo(const char* name) {
  static int n = 0;
  return "127.0.0.1:5000/" + std::string(name) + std::to_string(++n);
}

OrasOptions Options(const std::string& reference, const std::string& target = "") {
  OrasOptions o;
  o.reference = reference;
  o.target = target;
  o.plain_http = true;
  return o;
}

const std::string kApp = testing::Entry("kustomization.yaml", '0', "resources: [cm.yaml]\n") +
                         testing::Entry("overlays/", '5') +
                         testing::Entry("overlays/dev/kustomization.yaml", '0', "resources: [../../]\n") +
                         testing::End();

TEST_CASE("pull: a tag resolved, the manifest and its layer fetched, checked, unpacked, then cached by digest") {
  PullFixture f;
  const std::string repo = UniqueRepo("app");
  const std::string digest = f.registry.Push(repo, "v1", testing::Gzip(kApp), "application/vnd.oci.image.layer.v1.tar+gzip");
  util::Result<PulledArtifact> p = PullArtifact(Options(repo + ":v1", "overlays/dev"), f.ctx);
  REQUIRE_MESSAGE(p, p.error().message);
  CHECK(p->digest == digest);
  CHECK(p->path == p->tree + "/overlays/dev");
  CHECK(fs::is_regular_file(p->path + "/kustomization.yaml"));
  CHECK(f.OrasCalls() == std::vector<std::string>{"resolve", "manifest fetch", "blob fetch"});
  CHECK(f.processes.Commands()[0] == "oras resolve " + repo + ":v1 --plain-http");
  CHECK(f.Entries("tmp") == 0);
  CHECK(f.Entries("trees") == 1);

  // the same artifact by digest (another key): nothing fetched again, the same tree
  f.processes.requests.clear();
  util::Result<PulledArtifact> again = PullArtifact(Options(repo + "@" + digest), f.ctx);
  REQUIRE_MESSAGE(again, again.error().message);
  CHECK(again->tree == p->tree);
  CHECK(f.processes.requests.empty());

  // --offline: the tag by its last resolution, from the cache alone
  f.ctx.oras_offline = true;
  util::Result<PulledArtifact> offline = PullArtifact(Options(repo + ":v1"), f.ctx);
  REQUIRE_MESSAGE(offline, offline.error().message);
  CHECK(offline->digest == digest);
  CHECK(f.processes.requests.empty());
  util::Result<PulledArtifact> never = PullArtifact(Options(repo + ":v2"), f.ctx);
  REQUIRE_FALSE(never);
  CHECK(never.error().message == "oras: \"" + repo + ":v2\": never resolved on this machine; run once without --offline");
  f.ctx.oras_offline = false;

  // --no-cache: fetched and unpacked again (a new key: the same tag with a target)
  f.ctx.oras_no_cache = true;
  util::Result<PulledArtifact> fresh = PullArtifact(Options(repo + ":v1", "overlays"), f.ctx);
  REQUIRE_MESSAGE(fresh, fresh.error().message);
  CHECK(f.OrasCalls() == std::vector<std::string>{"resolve", "manifest fetch", "blob fetch"});
  CHECK(f.Entries("trees") == 1);
  CHECK(f.Entries("tmp") == 0);
  CHECK(f.Entries("retired") == 1);  // the old tree, swapped out (a run may still be reading it)
  CHECK(fs::is_regular_file(fresh->path + "/dev/kustomization.yaml"));

  // a retired tree goes once it is older than ten minutes; a young one stays
  const fs::path old_one = fs::directory_iterator(f.Dir("retired"))->path();
  fs::last_write_time(old_one, fs::file_time_type::clock::now() - std::chrono::minutes(11));
  f.ctx.oras_no_cache = false;
  REQUIRE(PullArtifact(Options(repo + ":v1", "overlays/dev/"), f.ctx));
  CHECK(f.Entries("retired") == 0);
}

TEST_CASE("pull: a tree another run put in place first is kept, never taken from under it") {
  PullFixture f;
  const std::string repo = UniqueRepo("race");
  f.registry.Push(repo, "v1", kApp);
  const std::string layer = FakeRegistry::Digest(kApp);
  const fs::path tree = f.Dir("trees") / ("sha256-" + layer.substr(7));
  // Another run unpacks the same layer while this one fetches it: its tree (marked) is in place first.
  f.registry.on_blob_fetch = [&] {
    fs::create_directories(tree / "overlays");
    std::ofstream(tree / "kustomization.yaml") << "resources: [cm.yaml]\n";
    std::ofstream(tree / "theirs") << "another run is reading this tree\n";
  };
  util::Result<PulledArtifact> p = PullArtifact(Options(repo + ":v1"), f.ctx);
  REQUIRE_MESSAGE(p, p.error().message);
  CHECK(p->tree == tree.string());
  CHECK(fs::is_regular_file(tree / "theirs"));  // theirs stayed; ours went
  CHECK(f.Entries("tmp") == 0);
  CHECK(f.Entries("retired") == 0);

  // --no-cache: ours swapped in whole, theirs retired (not removed: the other run may still read it)
  f.ctx.oras_no_cache = true;
  f.registry.on_blob_fetch = nullptr;
  util::Result<PulledArtifact> fresh = PullArtifact(Options(repo + ":v1", "overlays"), f.ctx);
  REQUIRE_MESSAGE(fresh, fresh.error().message);
  CHECK_FALSE(fs::exists(tree / "theirs"));
  CHECK(fs::is_regular_file(tree / "overlays/dev/kustomization.yaml"));
  CHECK(f.Entries("tmp") == 0);
  REQUIRE(f.Entries("retired") == 1);
  CHECK(fs::is_regular_file(fs::directory_iterator(f.Dir("retired"))->path() / "theirs"));
}

TEST_CASE("pull: a moved tag gives the new tree; refusals leave nothing behind") {
  PullFixture f;
  const std::string repo = UniqueRepo("moved");
  f.registry.Push(repo, "stable", kApp);
  util::Result<PulledArtifact> one = PullArtifact(Options(repo + ":stable"), f.ctx);
  REQUIRE_MESSAGE(one, one.error().message);
  const std::string two_digest =
      f.registry.Push(repo, "stable", testing::Entry("kustomization.yaml", '0', "resources: []\n") + testing::End());
  util::Result<PulledArtifact> two = PullArtifact(Options(repo + ":stable", "."), f.ctx);
  REQUIRE_MESSAGE(two, two.error().message);
  CHECK(two->digest == two_digest);
  CHECK(two->tree != one->tree);
  CHECK_FALSE(fs::exists(two->tree + "/overlays"));

  // a layer whose bytes are not those of its digest
  const std::string lie_repo = UniqueRepo("lies");
  const std::string lie = testing::Entry("kustomization.yaml", '0', "resources: [lie.yaml]\n") + testing::End();
  f.registry.Push(lie_repo, "v1", lie);
  const std::string layer = FakeRegistry::Digest(lie);
  f.registry.served[layer] = lie + "x";
  util::Result<PulledArtifact> lied = PullArtifact(Options(lie_repo + ":v1"), f.ctx);
  REQUIRE_FALSE(lied);
  CHECK(lied.error().message == "oras: \"" + lie_repo + ":v1\": the layer fetched as " + layer +
                                    " has the digest sha256:" + util::Sha256Hex(lie + "x"));
  f.registry.served.clear();

  // an archive the Go tool refuses: named, and nothing half-unpacked kept
  const std::string bad_repo = UniqueRepo("bad");
  f.registry.Push(bad_repo, "v1", testing::Entry("ok", '0', "x") + testing::Entry("../evil", '0', "x") + testing::End());
  util::Result<PulledArtifact> bad = PullArtifact(Options(bad_repo + ":v1"), f.ctx);
  REQUIRE_FALSE(bad);
  CHECK(util::StartsWith(bad.error().message, "oras: \"" + bad_repo + ":v1\": layer sha256:"));
  CHECK(bad.error().message.find("entry \"../evil\"") != std::string::npos);
  CHECK(f.Entries("tmp") == 0);
  CHECK(f.Entries("trees") == 2);

  // a target that is not in the artifact; a tag the registry does not know
  util::Result<PulledArtifact> target = PullArtifact(Options(repo + ":stable", "nowhere"), f.ctx);
  REQUIRE_FALSE(target);
  CHECK(target.error().message == "oras: \"" + repo + ":stable\": oras.target \"nowhere\" is not in the artifact");
  util::Result<PulledArtifact> missing = PullArtifact(Options(repo + ":gone"), f.ctx);
  REQUIRE_FALSE(missing);
  CHECK(missing.error().message == "oras: \"" + repo + ":gone\": " + repo + ":gone: not found");
}

TEST_CASE("render oras: the delegate renders the pulled tree at oras.target, which stays inside the artifact") {
  PullFixture f;
  const std::string repo = UniqueRepo("render");
  f.registry.Push(repo, "v1", kApp);
  Manifest m;
  m.name = "remote";
  m.type = "oras";
  m.oras = Options(repo + ":v1", "overlays/dev");
  m.oras.delegate_type = "kustomize";
  TazunaFile file;
  file.dir = "repo";
  file.path = "repo/tazuna.yaml";
  util::Result<Documents> docs = RenderOras(m, file, f.ctx);
  REQUIRE_MESSAGE(docs, docs.error().message);
  const std::string last = f.processes.Commands().back();
  CHECK(util::StartsWith(last, "kustomize build " + (f.cache / "oras/trees/sha256-").string()));
  CHECK(util::EndsWith(last, "/overlays/dev"));
  for (const char* target : {"../up", "/abs", "a/../../b"}) {
    CAPTURE(target);
    m.oras.target = target;
    util::Result<Documents> refused = RenderOras(m, file, f.ctx);
    REQUIRE_FALSE(refused);
    CHECK(util::StartsWith(refused.error().message, "oras.target \"" + std::string(target) + "\" must "));
  }
}

}  // namespace
}  // namespace tazuna::manifest
