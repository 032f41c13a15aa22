#include "cli/git_config.hpp"

#include <filesystem>

#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

// `[remote "origin"]` -> "origin"; "" for any other section.
std::string RemoteSection(std::string_view line) {
  constexpr std::string_view kPrefix = "[remote \"";
  if (!util::StartsWith(line, kPrefix) || !util::EndsWith(line, "\"]")) return "";
  return std::string(line.substr(kPrefix.size(), line.size() - kPrefix.size() - 2));
}

std::string Unquote(std::string value) {
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"') return value.substr(1, value.size() - 2);
  return value;
}

std::string Parent(const std::string& dir) {
  const size_t slash = dir.find_last_of('/');
  return slash == 0 || slash == std::string::npos ? "/" : dir.substr(0, slash);
}

// The config file of the git dir `.git` points at: `<git dir>/config`, or for a worktree (a `commondir`
// file in its git dir) the common dir's.
std::string ConfigOf(util::FileReader& files, const std::string& root, const std::string& dot_git) {
  std::string git_dir = dot_git;
  if (!files.IsDirectory(dot_git)) {
    auto text = files.ReadFile(dot_git);
    if (!text || !util::StartsWith(*text, "gitdir:")) return "";
    git_dir = util::JoinPath(root, std::string(util::Trim(text->substr(7))));
  }
  if (auto common = files.ReadFile(git_dir + "/commondir")) {
    git_dir = util::JoinPath(git_dir, std::string(util::Trim(*common)));
  }
  return std::filesystem::path(git_dir + "/config").lexically_normal().generic_string();
}

}  // namespace

std::map<std::string, std::string> ParseGitRemotes(const std::string& config_text) {
  std::map<std::string, std::string> out;
  std::string remote;
  for (const auto& raw : util::Split(config_text, '\n')) {
    const std::string line(util::Trim(raw));
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line[0] == '[') {
      remote = RemoteSection(line);
      continue;
    }
    const size_t eq = line.find('=');
    if (remote.empty() || eq == std::string::npos) continue;
    if (util::Trim(line.substr(0, eq)) == "url") out[remote] = Unquote(std::string(util::Trim(line.substr(eq + 1))));
  }
  return out;
}

std::optional<GitCheckout> FindGitCheckout(util::FileReader& files, const std::string& dir) {
  for (std::string root = dir;; root = Parent(root)) {
    const std::string dot_git = root == "/" ? "/.git" : root + "/.git";
    if (files.Exists(dot_git)) {
      GitCheckout out{root, ""};
      auto config = files.ReadFile(ConfigOf(files, root, dot_git));
      const auto remotes = config ? ParseGitRemotes(*config) : std::map<std::string, std::string>{};
      if (auto it = remotes.find("origin"); it != remotes.end()) {
        out.remote = it->second;
      } else if (remotes.size() == 1) {
        out.remote = remotes.begin()->second;
      }
      return out;
    }
    if (root == "/" || root.empty()) return std::nullopt;
  }
}

}  // namespace tazuna::cli
