// type oras, the pull: resolve, fetch the manifest and its one layer through `oras`, check digests, unpack.
#include "manifest/oras_pull.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <memory>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>

#include <nlohmann/json.hpp>

#include "manifest/oras_archive.hpp"
#include "manifest/tool.hpp"
#include "util/go_strconv.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

namespace fs = std::filesystem;

util::Error Failed(const std::string& reference, const std::string& what) {
  return util::MakeError(util::ErrorKind::kInput, util::StrCat("oras: ", util::Quote(reference), ": ", what));
}

bool Has(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

bool IsHex(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

bool ValidDigest(const std::string& digest) {
  return digest.size() == 71 && util::StartsWith(digest, "sha256:") && IsHex(std::string_view(digest).substr(7));
}

std::string Hex(const std::string& digest) { return digest.substr(7); }

constexpr off_t kMaxManifestBytes = 4 << 20;  // the distribution spec's limit registries keep to

// What oras said went wrong: its last `Error:` line (else its last line), without the prefix.
std::string OrasSaid(const util::Error& e) {
  for (auto it = e.detail_lines.rbegin(); it != e.detail_lines.rend(); ++it) {
    const std::string line(util::Trim(*it));
    if (util::StartsWith(line, "Error: ")) return line.substr(7);
  }
  if (!e.detail_lines.empty()) return std::string(util::Trim(e.detail_lines.back()));
  return e.message;
}

// The flags every remote oras call takes from the manifest.
std::vector<std::string> RemoteFlags(const OrasOptions& o) {
  std::vector<std::string> flags;
  if (o.plain_http) flags.push_back("--plain-http");
  if (o.insecure_skip_verify) flags.push_back("--insecure");
  return flags;
}

// The artifacts pulled in this run (or the error pulling one gave), by what names them: the digest pass and the
// render, and manifests naming the same artifact, pull once, one after the other.
struct Pulls {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<std::mutex>> busy;
  std::map<std::string, util::Result<PulledArtifact>> done;
};
Pulls& RunPulls() {
  static Pulls pulls;
  return pulls;
}

class Puller {
 public:
  Puller(const OrasOptions& o, RenderContext& ctx) : o_(o), ctx_(ctx) {
    const std::string cache = ctx.cache_dir.empty() ? DefaultCacheDir(ctx.env) : ctx.cache_dir;
    dir_ = util::JoinPath(cache, "oras");
    if (const std::optional<std::string> t = ctx.env.Get("TAZUNA_ORAS_TIMEOUT")) {
      if (const std::optional<uint64_t> s = util::GoParseUint(*t); s && *s > 0 && *s <= 3600) timeout_ = std::chrono::seconds(*s);
    }
  }

  util::Result<PulledArtifact> Pull() {
    util::Result<OrasReference> ref = ParseOrasReference(o_.reference);
    if (!ref) return ref.error();
    ref_ = *ref;
    if (util::Status s = MakeDirs(); !s) return s.error();
    util::Result<std::string> digest = Resolve();
    if (!digest) return digest.error();
    util::Result<std::string> manifest = Text(Blob(*digest, true));
    if (!manifest) return manifest.error();
    util::Result<std::string> layer = ArchiveLayer(*manifest, ArchiveLimits{}.max_bytes);
    if (!layer) return Failed(o_.reference, layer.error().message);
    util::Result<std::string> tree = Tree(*layer);
    if (!tree) return tree.error();
    PulledArtifact out{*digest, *tree, o_.target.empty() ? *tree : util::CleanJoin(*tree, o_.target)};
    struct stat st {};
    if (::stat(out.path.c_str(), &st) != 0) {
      return Failed(o_.reference, util::StrCat("oras.target ", util::Quote(o_.target), " is not in the artifact"));
    }
    return out;
  }

 private:
  util::Status MakeDirs() const {
    std::error_code ec;
    for (const char* sub : {"blobs/sha256", "trees", "refs", "tmp", "retired"}) fs::create_directories(util::JoinPath(dir_, sub), ec);
    if (ec) return Failed(o_.reference, util::StrCat("cannot create the cache ", util::Quote(dir_), ": ", ec.message()));
    ::chmod(dir_.c_str(), 0700);
    SweepTemps();
    return util::Ok();
  }

  // What a killed run left in tmp/ (a half-fetched blob, a half-unpacked tree) goes after a day, a tree retired
  // by --no-cache after ten minutes (a run that was reading it has long finished). Nothing reads tmp/ or
  // retired/ by name, so a leftover is never trusted; it is only kept from filling the disk.
  void SweepTemps() const {
    const auto now = fs::file_time_type::clock::now();
    for (const auto& [sub, age] : {std::pair{"tmp", std::chrono::minutes(24 * 60)}, std::pair{"retired", std::chrono::minutes(10)}}) {
      std::error_code ec;
      for (const fs::directory_entry& e : fs::directory_iterator(util::JoinPath(dir_, sub), ec)) {
        std::error_code ignored;
        const fs::file_time_type when = e.last_write_time(ignored);
        if (!ignored && when < now - age) fs::remove_all(e.path(), ignored);
      }
    }
  }

  util::Result<std::string> Oras(std::vector<std::string> argv) {
    argv.insert(argv.begin(), "oras");
    for (const std::string& f : RemoteFlags(o_)) argv.push_back(f);
    RenderContext call = ctx_;
    call.tool_timeout = timeout_;
    util::Result<std::string> out = RunTool({argv, "", "", {}}, call);
    if (out) return out;
    if (out.error().kind == util::ErrorKind::kToolMissing) {
      return util::MakeError(util::ErrorKind::kToolMissing,
                             "oras: \"oras\" not found on PATH (https://oras.land/docs/installation)");
    }
    if (Has(out.error().message, " timed out after ")) {
      return Failed(o_.reference, util::StrCat("the registry did not answer within ", timeout_.count(),
                                               "s (TAZUNA_ORAS_TIMEOUT)"));
    }
    return Failed(o_.reference, OrasSaid(out.error()));
  }

  std::string RefRecord() const {
    return util::JoinPath(dir_, "refs/" + util::Sha256Hex(util::StrCat(o_.plain_http, " ", o_.reference)));
  }

  // The manifest digest: the reference's own, else the tag resolved (once per run), else (--offline) the last
  // resolution recorded.
  util::Result<std::string> Resolve() {
    if (!ref_.digest.empty()) return ref_.digest;
    return ResolveTag();
  }

  util::Result<std::string> ResolveTag() {
    std::string digest;
    if (ctx_.oras_offline) {
      const std::optional<std::string> recorded = ReadFile(RefRecord());
      if (!recorded) return Failed(o_.reference, "never resolved on this machine; run once without --offline");
      digest = std::string(util::Trim(*recorded));
    } else {
      util::Result<std::string> out = Oras({"resolve", o_.reference});
      if (!out) return out.error();
      digest = std::string(util::Trim(*out));
    }
    if (!ValidDigest(digest)) return Failed(o_.reference, util::StrCat("resolved to ", util::Quote(digest), ", not a sha256 digest"));
    if (!ctx_.oras_offline) WriteAtomically(RefRecord(), digest + "\n");
    ctx_.log.Log(2, util::StrCat("oras: ", util::Quote(o_.reference), " is ", digest));
    return digest;
  }

  // The blob `digest` (a manifest when `manifest`, else a layer) from the cache, else fetched and checked.
  util::Result<std::string> Blob(const std::string& digest, bool manifest) {
    const std::string path = util::JoinPath(dir_, "blobs/sha256/" + Hex(digest));
    if (!ctx_.oras_no_cache && fs::exists(path)) return path;
    if (ctx_.oras_offline) return Failed(o_.reference, util::StrCat(digest, " is not in the cache (--offline)"));
    const std::string tmp = Temp("blob", false);
    if (tmp.empty()) return Failed(o_.reference, util::StrCat("cannot create a file in ", util::Quote(dir_), ": ", std::strerror(errno)));
    const std::string at = util::StrCat(ref_.repository, "@", digest);
    util::Result<std::string> out =
        manifest ? Oras({"manifest", "fetch", at, "--output", tmp}) : Oras({"blob", "fetch", at, "--output", tmp});
    if (!out) {
      ::unlink(tmp.c_str());
      return out.error();
    }
    struct stat st {};
    if (manifest && ::stat(tmp.c_str(), &st) == 0 && st.st_size > kMaxManifestBytes) {
      ::unlink(tmp.c_str());
      return Failed(o_.reference, util::StrCat("the manifest ", digest, " is larger than 4 MiB"));
    }
    const int fd = ::open(tmp.c_str(), O_RDONLY | O_CLOEXEC);
    const std::string got = fd < 0 ? "" : util::Sha256FdHex(fd);
    if (fd >= 0) ::close(fd);
    if (got != Hex(digest)) {
      ::unlink(tmp.c_str());
      return Failed(o_.reference, util::StrCat(manifest ? "the manifest" : "the layer", " fetched as ", digest,
                                               " has the digest sha256:", got.empty() ? "(unreadable)" : got));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
      ::unlink(tmp.c_str());
      return Failed(o_.reference, util::StrCat("cannot write ", util::Quote(path), ": ", std::strerror(errno)));
    }
    return path;
  }

  // The manifest's text at `path`.
  util::Result<std::string> Text(const util::Result<std::string>& path) {
    if (!path) return path.error();
    const std::optional<std::string> text = ReadFile(*path);
    if (!text) return Failed(o_.reference, util::StrCat("cannot read ", util::Quote(*path)));
    return *text;
  }

  // The layer `digest` unpacked: from the cache, else fetched and unpacked into a temporary directory renamed
  // into place once whole.
  util::Result<std::string> Tree(const std::string& digest) {
    const std::string tree = util::JoinPath(dir_, "trees/sha256-" + Hex(digest));
    if (!ctx_.oras_no_cache && fs::is_directory(tree)) return tree;
    util::Result<std::string> blob = Blob(digest, false);
    if (!blob) return blob.error();
    const std::string tmp = Temp("tree", true);
    if (tmp.empty()) return Failed(o_.reference, util::StrCat("cannot create a directory in ", util::Quote(dir_), ": ", std::strerror(errno)));
    std::error_code ec;
    if (util::Status s = ExtractArchive(*blob, tmp); !s) {
      fs::remove_all(tmp, ec);
      return Failed(o_.reference, util::StrCat("layer ", digest, ": ", s.error().message));
    }
    // A tree in place is never taken away from a run that may be rendering it: when another run unpacked the
    // same digest first, its tree stays and ours goes; --no-cache swaps ours in atomically (the path never
    // misses, and both hold the same verified layer) and retires the old one, removed minutes later.
    if (::rename(tmp.c_str(), tree.c_str()) != 0) {
      const int err = errno;
      const bool taken = err == ENOTEMPTY || err == EEXIST;
      if (taken && ctx_.oras_no_cache &&
          ::renameat2(AT_FDCWD, tmp.c_str(), AT_FDCWD, tree.c_str(), RENAME_EXCHANGE) == 0) {
        const std::string retired = Temp("tree", true, "retired");  // an empty directory the old tree replaces
        if (retired.empty() || ::rename(tmp.c_str(), retired.c_str()) != 0) {
          fs::remove_all(tmp, ec);
        } else {
          fs::last_write_time(retired, fs::file_time_type::clock::now(), ec);  // retired now, not when unpacked
        }
      } else if (!taken || !fs::is_directory(tree)) {
        fs::remove_all(tmp, ec);
        return Failed(o_.reference, util::StrCat("cannot write ", util::Quote(tree), ": ", std::strerror(err)));
      } else {
        fs::remove_all(tmp, ec);
      }
    }
    ctx_.log.Log(2, util::StrCat("oras: ", util::Quote(o_.reference), " layer ", digest, " unpacked"));
    return tree;
  }

  // A new file (or directory) of a unique name in `sub`, made by mkstemp (mkdtemp): no other run, even one with
  // the same pid in another container sharing the cache, writes there. "" (errno set) when it cannot be made.
  std::string Temp(const char* what, bool dir, const char* sub = "tmp") const {
    std::string path = util::JoinPath(dir_, util::StrCat(sub, "/", what, "-XXXXXX"));
    if (dir) return ::mkdtemp(path.data()) == nullptr ? "" : path;
    const int fd = ::mkstemp(path.data());
    if (fd < 0) return "";
    ::close(fd);
    return path;
  }

  static std::optional<std::string> ReadFile(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return std::nullopt;
    FILE* f = std::fopen(path.c_str(), "rb");
    if (f == nullptr) return std::nullopt;
    std::string text;
    char buf[65536];
    size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    std::fclose(f);
    return text;
  }

  void WriteAtomically(const std::string& path, const std::string& text) {
    const std::string tmp = Temp("ref", false);
    if (tmp.empty()) return;
    FILE* f = std::fopen(tmp.c_str(), "wb");
    if (f == nullptr) return;
    const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    if (std::fclose(f) == 0 && ok && ::rename(tmp.c_str(), path.c_str()) == 0) return;
    ::unlink(tmp.c_str());
  }

  const OrasOptions& o_;
  RenderContext& ctx_;
  std::string dir_;
  OrasReference ref_;
  std::chrono::seconds timeout_{300};
};

}  // namespace

util::Result<OrasReference> ParseOrasReference(const std::string& reference) {
  OrasReference out;
  const auto bad = [&](const std::string& why) {
    return util::MakeError(util::ErrorKind::kInput, util::StrCat("oras.reference ", util::Quote(reference), ": ", why));
  };
  std::string rest = reference;
  if (const size_t at = rest.find('@'); at != std::string::npos) {
    out.digest = rest.substr(at + 1);
    rest = rest.substr(0, at);
    if (!ValidDigest(out.digest)) return bad("a digest is sha256: and 64 lowercase hex digits");
  }
  const size_t slash = rest.rfind('/');
  if (slash == std::string::npos || slash == 0) return bad("expected REGISTRY/REPOSITORY[:TAG|@DIGEST]");
  if (const size_t colon = rest.rfind(':'); colon != std::string::npos && colon > slash) {
    out.tag = rest.substr(colon + 1);
    rest = rest.substr(0, colon);
    if (out.tag.empty()) return bad("an empty tag");
  }
  out.repository = rest;
  if (out.tag.empty() && out.digest.empty()) out.tag = "latest";
  return out;
}

util::Result<std::string> ArchiveLayer(const std::string& manifest_json, uint64_t max_bytes) {
  const nlohmann::json m = nlohmann::json::parse(manifest_json, nullptr, false);
  const auto bad = [](const std::string& why) { return util::MakeError(util::ErrorKind::kInput, why); };
  if (!m.is_object()) return bad("the manifest is not JSON");
  const std::string media = m.value("mediaType", std::string());
  if (m.contains("manifests") || Has(media, "index") || Has(media, "manifest.list")) {
    return bad("the reference names an index of several manifests, not one artifact");
  }
  if (!m.contains("layers") || !m["layers"].is_array()) return bad("the manifest has no layers");
  const nlohmann::json& layers = m["layers"];
  if (layers.size() != 1) return bad(util::StrCat("the artifact has ", layers.size(), " layers; exactly one tar or tar.gz is expected"));
  const nlohmann::json& layer = layers[0];
  if (!layer.is_object()) return bad("the manifest's layer is not an object");
  const std::string type = layer.value("mediaType", std::string());
  const std::string digest = layer.value("digest", std::string());
  if (!Has(type, "tar") && !Has(type, "gzip")) {
    return bad(util::StrCat("the layer's media type ", util::Quote(type), " is not an archive (tar or tar+gzip)"));
  }
  if (!ValidDigest(digest)) return bad(util::StrCat("the layer's digest ", util::Quote(digest), " is not sha256"));
  const nlohmann::json& size = layer.contains("size") ? layer["size"] : nlohmann::json();
  if (size.is_number_unsigned() && size.get<uint64_t>() > max_bytes) {
    return bad(util::StrCat("the layer is larger than ", max_bytes, " bytes"));
  }
  return digest;
}

util::Result<PulledArtifact> PullArtifact(const OrasOptions& o, RenderContext& ctx) {
  const std::string key = util::StrCat(o.plain_http, o.insecure_skip_verify, " ", o.reference, " ", o.target);
  Pulls& pulls = RunPulls();
  std::shared_ptr<std::mutex> busy;
  {
    std::lock_guard<std::mutex> lock(pulls.mu);
    if (auto it = pulls.done.find(key); it != pulls.done.end()) return it->second;
    auto& slot = pulls.busy[key];
    if (!slot) slot = std::make_shared<std::mutex>();
    busy = slot;
  }
  std::lock_guard<std::mutex> one(*busy);
  {
    std::lock_guard<std::mutex> lock(pulls.mu);
    if (auto it = pulls.done.find(key); it != pulls.done.end()) return it->second;
  }
  util::Result<PulledArtifact> out = Puller(o, ctx).Pull();
  std::lock_guard<std::mutex> lock(pulls.mu);
  pulls.done.emplace(key, out);
  return out;
}

}  // namespace tazuna::manifest
