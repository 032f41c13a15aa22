#pragma once

#include <memory>
#include <ostream>
#include <string>

#include "cli/context.hpp"
#include "cli/print/printer.hpp"
#include "state/apply/sync_engine.hpp"

namespace tazuna::cli {

/// What a table line of a sync report says beyond the verb.
struct SyncLineStyle {
  bool prune = false;                          ///< kept rows then carry no "pass --prune" advice
  kube::DryRun dry_run = kube::DryRun::kNone;  ///< kAll: changed rows say "(server dry run)"
};

/// The printer of a sync report: one line per object (`<manifest>  deployment.apps/web -n default
/// configured`) for table, or a List for json|yaml.
std::unique_ptr<print::Printer<state::SyncReport>> NewSyncReportPrinter(print::Format format, SyncLineStyle style);
/// Whether the report has rows that need a person (exit 1): failed, conflict, kept or skipped objects, or a
/// refused prune.
bool NeedsAttention(const state::SyncReport& report);
/// Failed objects with the server's words, prune refusals and `state forget` hints, on `err`.
void PrintSyncProblems(std::ostream& err, const state::SyncReport& report);
/// The summary line on stderr: counts per verb, time, `(N API requests, N state writes)`, when the
/// server throttled `; N throttled (429), requests in flight adapted from C down to L`, and `; revision ID`
/// (or, not a dry run, `; nothing written` when the sync wrote nothing: the record is made at its first write).
void PrintSyncSummary(std::ostream& err, const state::SyncReport& report, double seconds, uint64_t requests,
                      bool dry_run);

}  // namespace tazuna::cli
