#pragma once

#include <string>
#include <vector>

#include "cli/context.hpp"

namespace tazuna::cli {

/// Entry point: picks the command from `args` (argv without argv[0]), parses its flags, runs it,
/// and reports any error on ctx.err. Returns the process exit code.
int Main(Context& ctx, const std::vector<std::string>& args);

}  // namespace tazuna::cli
