// What a render reads, named so that an equal digest means an equal render (see input_digest.hpp).
#include "manifest/input_digest.hpp"

#include <filesystem>
#include <set>

#include <yaml-cpp/yaml.h>

#include "util/sha256.hpp"
#include "util/strings.hpp"
#include "util/yaml_cpp_guard.hpp"

namespace tazuna::manifest {

namespace {

namespace fs = std::filesystem;

std::string Normal(const std::string& path) { return fs::absolute(fs::path(path)).lexically_normal().string(); }

bool Inside(const std::string& path, const std::string& root) {
  const std::string rel = fs::path(path).lexically_relative(root).string();
  return !rel.empty() && rel != ".." && !util::StartsWith(rel, "../");
}

// The git work tree holding `dir` (a directory with .git), else `dir` itself.
std::string RepositoryRoot(const std::string& dir, util::FileReader& files) {
  for (fs::path p = Normal(dir);; p = p.parent_path()) {
    if (files.Exists((p / ".git").string())) return p.string();
    if (p == p.parent_path()) return Normal(dir);
  }
}

// `name` as the renderer would find it on PATH: its path, size and modification time; "" when absent.
std::string ToolStamp(const std::string& name, const util::Environment& env) {
  for (const std::string& dir : util::Split(env.GetOr("PATH", ""), ':')) {
    std::error_code ec;
    const fs::path p = fs::path(dir.empty() ? "." : dir) / name;
    if (!fs::is_regular_file(p, ec)) continue;
    const auto size = fs::file_size(p, ec);
    const auto mtime = fs::last_write_time(p, ec).time_since_epoch().count();
    if (ec) continue;
    return util::StrCat(fs::absolute(p).string(), " ", size, " ", mtime);
  }
  return "";
}

// A kustomize reference to something fetched (a git repository, a URL); pinned when it names a commit.
bool IsRemote(const std::string& s) {
  return s.find("://") != std::string::npos || util::StartsWith(s, "git@") || util::StartsWith(s, "github.com/") ||
         util::StartsWith(s, "gitlab.com/") || util::StartsWith(s, "bitbucket.org/") || s.find("?ref=") != std::string::npos;
}

bool PinnedToCommit(const std::string& s) {
  const size_t at = s.find("ref=");
  if (at == std::string::npos) return false;
  const std::string ref = s.substr(at + 4, s.find('&', at) == std::string::npos ? std::string::npos : s.find('&', at) - at - 4);
  return ref.size() == 40 && ref.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// The files of one kustomize render, found by following kustomizations from the manifest's directory.
class KustomizeWalk {
 public:
  KustomizeWalk(util::FileReader& files, std::string root) : files_(files), root_(std::move(root)) {}
  void Dir(const std::string& dir);
  const std::set<std::string>& files() const { return found_; }
  const std::set<std::string>& remotes() const { return remotes_; }
  const std::string& reason() const { return reason_; }

 private:
  void Scan(const std::string& dir, const std::string& kustomization);
  void Strings(const YAML::Node& node, const std::string& dir);
  void Reference(const std::string& value, const std::string& dir);

  util::FileReader& files_;
  std::string root_;
  std::set<std::string> visited_, found_, remotes_;
  std::string reason_;
};

void KustomizeWalk::Dir(const std::string& dir) {
  if (!reason_.empty() || !visited_.insert(dir).second) return;
  if (!Inside(dir, root_) && dir != root_) {
    reason_ = util::StrCat("kustomize: ", util::Quote(dir), " is outside the repository ", util::Quote(root_));
    return;
  }
  auto listed = files_.ListFilesRecursive(dir);
  if (!listed) {
    reason_ = "kustomize: " + listed.error().message;
    return;
  }
  found_.insert(listed->begin(), listed->end());
  for (const char* name : {"kustomization.yaml", "kustomization.yml", "Kustomization"}) {
    const std::string k = (fs::path(dir) / name).string();
    if (files_.Exists(k)) Scan(dir, k);
  }
}

void KustomizeWalk::Scan(const std::string& dir, const std::string& kustomization) {
  auto text = files_.ReadFile(kustomization);
  if (!text) {
    reason_ = "kustomize: " + text.error().message;
    return;
  }
  if (util::FindEndlessDocuments(*text)) {
    reason_ = util::StrCat("kustomize: ", util::Quote(kustomization), " does not parse");
    return;
  }
  try {
    const YAML::Node doc = YAML::Load(*text);
    if (doc.IsMap() && (doc["helmCharts"] || doc["helmChartInflationGenerator"])) {
      reason_ = util::StrCat("kustomize: ", util::Quote(kustomization), " inflates helm charts (fetched)");
      return;
    }
    Strings(doc, dir);
  } catch (const std::exception& e) {
    reason_ = util::StrCat("kustomize: ", util::Quote(kustomization), " does not parse: ", util::YamlCppMessage(e.what()));
  }
}

// Every string of a kustomization may name a file or directory (resources, components, patches,
// generators' files and envs, ...): each that exists is read, followed when it is a kustomization.
void KustomizeWalk::Strings(const YAML::Node& node, const std::string& dir) {
  if (!reason_.empty()) return;
  if (node.IsScalar()) return Reference(node.Scalar(), dir);
  if (node.IsSequence()) {
    for (const auto& item : node) Strings(item, dir);
  } else if (node.IsMap()) {
    for (const auto& kv : node) Strings(kv.second, dir);
  }
}

void KustomizeWalk::Reference(const std::string& value, const std::string& dir) {
  if (value.empty() || value.size() > 4096 || value.find('\n') != std::string::npos) return;
  if (IsRemote(value)) {
    if (!PinnedToCommit(value)) reason_ = util::StrCat("kustomize: remote ", util::Quote(value), " is not pinned to a commit");
    remotes_.insert(value);
    return;
  }
  const bool absolute = value[0] == '/';
  const std::string target = Normal(absolute ? value : (fs::path(dir) / value).string());
  if (absolute && !files_.IsDirectory(target)) return;  // a field path (/spec/replicas), a mount path
  if (!files_.Exists(target)) return;  // a label, a name, an image: not a path
  if (!Inside(target, root_) && target != root_) {
    reason_ = util::StrCat("kustomize: ", util::Quote(value), " leaves the repository ", util::Quote(root_));
  } else if (files_.IsDirectory(target)) {
    Dir(target);
  } else {
    found_.insert(target);
  }
}

// The lines every digest starts with: this plugin and the manifest's entry as loaded.
std::string Header(const Manifest& m, const RenderContext& ctx) {
  return util::StrCat("tazuna-render/1 ", ctx.plugin_version, "\nname ", m.name, "\ntype ", m.type, "\npath ", m.path,
                      "\nkustomize.defaultNamespace ", m.kustomize.default_namespace, "\nmanifests.defaultNamespace ",
                      m.manifests.default_namespace, "\n");
}

// `text` plus one line per file, by content; `reason` set when one cannot be read.
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

InputDigest Digest(const std::string& text, const std::string& reason) {
  if (!reason.empty()) return {"", reason};
  return {util::Sha256Hex(text), ""};
}

InputDigest ManifestFiles(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  const std::string path = util::JoinPath(file.dir, m.path);
  std::set<std::string> paths;
  if (path.find_first_of("*?[") != std::string::npos) {
    auto matches = ctx.files.Glob(path);
    if (!matches) return {"", matches.error().message};
    for (const auto& f : *matches) paths.insert(Normal(f));
  } else if (ctx.files.IsDirectory(path)) {
    auto all = ctx.files.ListFilesRecursive(path);
    if (!all) return {"", all.error().message};
    for (const auto& f : *all) paths.insert(Normal(f));
  } else {
    paths.insert(Normal(path));
  }
  std::string reason;
  std::string text = WithFiles(Header(m, ctx), paths, Normal(file.dir), ctx.files, reason);
  return Digest(text, reason);
}

InputDigest KustomizeFiles(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  std::string tool = ToolStamp("kustomize", ctx.env);
  if (tool.empty()) tool = ToolStamp("kubectl", ctx.env);
  if (tool.empty()) return {"", "kustomize: neither kustomize nor kubectl found on PATH"};
  const std::string dir = Normal(util::JoinPath(file.dir, m.path));
  if (!ctx.files.IsDirectory(dir)) return {"", util::StrCat("kustomize: ", util::Quote(dir), " is not a directory")};
  KustomizeWalk walk(ctx.files, RepositoryRoot(file.dir, ctx.files));
  walk.Dir(dir);
  if (!walk.reason().empty()) return {"", walk.reason()};
  std::string text = Header(m, ctx) + "tool " + tool + "\n";
  for (const std::string& r : walk.remotes()) text += "remote " + r + "\n";
  std::string reason;
  text = WithFiles(std::move(text), walk.files(), Normal(file.dir), ctx.files, reason);
  return Digest(text, reason);
}

}  // namespace

InputDigest DigestInputs(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx) {
  if (manifest.type == "manifests") return ManifestFiles(manifest, file, ctx);
  if (manifest.type == "kustomize") return KustomizeFiles(manifest, file, ctx);
  if (manifest.type == "helmfile") return {"", "helmfile reads charts, repositories and the environment: rendered every time"};
  if (manifest.type == "genesissecret") return {"", "genesissecret reads its provider's secrets: rendered every time"};
  if (manifest.type == "oras") return {"", "oras pulls from a registry: rendered every time"};
  return {"", "unknown type " + util::Quote(manifest.type)};
}

}  // namespace tazuna::manifest
