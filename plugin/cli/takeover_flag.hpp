#pragma once

#include <string>

#include "cli/context.hpp"
#include "cli/flags.hpp"
#include "state/apply/field_takeover.hpp"

namespace tazuna::cli {

/// Adds `--takeover-managers` (state sync, diff, drift) writing into `value`.
void AddTakeoverFlag(FlagSet& flags, std::string& value);

/// The managers taken over: `flag` when given, else $TAZUNA_TAKEOVER_MANAGERS, else the default table
/// (state::kDefaultToolManagers). kUsage error naming the flag or the variable.
util::Result<state::TakeoverManagers> ResolveTakeoverManagers(const Context& ctx, const std::string& flag);

}  // namespace tazuna::cli
