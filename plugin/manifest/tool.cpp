#include "manifest/tool.hpp"

#include <algorithm>
#include <functional>
#include <string_view>

#include "util/secret_mask.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

constexpr std::string_view kSetFlags[] = {"--set", "--set-string", "--set-json", "--set-literal", "--set-file"};
constexpr size_t kMinScrubbed = 3;  // as util::SecretValues: shorter values would garble any text

bool IsSetFlag(std::string_view arg) {
  return std::find(std::begin(kSetFlags), std::end(kSetFlags), arg) != std::end(kSetFlags);
}

// Calls `visit(i, at)` for each argument argv[i] whose text from `at` on is a `--set`-style `name=value`.
void ForEachSetArgument(const std::vector<std::string>& argv, const std::function<void(size_t, size_t)>& visit) {
  bool value_next = false;
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& arg = argv[i];
    const size_t eq = arg.find('=');
    if (value_next) {
      visit(i, 0);
    } else if (eq != std::string::npos && IsSetFlag(std::string_view(arg).substr(0, eq))) {
      visit(i, eq + 1);
    }
    value_next = !value_next && IsSetFlag(arg);
  }
}

// The values given to --set-style arguments (with and without helmfile's escapes), to scrub from what the
// tool prints: helm quotes a value it cannot parse.
std::vector<std::string> SetValues(const std::vector<std::string>& argv) {
  std::vector<std::string> values;
  ForEachSetArgument(argv, [&](size_t i, size_t at) {
    const size_t eq = argv[i].find('=', at);
    const std::string value = argv[i].substr(eq == std::string::npos ? at : eq + 1);
    std::string unescaped = value;
    unescaped.erase(std::remove(unescaped.begin(), unescaped.end(), '\\'), unescaped.end());
    for (const std::string& v : {value, unescaped}) {
      if (v.size() >= kMinScrubbed) values.push_back(v);
    }
  });
  return values;
}

}  // namespace

std::vector<std::string> RedactSetValues(const std::vector<std::string>& argv) {
  std::vector<std::string> out = argv;
  ForEachSetArgument(argv, [&](size_t i, size_t at) {
    const size_t eq = argv[i].find('=', at);
    out[i] = util::StrCat(argv[i].substr(0, eq == std::string::npos ? at : eq + 1), util::kSecretMask);
  });
  return out;
}

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
  const std::vector<std::string>& shown = call.display_argv.empty() ? call.argv : call.display_argv;
  const std::string command = util::Join(RedactSetValues(shown), " ");
  const std::vector<std::string> set_values = SetValues(call.argv);
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
    e.detail_lines = StderrLines(util::ScrubValues(result->err, set_values));
    return e;
  }
  if (result->exit_code != 0) {
    util::Error e = util::MakeError(util::ErrorKind::kInput,
                                    util::StrCat(command, " failed (exit status ", result->exit_code, ")"));
    e.detail_lines = StderrLines(util::ScrubValues(result->err, set_values));
    return e;
  }
  return std::move(result->out);
}

}  // namespace tazuna::manifest
