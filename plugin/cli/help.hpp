#pragma once

#include <string>
#include <vector>

#include "cli/command.hpp"

namespace tazuna::cli {

/// `kubectl tazuna --help`: what the plugin does and its commands.
std::string RootHelp(const std::vector<Command>& commands);
/// Help for a command group such as `state`.
std::string GroupHelp(const std::vector<Command>& commands, const std::string& group);
/// kubectl-style help for one command: description, Examples, Options, Usage.
std::string CommandHelp(const Command& cmd, const FlagSet& flags);

}  // namespace tazuna::cli
