#include "cli/main.hpp"

#include <algorithm>
#include <map>

#include "cli/command.hpp"
#include "cli/fleet.hpp"
#include "cli/help.hpp"
#include "cli/report_error.hpp"
#include "util/edit_distance.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

std::vector<Command> AllCommands() {
  return {NewStateListCommand(), NewStateDiffCommand(), NewStateSyncCommand(), NewStateDriftCommand(), NewStateStatusCommand(), NewStateExportCommand(),
          NewStateDeleteCommand(), NewStateForgetCommand(), NewStateTakeoverCommand(), NewStateHistoryCommand(), NewStatePlanShowCommand(), NewBuildCommand(),
          NewVersionCommand()};
}

namespace {

// Longest command path matching the leading words of args ("state diff" before "state").
const Command* FindCommand(const std::vector<Command>& commands, const std::vector<std::string>& args,
                           size_t* words) {
  const Command* best = nullptr;
  for (const auto& c : commands) {
    const auto parts = util::Split(c.path, ' ');
    if (parts.size() > args.size()) continue;
    if (!std::equal(parts.begin(), parts.end(), args.begin())) continue;
    if (best == nullptr || parts.size() > *words) {
      best = &c;
      *words = parts.size();
    }
  }
  return best;
}

bool WantsHelp(const std::vector<std::string>& args) {
  for (const auto& a : args) {
    if (a == "--") return false;
    if (a == "-h" || a == "--help") return true;
  }
  return false;
}

int RunCommand(Context& ctx, const Command& cmd, const std::vector<std::string>& rest) {
  FlagSet flags;
  cmd.add_flags(flags);
  if (WantsHelp(rest)) {
    ctx.out << CommandHelp(cmd, flags);
    return kExitOk;
  }
  auto positional = flags.Parse(rest);
  if (!positional) {
    util::Error e = positional.error();
    e.hint = "See 'kubectl tazuna " + cmd.path + " --help' for usage.";
    return ReportError(ctx.err, e);
  }
  if (!positional->empty() && !cmd.run_with_args) {
    auto e = util::MakeError(util::ErrorKind::kUsage, "unknown command \"" + positional->front() +
                                                          "\" for \"kubectl tazuna " + cmd.path + "\"");
    e.hint = "See 'kubectl tazuna " + cmd.path + " --help' for usage.";
    return ReportError(ctx.err, e);
  }
  util::Result<int> code = kExitOk;
  if (const auto fleet = cmd.fleet_request ? cmd.fleet_request() : FleetRequest{}; fleet.fleet.Requested()) {
    code = RunFleet(ctx, cmd, fleet, rest);
  } else if (flags.Changed("max-parallel")) {
    code = util::MakeError(util::ErrorKind::kUsage, "--max-parallel needs --contexts or --all-contexts");
  } else {
    code = cmd.run_with_args ? cmd.run_with_args(ctx, flags, *positional) : cmd.run(ctx, flags);
  }
  if (!code) return ReportError(ctx.err, code.error());
  return *code;
}

// The `state` commands a top-level word means: `sync` -> `state sync` (and near misses of a state command's
// name), and the words other tools use for them: apply, install, upgrade -> state sync; uninstall ->
// state delete; template, render -> build.
std::vector<std::string> StateFormsOf(const std::vector<Command>& commands, const std::string& typed) {
  static const std::map<std::string, std::string> kOtherTools = {
      {"apply", "state sync"}, {"install", "state sync"}, {"upgrade", "state sync"}, {"uninstall", "state delete"},
      {"template", "build"},   {"render", "build"},       {"plan", "state diff"}};
  std::vector<std::string> forms;
  const std::string word = util::ToLower(typed);
  if (const auto it = kOtherTools.find(word); it != kOtherTools.end()) forms.push_back(it->second);
  for (const auto& c : commands) {
    const auto parts = util::Split(c.path, ' ');
    if (parts.size() == 2 && parts[0] == "state" && util::EditDistance(word, parts[1]) <= 1) forms.push_back(c.path);
  }
  return forms;
}

// Cobra's answer to a word that names no command: its parent, "Did you mean this?" with the commands
// within an edit distance of 2 or starting with the word, and where to get usage; exit 2 (refused).
int UnknownCommand(Context& ctx, const std::vector<Command>& commands, const std::vector<std::string>& args) {
  const bool in_group = args[0] == "state" && args.size() > 1;
  const std::string& typed = in_group ? args[1] : args[0];
  const std::string parent = in_group ? "kubectl tazuna state" : "kubectl tazuna";
  std::vector<std::string> suggestions;
  for (const auto& c : commands) {
    const auto parts = util::Split(c.path, ' ');
    if (in_group && !(parts.size() == 2 && parts[0] == "state")) continue;
    const std::string& name = in_group ? parts[1] : parts[0];
    if (std::find(suggestions.begin(), suggestions.end(), name) != suggestions.end()) continue;
    if (util::EditDistance(typed, name) <= 2 || util::StartsWith(util::ToLower(name), util::ToLower(typed))) {
      suggestions.push_back(name);
    }
  }
  if (!in_group) {  // kubectl habits: `sync`, `diff`, `apply` live under `state`
    for (const auto& s : StateFormsOf(commands, typed)) {
      if (std::find(suggestions.begin(), suggestions.end(), s) == suggestions.end()) suggestions.push_back(s);
    }
  }
  ctx.err << "error: unknown command \"" << typed << "\" for \"" << parent << "\"\n";
  if (!suggestions.empty()) {
    ctx.err << "\nDid you mean this?\n";
    for (const auto& s : suggestions) ctx.err << "\t" << s << "\n";
    ctx.err << "\n";
  }
  ctx.err << "Run '" << parent << " --help' for usage.\n";
  return kExitRefused;
}

}  // namespace

int Main(Context& ctx, const std::vector<std::string>& args) {
  const auto commands = AllCommands();
  if (args.empty() || args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
    ctx.out << RootHelp(commands);
    return kExitOk;
  }
  size_t words = 0;
  const Command* cmd = FindCommand(commands, args, &words);
  if (cmd == nullptr) {
    if (args[0] == "state" && (args.size() == 1 || args[1].rfind('-', 0) == 0)) {
      ctx.out << GroupHelp(commands, "state");
      return kExitOk;
    }
    if (args.size() >= 2 && args[0] == "state" && args[1] == "plan" && (args.size() == 2 || args[2].rfind('-', 0) == 0)) {
      ctx.out << GroupHelp(commands, "state plan");
      return kExitOk;
    }
    return UnknownCommand(ctx, commands, args);
  }
  return RunCommand(ctx, *cmd, std::vector<std::string>(args.begin() + static_cast<long>(words), args.end()));
}

}  // namespace tazuna::cli
