#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cli/context.hpp"
#include "cli/flags.hpp"

namespace tazuna::cli {

/// How errors map to exit codes: kStandard 1; kDiff 2 (1 means "differences found", kubectl diff's rule).
enum class ExitStyle { kStandard, kDiff };

/// Exit codes.
enum ExitCode : int { kExitOk = 0, kExitError = 1, kExitDifferences = 1, kExitDiffError = 2 };

/// One command, kubectl style: flags and help are declared up front; `run` does
/// Complete -> Validate -> Run on the options the flags were bound to.
struct Command {
  std::string path;        ///< "state diff"
  std::string short_help;  ///< one line
  std::string long_help;   ///< paragraph(s)
  std::string examples;    ///< kubectl-style examples block
  ExitStyle exit_style = ExitStyle::kStandard;
  std::string args_usage;  ///< e.g. "KEY..."; empty: the command takes no positional arguments
  std::function<void(FlagSet&)> add_flags;
  /// Runs with the parsed flags (for FlagSet::Changed) and the positional arguments; returns the
  /// exit code, or an Error for ReportError.
  std::function<util::Result<int>(Context&, const FlagSet&, const std::vector<std::string>&)> run;
};

/// All commands, in help order.
std::vector<Command> AllCommands();

Command NewVersionCommand();
Command NewBuildCommand();
Command NewStateListCommand();
Command NewStateDiffCommand();
Command NewStateSyncCommand();
Command NewStateDriftCommand();
Command NewStateForgetCommand();

}  // namespace tazuna::cli
