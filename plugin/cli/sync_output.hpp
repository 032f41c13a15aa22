#pragma once

#include <ostream>
#include <string>

#include "cli/context.hpp"
#include "state/sync_engine.hpp"

namespace tazuna::cli {

/// One line per object (`<manifest>  deployment.apps/web -n default configured`), failures with the
/// server's words on stderr; or a List for -o json|yaml.
void PrintSyncReport(Context& ctx, const state::SyncReport& report, const std::string& output,
                     const state::SyncOptions& options);
/// The summary line on stderr.
void PrintSyncSummary(std::ostream& err, const state::SyncReport& report, double seconds, uint64_t requests);

}  // namespace tazuna::cli
