// What a render reads, named so that an equal digest means an equal render (see input_digest.hpp).
#include "manifest/input_digest.hpp"

#include "manifest/digest_files.hpp"

#include <filesystem>
#include <set>

#include <yaml-cpp/yaml.h>

#include "util/sha256.hpp"
#include "util/strings.hpp"
#include "util/yaml_cpp_guard.hpp"

namespace tazuna::manifest {

namespace {

namespace fs = std::filesystem;

// Whether `key` (in a map under `parent`) of a kustomization names files or directories, relative to the
// kustomization's directory (a `path` elsewhere is a field path: labels[].fields[].path).
bool PathField(const std::string& key, const std::string& parent) {
  static const std::set<std::string> kFields = {"resources", "bases", "components", "crds", "configurations",
                                                "patchesStrategicMerge", "generators", "transformers", "validators",
                                                "files", "envs", "env"};
  static const std::set<std::string> kPathParents = {"patches", "patchesJson6902", "replacements", "openapi"};
  return kFields.count(key) > 0 || (key == "path" && kPathParents.count(parent) > 0);
}

// The files of one kustomize render, found by following kustomizations from the manifest's directory. Fails
// closed (`reason`): a remote resource (its content, and the remotes it names, cannot be checked without
// fetching it), helm charts, a path that leaves the repository or names nothing, an env file that takes
// values from the environment, a kustomization that does not parse.
class KustomizeWalk {
 public:
  KustomizeWalk(util::FileReader& files, std::string root) : files_(files), root_(std::move(root)) {}
  void Dir(const std::string& dir);
  const std::set<std::string>& files() const { return found_; }
  const std::string& reason() const { return reason_; }

 private:
  void Scan(const std::string& dir, const std::string& kustomization);
  void Fields(const YAML::Node& node, const std::string& dir, const std::string& parent, bool path_field, int depth);
  void Reference(std::string value, const std::string& dir, bool path_field);
  void EnvFile(const std::string& path);

  util::FileReader& files_;
  std::string root_;
  std::set<std::string> visited_, found_;
  std::string reason_;
};

void KustomizeWalk::Dir(const std::string& dir) {
  if (!reason_.empty() || !visited_.insert(dir).second) return;
  if (!PathInside(dir, root_)) {
    reason_ = util::StrCat("kustomize: ", util::Quote(dir), " is outside the repository ", util::Quote(root_));
    return;
  }
  auto listed = files_.ListFilesRecursive(dir);
  if (!listed) {
    reason_ = "kustomize: " + listed.error().message;
    return;
  }
  for (const std::string& f : *listed) {
    if (f.find("/.git/") == std::string::npos) found_.insert(f);  // git's own files are not read by kustomize
  }
  for (const char* name : {"kustomization.yaml", "kustomization.yml", "Kustomization"}) {
    const std::string k = (fs::path(dir) / name).string();
    if (files_.Exists(k)) Scan(dir, k);
  }
}

void KustomizeWalk::Scan(const std::string& dir, const std::string& kustomization) {
  auto text = files_.ReadFile(kustomization);
  if (!text || util::FindEndlessDocuments(*text)) {
    reason_ = util::StrCat("kustomize: ", util::Quote(kustomization), " cannot be read");
    return;
  }
  try {
    const YAML::Node doc = YAML::Load(*text);
    if (doc.IsMap() && (doc["helmCharts"] || doc["helmChartInflationGenerator"] || doc["helmGlobals"])) {
      reason_ = util::StrCat("kustomize: ", util::Quote(kustomization), " inflates helm charts (fetched)");
      return;
    }
    Fields(doc, dir, "", false, 0);
  } catch (const std::exception& e) {
    reason_ = util::StrCat("kustomize: ", util::Quote(kustomization), " does not parse: ",
                           util::YamlCppMessage(e.what()));
  }
}

// Every string of a kustomization may name a file or directory: each that exists is read (followed when it
// is a directory); under a field that holds paths, one that names nothing fails closed.
void KustomizeWalk::Fields(const YAML::Node& node, const std::string& dir, const std::string& parent, bool path_field,
                           int depth) {
  if (!reason_.empty()) return;
  if (depth > 64) {
    reason_ = "kustomize: a kustomization nests too deep";
    return;
  }
  if (node.IsScalar()) return Reference(node.Scalar(), dir, path_field);
  if (node.IsSequence()) {
    for (const auto& item : node) Fields(item, dir, parent, path_field, depth + 1);
  } else if (node.IsMap()) {
    for (const auto& kv : node) {
      const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
      Fields(kv.second, dir, key, PathField(key, parent), depth + 1);
      if ((key == "envs" || key == "env") && reason_.empty()) {
        for (const auto& f : kv.second.IsSequence() ? kv.second : YAML::Node(YAML::NodeType::Sequence)) {
          if (f.IsScalar()) EnvFile((fs::path(dir) / f.Scalar()).string());
        }
        if (kv.second.IsScalar()) EnvFile((fs::path(dir) / kv.second.Scalar()).string());
      }
    }
  }
}

void KustomizeWalk::Reference(std::string value, const std::string& dir, bool path_field) {
  if (value.empty() || value.size() > 4096 || value.find('\n') != std::string::npos) return;
  if (value.find("://") != std::string::npos || util::StartsWith(value, "git@") || util::StartsWith(value, "git::") ||
      value.find("ref=") != std::string::npos || value.find("github.com/") != std::string::npos) {
    reason_ = util::StrCat("kustomize: remote ", util::Quote(value), " (fetched: its content cannot be checked)");
    return;
  }
  if (path_field && value.find('=') != std::string::npos) value = value.substr(value.find('=') + 1);  // files: key=path
  const bool absolute = value[0] == '/';
  const std::string target = RealPath(absolute ? value : (fs::path(dir) / value).string());
  if (target.empty()) {  // a label, a name, an image; under a path field: a path kustomize would fail or fetch
    if (path_field) {
      reason_ = util::StrCat("kustomize: ", util::Quote(value), " names nothing under ", util::Quote(dir));
    }
    return;
  }
  if (absolute && !path_field && !files_.IsDirectory(target)) return;  // a field path (/spec/replicas), a mount
  if (!PathInside(target, root_)) {
    reason_ = util::StrCat("kustomize: ", util::Quote(value), " leaves the repository ", util::Quote(root_));
  } else if (files_.IsDirectory(target)) {
    Dir(target);
  } else {
    found_.insert(target);
  }
}

// An env file whose line names a variable without a value takes it from the environment, which no digest of
// files covers.
void KustomizeWalk::EnvFile(const std::string& path) {
  auto text = files_.ReadFile(RealPath(path).empty() ? path : RealPath(path));
  if (!text) return;  // Reference says why
  for (const std::string& raw : util::Split(*text, '\n')) {
    const std::string line(util::Trim(raw));
    if (!line.empty() && line[0] != '#' && line.find('=') == std::string::npos) {
      reason_ = util::StrCat("kustomize: ", util::Quote(path), " takes ", util::Quote(line), " from the environment");
      return;
    }
  }
}

InputDigest ManifestFiles(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  const std::string path = util::JoinPath(file.dir, m.path);
  std::set<std::string> paths;
  if (path.find_first_of("*?[") != std::string::npos) {
    auto matches = ctx.files.Glob(path);
    if (!matches) return {"", matches.error().message};
    for (const auto& f : *matches) paths.insert(NormalPath(f));
  } else if (ctx.files.IsDirectory(path)) {
    auto all = ctx.files.ListFilesRecursive(path);
    if (!all) return {"", all.error().message};
    for (const auto& f : *all) paths.insert(NormalPath(f));
  } else {
    paths.insert(NormalPath(path));
  }
  std::string reason;
  std::string text = WithFiles(DigestHeader(m, ctx), paths, NormalPath(file.dir), ctx.files, reason);
  return DigestOf(text, reason);
}

InputDigest KustomizeFiles(const Manifest& m, const TazunaFile& file, RenderContext& ctx) {
  std::string reason;
  std::string tool = ToolStamp("kustomize", ctx.env, reason);
  if (tool.empty()) tool = ToolStamp("kubectl", ctx.env, reason);
  if (tool.empty()) return {"", "kustomize: neither kustomize nor kubectl found on PATH"};
  if (!reason.empty()) return {"", "kustomize: " + reason};
  const std::string dir = RealPath(util::JoinPath(file.dir, m.path));
  if (dir.empty() || !ctx.files.IsDirectory(dir)) {
    return {"", util::StrCat("kustomize: ", util::Quote(m.path), " is not a directory")};
  }
  KustomizeWalk walk(ctx.files, RepositoryRoot(file.dir, ctx.files));
  walk.Dir(dir);
  if (!walk.reason().empty()) return {"", walk.reason()};
  std::string text = DigestHeader(m, ctx) + "tool " + tool + "\n";
  text = WithFiles(std::move(text), walk.files(), RepositoryRoot(file.dir, ctx.files), ctx.files, reason);
  return DigestOf(text, reason);
}

}  // namespace

InputDigest DigestInputs(const Manifest& manifest, const TazunaFile& file, RenderContext& ctx) {
  if (manifest.type == "manifests") return ManifestFiles(manifest, file, ctx);
  if (manifest.type == "kustomize") return KustomizeFiles(manifest, file, ctx);
  if (manifest.type == "helmfile") return DigestHelmfile(manifest, file, ctx);
  if (manifest.type == "genesissecret") return {"", "genesissecret reads its provider's secrets: rendered every time"};
  if (manifest.type == "oras") return {"", "oras pulls from a registry: rendered every time"};
  return {"", "unknown type " + util::Quote(manifest.type)};
}

}  // namespace tazuna::manifest
