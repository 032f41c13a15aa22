#include "kube/kubeconfig_loader.hpp"

#include <algorithm>
#include <filesystem>

#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

std::string Absolute(const std::string& path, const util::Environment& env) {
  if (path.empty() || path[0] == '/') return path;
  std::string cwd = env.GetOr("PWD", "");
  if (cwd.empty()) {
    std::error_code ec;
    cwd = std::filesystem::current_path(ec).string();
  }
  return util::JoinPath(cwd, path);
}

// The file names as given (for messages); duplicates and empty entries dropped.
std::vector<std::string> CandidateFiles(const util::Environment& env) {
  std::vector<std::string> out;
  if (const auto list = env.Get("KUBECONFIG"); list && !list->empty()) {
    for (const std::string& entry : util::Split(*list, ':')) {
      if (entry.empty() || std::find(out.begin(), out.end(), entry) != out.end()) continue;
      out.push_back(entry);
    }
    return out;
  }
  if (const std::string home = env.GetOr("HOME", ""); !home.empty()) out.push_back(home + "/.kube/config");
  return out;
}

}  // namespace

util::Result<LoadedKubeconfig> LoadKubeconfig(const ConfigFlags& flags, const util::Environment& env,
                                              util::FileReader& files) {
  std::vector<std::string> candidates;
  if (!flags.kubeconfig.empty()) {
    if (!files.Exists(Absolute(flags.kubeconfig, env))) {
      return util::MakeError(util::ErrorKind::kInput,
                             util::StrCat("stat ", flags.kubeconfig, ": no such file or directory"));
    }
    candidates.push_back(flags.kubeconfig);
  } else {
    candidates = CandidateFiles(env);
  }
  LoadedKubeconfig loaded;
  std::vector<Kubeconfig> parsed;
  for (const std::string& name : candidates) {
    // Missing files in the KUBECONFIG list are skipped silently, as in client-go.
    const std::string path = Absolute(name, env);
    if (!files.Exists(path)) continue;
    if (std::find(loaded.files.begin(), loaded.files.end(), path) != loaded.files.end()) continue;
    auto text = files.ReadFile(path);
    if (!text) {
      return util::MakeError(util::ErrorKind::kInput, util::StrCat("error loading config file ", util::Quote(name),
                                                                   ": ", text.error().message));
    }
    auto cfg = ParseKubeconfig(*text, path, name);
    if (!cfg) return cfg.error();
    parsed.push_back(std::move(*cfg));
    loaded.files.push_back(path);
  }
  loaded.config = MergeKubeconfigs(parsed);
  return loaded;
}

}  // namespace tazuna::kube
