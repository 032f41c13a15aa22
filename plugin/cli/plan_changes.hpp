#pragma once

#include <string>

#include "cli/context.hpp"
#include "cli/options.hpp"
#include "state/plan/plan_file.hpp"

namespace tazuna::cli {

/// `state plan show --show-changes`: renders `file` (tazuna.yaml) with the plan's selection and, once the
/// connection reaches the cluster the plan is for (state::CheckPlanTarget, with the plan's own flags), shows
/// the changes of its added, modified, always-sync, missing and drifted rows as ShowChanges does, of the
/// objects that render exactly as planned (hash and digest). Each other row's object is named in a warning
/// on stderr ("the current render no longer matches the plan", "no longer rendered"). Errors: the file does
/// not load or render, the cluster cannot be reached or is not the plan's (kConflict "plan was made for ...").
util::Status ShowPlanChanges(Context& ctx, const ConnectionOptions& connection, const std::string& file,
                             const state::Plan& plan);

}  // namespace tazuna::cli
