#include "cli/complete.hpp"

#include <algorithm>

#include "cli/build_info.hpp"
#include "cli/command.hpp"
#include "kube/rest_config.hpp"
#include "manifest/manifest.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

constexpr int kNoFileComp = 4;  // cobra ShellCompDirectiveNoFileComp

std::string FlagValue(const std::vector<std::string>& words, const std::string& long_name, char short_name) {
  std::string value;
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == "--" + long_name || (short_name != 0 && words[i] == std::string("-") + short_name)) {
      value = words[i + 1];
    } else if (util::StartsWith(words[i], "--" + long_name + "=")) {
      value = words[i].substr(long_name.size() + 3);
    }
  }
  return value;
}

std::vector<std::string> ManifestNames(const std::vector<std::string>& words, util::FileReader& files) {
  std::string file = FlagValue(words, "file", 'f');
  if (file.empty()) file = "tazuna.yaml";
  manifest::LoadOptions load;
  load.environment = FlagValue(words, "environment", 'e');
  load.tool_version = std::string(BuildVersion());
  auto loaded = manifest::LoadTazunaFile(file, load, files);
  std::vector<std::string> out;
  if (loaded) {
    for (const auto& m : loaded->manifests) out.push_back(m.name);
  }
  return out;
}

std::vector<std::string> Candidates(const std::vector<std::string>& words, const std::string& prev,
                                    const std::string& word, const util::Environment& env, util::FileReader& files) {
  const auto commands = AllCommands();
  // The command is the longest path matching the leading non-flag words.
  const Command* cmd = nullptr;
  size_t depth = 0;
  std::vector<std::string> plain;
  for (const auto& w : words) {
    if (!w.empty() && w[0] == '-') break;
    plain.push_back(w);
  }
  for (const auto& c : commands) {
    const auto parts = util::Split(c.path, ' ');
    if (parts.size() <= plain.size() && std::equal(parts.begin(), parts.end(), plain.begin()) && parts.size() > depth) {
      cmd = &c;
      depth = parts.size();
    }
  }
  if (prev == "-m" || prev == "--manifest") return ManifestNames(words, files);
  if (prev == "--context") {
    kube::ConfigFlags flags;
    flags.kubeconfig = FlagValue(words, "kubeconfig", 0);
    return kube::ListContextNames(flags, env, files);
  }
  if (prev == "-o" || prev == "--output") return {"json", "table", "wide", "yaml"};
  if (prev == "--dry-run") return {"none", "server"};
  if (cmd != nullptr && util::StartsWith(word, "-")) {
    FlagSet flags;
    cmd->add_flags(flags);
    return flags.Names();
  }
  std::vector<std::string> out;
  if (cmd == nullptr || depth == plain.size()) {
    for (const auto& c : commands) {
      const auto parts = util::Split(c.path, ' ');
      if (parts.size() > plain.size() && std::equal(plain.begin(), plain.end(), parts.begin())) {
        out.push_back(parts[plain.size()]);
      }
    }
  }
  return out;
}

}  // namespace

int Complete(std::ostream& out, const util::Environment& env, util::FileReader& files, std::vector<std::string> args) {
  if (!args.empty() && args[0] == "__complete") args.erase(args.begin());
  const std::string word = args.empty() ? "" : args.back();
  if (!args.empty()) args.pop_back();
  const std::string prev = args.empty() ? "" : args.back();
  auto candidates = Candidates(args, prev, word, env, files);
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  for (const auto& c : candidates) {
    if (util::StartsWith(c, word)) out << c << '\n';
  }
  out << ':' << kNoFileComp << '\n';
  return 0;
}

}  // namespace tazuna::cli
