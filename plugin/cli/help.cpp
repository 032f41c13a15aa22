#include "cli/help.hpp"

#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

std::string CommandList(const std::vector<Command>& commands, const std::string& prefix) {
  size_t width = 0;
  for (const auto& c : commands) {
    if (util::StartsWith(c.path, prefix)) width = std::max(width, c.path.size() - prefix.size());
  }
  std::string out;
  for (const auto& c : commands) {
    if (!util::StartsWith(c.path, prefix)) continue;
    const std::string name = c.path.substr(prefix.size());
    out += "  " + name + std::string(width - name.size() + 3, ' ') + c.short_help + "\n";
  }
  return out;
}

}  // namespace

std::string RootHelp(const std::vector<Command>& commands) {
  return util::StrCat(
      "Render a platform's base layer from tazuna.yaml, remember in the cluster what was installed\n"
      "(ConfigMaps in namespace tazuna), and show, apply and prune the difference.\n\n",
      "Commands:\n", CommandList(commands, ""),
      "\nUsage:\n  kubectl tazuna [command] [flags] [options]\n\n",
      "Use \"kubectl tazuna <command> --help\" for more information about a given command.\n");
}

std::string GroupHelp(const std::vector<Command>& commands, const std::string& group) {
  return util::StrCat("Inspect and sync the state tazuna keeps in the cluster.\n\nCommands:\n",
                      CommandList(commands, group + " "), "\nUsage:\n  kubectl tazuna ", group,
                      " [command] [flags] [options]\n");
}

std::string CommandHelp(const Command& cmd, const FlagSet& flags) {
  std::string out = cmd.long_help.empty() ? cmd.short_help + "\n" : cmd.long_help;
  if (!cmd.examples.empty()) out += "\nExamples:\n" + cmd.examples;
  out += "\nOptions:\n" + flags.Usage();
  out += "Usage:\n  kubectl tazuna " + cmd.path + (cmd.args_usage.empty() ? "" : " " + cmd.args_usage) +
         " [flags] [options]\n";
  return out;
}

}  // namespace tazuna::cli
