#include "cli/help.hpp"

#include <algorithm>

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

// The exit codes of `cmd` (README "Exit codes"), one per line.
std::string ExitHelp(const Command& cmd) {
  std::string out = cmd.exit_style == ExitStyle::kDiff ? "  0  none found\n" : "  0  done\n";
  if (!cmd.exit_one.empty()) out += "  1  " + cmd.exit_one + "\n";
  out += cmd.writes ? "  2  refused before any write (bad input, unreachable, forbidden, lock timeout, stale plan): "
                      "nothing changed\n"
                      "  3  stopped part-way, after writing: look at the rows and state history before running again\n"
                    : "  2  refused (bad input, unreachable, forbidden, ...): nothing changed\n";
  return out;
}

}  // namespace

std::string RootHelp(const std::vector<Command>& commands) {
  return util::StrCat(
      "Render a platform's base layer from tazuna.yaml, remember in the cluster what was installed\n"
      "(ConfigMaps in namespace tazuna), and show, apply and prune the difference.\n\n",
      "Commands:\n", CommandList(commands, ""),
      "\nUsage:\n  kubectl tazuna [command] [flags] [options]\n\n",
      "Use \"kubectl tazuna <command> --help\" for more information about a given command.\n\n",
      "Exit status: 0 done; 1 differences, or rows that need a person; 2 refused, nothing changed; 3 stopped\n"
      "part-way after writing (see each command's --help).\n");
}

std::string GroupHelp(const std::vector<Command>& commands, const std::string& group) {
  return util::StrCat("Inspect and sync the state tazuna keeps in the cluster.\n\nCommands:\n",
                      CommandList(commands, group + " "), "\nUsage:\n  kubectl tazuna ", group,
                      " [command] [flags] [options]\n");
}

std::string CommandHelp(const Command& cmd, const FlagSet& flags) {
  std::string out = cmd.long_help.empty() ? cmd.short_help + "\n" : cmd.long_help;
  if (!cmd.examples.empty()) out += "\nExamples:\n" + cmd.examples;
  out += "\nExit status:\n" + ExitHelp(cmd);
  out += "\nOptions:\n" + flags.Usage();
  out += "Usage:\n  kubectl tazuna " + cmd.path + (cmd.args_usage.empty() ? "" : " " + cmd.args_usage) +
         " [flags] [options]\n";
  return out;
}

Command Describe(std::string path, std::string short_help, std::string long_help) {
  Command c;
  c.path = std::move(path);
  c.short_help = std::move(short_help);
  c.long_help = std::move(long_help);
  return c;
}

std::string LongDesc(std::string_view text) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at <= text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  const auto blank = [](std::string_view l) { return l.find_first_not_of(' ') == std::string_view::npos; };
  size_t first = 0, last = lines.size();
  if (first < last && blank(lines[first])) ++first;
  if (first < last && blank(lines[last - 1])) --last;
  size_t indent = std::string_view::npos;
  for (size_t i = first; i < last; ++i) {
    if (!blank(lines[i])) indent = std::min(indent, lines[i].find_first_not_of(' '));
  }
  std::string out;
  for (size_t i = first; i < last; ++i) {
    if (!blank(lines[i])) out += lines[i].substr(indent);
    out += '\n';
  }
  return out;
}

std::string Examples(std::string_view text) {
  const std::string lines = LongDesc(text);
  std::string out;
  for (std::string_view rest = lines; !rest.empty();) {
    const size_t end = rest.find('\n');
    if (end > 0) out += "  ";
    out += rest.substr(0, end + 1);
    rest.remove_prefix(end + 1);
  }
  return out;
}

}  // namespace tazuna::cli
