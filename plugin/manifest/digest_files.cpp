// The pieces every input digest is made of (see digest_files.hpp).
#include "manifest/digest_files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "manifest/render_cache.hpp"

#include "util/process.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {

namespace fs = std::filesystem;

std::string NormalPath(const std::string& path) {
  return fs::absolute(fs::path(path)).lexically_normal().string();
}

std::string RealPath(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::canonical(fs::path(NormalPath(path)), ec);
  return ec ? "" : p.string();
}

bool PathInside(const std::string& path, const std::string& root) {
  const std::string rel = fs::path(path).lexically_relative(root).string();
  return path == root || (!rel.empty() && rel != ".." && !util::StartsWith(rel, "../"));
}

std::string RepositoryRoot(const std::string& dir, util::FileReader& files) {
  const std::string real = RealPath(dir).empty() ? NormalPath(dir) : RealPath(dir);
  for (fs::path p = real;; p = p.parent_path()) {
    if (files.Exists((p / ".git").string())) return p.string();
    if (p == p.parent_path()) return real;
  }
}

namespace {

// A binary's inode as it is now: device, inode, size, modification and change times. Writing the file or
// putting another in its place changes the change time (which no user can set), so an equal fingerprint means
// the content hashed under it.
std::string Fingerprint(const struct stat& st) {
  return util::StrCat(st.st_dev, " ", st.st_ino, " ", st.st_size, " ", st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec,
                      " ", st.st_ctim.tv_sec, ".", st.st_ctim.tv_nsec);
}

// What a renderer says it is, for the two whose behaviour its content does not tell: helmfile (`--version`,
// "helmfile version v1.8.0": 0.x renders a plain helmfile.yaml as a template, 1.x as YAML) and kubectl
// (`version --client`: Google Cloud SDK's dispatcher says "-dispatcher" and runs another kubectl, with another
// kustomize, chosen by the cluster's version). "" for the others, and when it does not answer.
std::string SaidVersion(const std::string& real, const std::string& name, const util::Environment& env) {
  std::vector<std::string> argv;
  if (name == "helmfile") argv = {real, "--version"};
  if (name == "kubectl") argv = {real, "version", "--client"};
  if (argv.empty()) return "";
  util::RealProcessRunner runner;
  util::ProcessRequest request{argv, "", env.vars(), "", std::chrono::seconds(20), false};
  util::Result<util::ProcessResult> ran = runner.Run(request);
  if (!ran || ran->exit_code != 0) return "";
  const std::string out(util::Trim(ran->out));
  if (name == "kubectl") return util::Join(util::Split(out, '\n'), "; ");
  const size_t at = out.rfind(' ');
  return out.substr(at == std::string::npos ? 0 : at + 1);
}

std::mutex identities_mu;
std::map<std::string, ToolIdentity>& Identities() {  // by path and fingerprint, for this run's renders
  static std::map<std::string, ToolIdentity> identities;
  return identities;
}

}  // namespace

std::optional<ToolIdentity> IdentifyTool(const std::string& real, const std::string& name,
                                         const util::Environment& env) {
  const int fd = ::open(real.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat before{}, after{};
  const bool stated = ::fstat(fd, &before) == 0 && S_ISREG(before.st_mode);
  const std::string print = stated ? Fingerprint(before) : "";
  const std::string memo_key = real + "\n" + print;
  std::unique_lock lock(identities_mu);
  if (auto it = Identities().find(memo_key); stated && it != Identities().end()) {
    ::close(fd);
    return it->second;
  }
  // Without a home there is no cache directory to trust (DefaultCacheDir would name the working directory).
  const bool persist = env.Get("XDG_CACHE_HOME") || env.Get("HOME");
  const RenderCache cache(DefaultCacheDir(env));
  const std::string record = "tool-" + util::Sha256Hex(real).substr(0, 32);
  std::optional<ToolIdentity> out;
  if (const auto text = persist ? cache.LoadRecord(record) : std::nullopt; stated && text) {
    const std::vector<std::string> lines = util::Split(*text, '\n');
    if (lines.size() >= 3 && lines[0] == print && lines[1].size() == 64) out = ToolIdentity{lines[1], lines[2]};
  }
  if (!out && stated) {
    ToolIdentity id{util::Sha256FdHex(fd), SaidVersion(real, name, env)};
    // Changed while it was read: its content is of no one fingerprint.
    if (!id.sha256.empty() && ::fstat(fd, &after) == 0 && Fingerprint(after) == print) {
      if (persist) cache.StoreRecord(record, util::StrCat(print, "\n", id.sha256, "\n", id.version, "\n"));
      out = std::move(id);
    }
  }
  ::close(fd);
  if (out) Identities()[memo_key] = *out;
  return out;
}

std::string ToolStamp(const std::string& name, const util::Environment& env, std::string& reason) {
  const std::string found = util::LookPath(name, env.GetOr("PATH", ""));
  if (found.empty()) return "";
  const std::string real = RealPath(found);
  if (real.empty()) return "";
  std::ifstream head(real, std::ios::binary);
  char magic[2] = {0, 0};
  head.read(magic, 2);
  if (magic[0] == '#' && magic[1] == '!') {
    reason = util::StrCat(util::Quote(found), " is a script, not the tool itself");
  }
  // A version manager's proxy binary (aqua-proxy) picks the version from files outside the repository.
  if (!util::StartsWith(fs::path(real).filename().string(), name)) {
    reason = util::StrCat(util::Quote(found), " runs ", util::Quote(real), ", which may pick another tool");
  }
  const std::optional<ToolIdentity> id = IdentifyTool(real, name, env);
  if (!id) {
    reason = util::StrCat(util::Quote(real), " cannot be read to tell what it is");
    return real;
  }
  if (name == "kubectl" && (id->version.empty() || id->version.find("dispatcher") != std::string::npos)) {
    reason = util::StrCat(util::Quote(real), " is ", id->version.empty() ? "a kubectl that does not say its version"
                                                                         : "a dispatcher (" + id->version + ")",
                          ": it may run another kubectl, with another kustomize, for another cluster");
  }
  if (name == "helmfile" && !(util::StartsWith(id->version, "v1.") || util::StartsWith(id->version, "1."))) {
    reason = util::StrCat(util::Quote(real), " is helmfile ", id->version.empty() ? "of an unknown version" : id->version,
                          ", not 1.x: it may render helmfile.yaml as a template");
  }
  return util::StrCat(real, " sha256:", id->sha256, id->version.empty() ? "" : " " + id->version);
}

std::string DigestHeader(const Manifest& m, const RenderContext& ctx) {
  return util::StrCat("tazuna-render/1 ", ctx.plugin_version, "\nname ", m.name, "\ntype ", m.type, "\npath ", m.path,
                      "\nkustomize.defaultNamespace ", m.kustomize.default_namespace, "\nmanifests.defaultNamespace ",
                      m.manifests.default_namespace, "\n");
}

std::string WithFiles(std::string text, const std::set<std::string>& paths, const std::string& base,
                      util::FileReader& files, std::string& reason) {
  for (const std::string& p : paths) {
    auto content = files.ReadFile(p);
    if (!content) {
      reason = content.error().message;
      return "";
    }
    text += util::StrCat("file ", fs::path(p).lexically_relative(base).string(), " ", util::Sha256Hex(*content), "\n");
  }
  return text;
}

namespace {

bool Hash(const std::string& word) {
  const std::string hex = util::StartsWith(word, "sha256:") ? word.substr(7) : word;
  return hex.size() == 64 && hex.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The digest's lines without their hashes (of files, binaries, and of values that may be secret).
std::string Covered(const std::string& text) {
  std::vector<std::string> lines;
  for (const std::string& line : util::Split(text, '\n')) {
    std::vector<std::string> words;
    for (const std::string& word : util::Split(line, ' ')) {
      if (!Hash(word)) words.push_back(word);
    }
    if (!words.empty() && !words.front().empty()) lines.push_back(util::Join(words, " "));
  }
  return util::Join(lines, "; ");
}

}  // namespace

InputDigest DigestOf(const std::string& text, const std::string& reason) {
  if (!reason.empty()) return {"", reason};
  return {util::Sha256Hex(text), "", false, Covered(text)};
}

}  // namespace tazuna::manifest
