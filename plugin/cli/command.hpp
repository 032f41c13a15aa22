#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "cli/context.hpp"
#include "cli/flags.hpp"
#include "cli/fleet_options.hpp"

namespace tazuna::cli {

/// What exit code 1 means: kStandard, rows that need a person (a failed, conflicting or kept object);
/// kDiff, differences found (kubectl diff's rule). A fleet run stops a rollout at a kStandard 1.
enum class ExitStyle { kStandard, kDiff };

/// The exit-code contract of every command (README "Exit codes"), kubectl diff's rule extended: 0 done
/// (or no differences); 1 differences, or rows that need a person; 2 refused before any write (bad input,
/// unreachable, forbidden, lock timeout, stale plan: nothing changed, fix and run again); 3 stopped
/// part-way (an error after the first write: look at the rows and state history before anything else).
enum ExitCode : int { kExitOk = 0, kExitDifferences = 1, kExitAttention = 1, kExitRefused = 2, kExitPartWay = 3 };

/// One command, kubectl style: flags and help are declared up front; `run` does
/// Complete -> Validate -> Run on the options the flags were bound to.
struct Command {
  std::string path;        ///< "state diff"
  std::string short_help;  ///< one line
  std::string long_help;   ///< paragraph(s)
  std::string examples;    ///< kubectl-style examples block
  ExitStyle exit_style = ExitStyle::kStandard;
  std::string exit_one;    ///< what exit 1 means ("differences found"); empty: the command never exits 1
  bool writes = false;     ///< changes the cluster or the state: an error after its first write exits 3
  std::string args_usage;  ///< e.g. "KEY..."; empty: the command takes no positional arguments
  std::function<void(FlagSet&)> add_flags;
  /// Runs with the parsed flags (for FlagSet::Changed); returns the exit code, or an Error for
  /// ReportError. Set by commands that take no positional arguments (Main rejects any).
  std::function<util::Result<int>(Context&, const FlagSet&)> run;
  /// Set instead of `run` by the commands with an `args_usage`: also gets the positional arguments.
  std::function<util::Result<int>(Context&, const FlagSet&, const std::vector<std::string>&)> run_with_args;
  /// Set by the commands that run over a fleet (--contexts): what the parsed flags ask of the fleet
  /// runner. Main hands the run to RunFleet when the request names contexts.
  std::function<FleetRequest()> fleet_request;
  /// Complete and Validate without Run (set with fleet_request): a fleet run checks its flags once,
  /// before any context runs, instead of failing the same way in every context.
  std::function<util::Status(Context&, const FlagSet&, const std::vector<std::string>&)> check;
};

/// A command with its name ("state diff"), one-line help and paragraph(s); the rest is set field by field.
Command Describe(std::string path, std::string short_help, std::string long_help);

/// kubectl's templates.LongDesc: the text of a raw string literal written indented in the code, without its
/// first and last (blank) lines and their common indentation, ending in one newline.
std::string LongDesc(std::string_view text);

/// kubectl's templates.Examples: LongDesc with each line that is not empty indented by two spaces.
std::string Examples(std::string_view text);

/// kubectl's `CheckErr(o.Complete(...)); CheckErr(o.Validate()); CheckErr(o.Run())`: `Options` has
/// `util::Status Complete(Context&, const FlagSet&)`, `util::Status Validate() const` (no I/O) and
/// `util::Result<int> Run(Context&)`; the first error ends the run.
template <class Options>
util::Result<int> CompleteValidateRun(Options& o, Context& ctx, const FlagSet& flags) {
  if (auto st = o.Complete(ctx, flags); !st) return st.error();
  if (auto st = o.Validate(); !st) return st.error();
  return o.Run(ctx);
}

/// CompleteValidateRun for commands with positional arguments: `Complete(Context&, const FlagSet&,
/// const std::vector<std::string>&)`.
template <class Options>
util::Result<int> CompleteValidateRun(Options& o, Context& ctx, const FlagSet& flags,
                                      const std::vector<std::string>& args) {
  if (auto st = o.Complete(ctx, flags, args); !st) return st.error();
  if (auto st = o.Validate(); !st) return st.error();
  return o.Run(ctx);
}

/// The `run` of a command whose options `o` (shared with its flag bindings) follow CompleteValidateRun.
template <class Options>
std::function<util::Result<int>(Context&, const FlagSet&)> RunOptions(std::shared_ptr<Options> o) {
  return [o](Context& ctx, const FlagSet& flags) { return CompleteValidateRun(*o, ctx, flags); };
}

/// The `run_with_args` of a command whose options `o` follow CompleteValidateRun with arguments.
template <class Options>
std::function<util::Result<int>(Context&, const FlagSet&, const std::vector<std::string>&)> RunOptionsWithArgs(
    std::shared_ptr<Options> o) {
  return [o](Context& ctx, const FlagSet& flags, const std::vector<std::string>& args) {
    return CompleteValidateRun(*o, ctx, flags, args);
  };
}

/// The `check` of a command whose options `o` follow CompleteValidateRun (with or without arguments).
template <class Options>
std::function<util::Status(Context&, const FlagSet&, const std::vector<std::string>&)> CheckOptions(
    std::shared_ptr<Options> o) {
  return [o](Context& ctx, const FlagSet& flags, const std::vector<std::string>& args) -> util::Status {
    util::Status st = util::Ok();
    if constexpr (requires { o->Complete(ctx, flags, args); }) {
      st = o->Complete(ctx, flags, args);
    } else {
      st = o->Complete(ctx, flags);
    }
    if (!st) return st;
    return o->Validate();
  };
}

/// `c` made a command that can run over a fleet (--contexts): `check` and `run` (or `run_with_args`, for
/// options whose Complete takes the positional arguments) follow CompleteValidateRun on `o`; `request` says
/// what the parsed flags ask of the fleet runner.
template <class Options>
Command RunsOverFleet(Command c, std::shared_ptr<Options> o, std::function<FleetRequest()> request) {
  c.fleet_request = std::move(request);
  c.check = CheckOptions(o);
  if constexpr (requires(Context& ctx, const FlagSet& f, const std::vector<std::string>& a) { o->Complete(ctx, f, a); }) {
    c.run_with_args = RunOptionsWithArgs(o);
  } else {
    c.run = RunOptions(o);
  }
  return c;
}

/// All commands, in help order.
std::vector<Command> AllCommands();

Command NewVersionCommand();
Command NewBuildCommand();
Command NewStateListCommand();
Command NewStateDiffCommand();
Command NewStatePlanShowCommand();
Command NewStateSyncCommand();
Command NewStateDriftCommand();
Command NewStateStatusCommand();
Command NewStateExportCommand();
Command NewStateDeleteCommand();
Command NewStateForgetCommand();
Command NewStateTakeoverCommand();
Command NewStateHistoryCommand();

}  // namespace tazuna::cli
