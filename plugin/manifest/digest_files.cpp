// The pieces every input digest is made of (see digest_files.hpp).
#include "manifest/digest_files.hpp"

#include <filesystem>
#include <fstream>

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
  const fs::path p = fs::canonical(fs::path(path), ec);
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

std::string ToolStamp(const std::string& name, const util::Environment& env, std::string& reason) {
  const std::string found = util::LookPath(name, env.GetOr("PATH", ""));
  if (found.empty()) return "";
  const std::string real = RealPath(found);
  std::error_code ec;
  const auto size = fs::file_size(real, ec);
  const auto mtime = fs::last_write_time(real, ec).time_since_epoch().count();
  if (real.empty() || ec) return "";
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
  return util::StrCat(real, " ", size, " ", mtime);
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

InputDigest DigestOf(const std::string& text, const std::string& reason) {
  if (!reason.empty()) return {"", reason};
  return {util::Sha256Hex(text), ""};
}

}  // namespace tazuna::manifest
