#pragma once

#include <map>
#include <string>
#include <vector>

#include "manifest/render.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// One external tool call made by a renderer.
struct ToolCall {
  std::vector<std::string> argv;
  std::string cwd;         ///< empty: inherit
  std::string stdin_data;  ///< never logged (may hold secrets)
  std::vector<std::string> display_argv;  ///< shown in logs and errors instead of argv when non-empty
                                          ///< (argv may carry secret values)
  std::map<std::string, std::string> env = {};  ///< set in the tool's environment on top of ctx.env
};

/// Runs `call` through ctx.processes with ctx.env and ctx.tool_timeout and returns stdout.
/// kToolMissing `"<argv0>" not found on PATH`; a non-zero exit or timeout is kInput
/// `<argv joined> failed (exit status N)` with the tool's stderr lines in detail_lines.
util::Result<std::string> RunTool(const ToolCall& call, RenderContext& ctx);

/// `argv` as it may be logged or put in an error: the value of every helm `--set`, `--set-string`,
/// `--set-json`, `--set-literal` and `--set-file` argument, written `--set a=b` or `--set=a=b`, is shown
/// as `a=***` (one that names nothing as `***`). Other arguments are unchanged.
std::vector<std::string> RedactSetValues(const std::vector<std::string>& argv);

/// Splits tool stderr into detail lines (trailing blank lines dropped, at most the last 40 lines).
std::vector<std::string> StderrLines(const std::string& err);

}  // namespace tazuna::manifest
