#include "manifest/tool.hpp"

#include "util/strings.hpp"

namespace tazuna::manifest {

std::vector<std::string> StderrLines(const std::string& err) {
  constexpr size_t kMaxLines = 40;
  std::vector<std::string> lines = util::Split(err, '\n');
  while (!lines.empty() && util::Trim(lines.back()).empty()) lines.pop_back();
  if (lines.size() > kMaxLines) lines.erase(lines.begin(), lines.end() - kMaxLines);
  for (std::string& line : lines) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
  }
  return lines;
}

util::Result<std::string> RunTool(const ToolCall& call, RenderContext& ctx) {
  util::ProcessRequest request;
  request.argv = call.argv;
  request.cwd = call.cwd;
  request.env = ctx.env.vars();
  for (const auto& [key, value] : call.env) request.env[key] = value;
  request.stdin_data = call.stdin_data;
  request.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(ctx.tool_timeout);
  const std::string command = util::Join(call.display_argv.empty() ? call.argv : call.display_argv, " ");
  ctx.log.Log(2, util::StrCat("running ", command));
  util::Result<util::ProcessResult> result = ctx.processes.Run(request);
  if (!result) {
    if (result.error().kind != util::ErrorKind::kToolMissing) return result.error();
    return util::MakeError(util::ErrorKind::kToolMissing,
                           util::StrCat(util::Quote(call.argv.front()), " not found on PATH"));
  }
  if (result->timed_out) {
    util::Error e = util::MakeError(util::ErrorKind::kInput, util::StrCat(command, " timed out after ",
                                                                          ctx.tool_timeout.count(), "s"));
    e.detail_lines = StderrLines(result->err);
    return e;
  }
  if (result->exit_code != 0) {
    util::Error e = util::MakeError(util::ErrorKind::kInput,
                                    util::StrCat(command, " failed (exit status ", result->exit_code, ")"));
    e.detail_lines = StderrLines(result->err);
    return e;
  }
  return std::move(result->out);
}

}  // namespace tazuna::manifest
