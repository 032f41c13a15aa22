#include "cli/sync_output.hpp"

#include <map>

#include "cli/pipeline.hpp"
#include "cli/report_error.hpp"
#include "state/store/secret_key.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

using state::Verb;

namespace {

// Per-object failure text: the line already starts with "error: ", so drop a second one.
std::string ObjectErrorText(const util::Error& e) {
  std::string text = ErrorText(e);
  return text.rfind("error: ", 0) == 0 ? text.substr(7) : text;
}

std::string VerbText(const state::SyncResult& r, const SyncLineStyle& o) {
  std::string verb = state::VerbName(r.verb);
  if (!r.note.empty()) {
    verb += " (" + r.note + ")";
  } else if (r.verb == Verb::kKept && !o.prune) {
    verb += " (pass --prune or TAZUNA_STATE_SYNC_DELETE=true to delete)";
  }
  if (o.dry_run == kube::DryRun::kAll && !state::IsFailure(r.verb) && r.verb != Verb::kUnchanged) {
    verb += " (server dry run)";
  }
  return verb;
}

// `text` in single quotes for a POSIX shell (a quote inside becomes '\'').
std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Kept rows that stay in state until the user acts: prune refusals that fail the run, and objects tazuna
// does not manage (`state forget` drops the entry without touching the cluster).
void PrintKeptHints(std::ostream& err, const state::SyncReport& report) {
  std::map<std::string, int> refused;
  for (const auto& r : report.results) {
    if (r.refused) ++refused[r.manifest];
  }
  for (const auto& [manifest, n] : refused) {
    err << "error: manifest \"" << manifest << "\": " << n << " removed object" << (n == 1 ? " was" : "s were")
        << " not pruned (see the kept rows)\n";
  }
  for (const auto& r : report.results) {
    if (!r.forgettable) continue;
    const state::StateKey k = r.Parsed();
    const std::string forget = "kubectl tazuna state forget " + ShellQuote(r.key);
    if (r.verb == Verb::kFailed) {
      err << "hint: that state entry names no object a request can reach; to drop it: " << forget << '\n';
    } else {
      err << "hint: " << ObjectName(k.group, k.kind, k.name) << (r.namespace_name.empty() ? "" : " -n " + r.namespace_name)
          << " is not managed by tazuna; to stop tracking it: " << forget << '\n';
    }
  }
}

// The row's hash: one this run computed (applied or unchanged), or one read from the state (kept,
// deleted, failed...), which for a Secret is not shown (state::ShownHash).
std::string RowHash(const state::SyncResult& r, const state::StateKey& k) {
  const bool computed = r.verb == Verb::kCreated || r.verb == Verb::kConfigured || r.verb == Verb::kAdopted ||
                        r.verb == Verb::kUnchanged;
  return computed ? r.hash : state::ShownHash(k, r.hash);
}

nlohmann::json SyncReportList(const state::SyncReport& report) {
  std::vector<nlohmann::json> items;
  for (const auto& r : report.results) {
    const state::StateKey k = r.Parsed();
    nlohmann::json j = {{"manifest", r.manifest}, {"key", r.key}, {"apiVersion", k.ApiVersion()},
                        {"kind", k.kind}, {"namespace", r.namespace_name},
                        {"name", k.name}, {"hash", RowHash(r, k)}, {"result", state::VerbName(r.verb)}};
    if (r.verb == Verb::kFailed) j["error"] = ObjectErrorText(r.Error());
    if (!r.note.empty()) j["reason"] = r.note;
    if (r.repair != state::Repair::kNone) j["repair"] = state::RepairName(r.repair);
    items.push_back(std::move(j));
  }
  return print::ListOf(std::move(items));
}

}  // namespace

std::unique_ptr<print::Printer<state::SyncReport>> NewSyncReportPrinter(print::Format format, SyncLineStyle style) {
  print::Renderers<state::SyncReport> renderers;
  renderers.machine = SyncReportList;
  renderers.human = [style](const state::SyncReport& report, print::Format, std::ostream& out) {
    for (const auto& r : report.results) {
      const state::StateKey k = r.Parsed();
      std::string line = r.manifest + "  " + ObjectName(k.group, k.kind, k.name);
      if (!r.namespace_name.empty()) line += " -n " + r.namespace_name;
      out << line << ' ' << VerbText(r, style) << '\n';
    }
  };
  // As `kubectl apply -o name`: only the names, one per row whatever its result (the summary says it).
  renderers.names = [](const state::SyncReport& report) {
    std::vector<print::ObjectRef> refs;
    for (const auto& r : report.results) {
      const state::StateKey k = r.Parsed();
      refs.push_back({k.group, k.kind, k.kind.empty() ? r.key : k.name});
    }
    return refs;
  };
  return print::NewPrinter(format, std::move(renderers));
}

void PrintSyncProblems(std::ostream& err, const state::SyncReport& report) {
  for (const auto& r : report.results) {
    if (r.verb != Verb::kFailed) continue;
    const state::StateKey k = r.Parsed();
    err << "error: manifest \"" << r.manifest << "\": " << ObjectName(k.group, k.kind, k.name)
        << (r.namespace_name.empty() ? "" : " -n " + r.namespace_name) << ": " << ObjectErrorText(r.Error()) << '\n';
    for (const auto& line : r.Error().detail_lines) err << line << '\n';
  }
  PrintKeptHints(err, report);
}

void PrintSyncSummary(std::ostream& err, const state::SyncReport& report, double seconds, uint64_t requests) {
  std::map<Verb, int> counts;
  for (const auto& r : report.results) ++counts[r.verb];
  char elapsed[32];
  std::snprintf(elapsed, sizeof elapsed, "%.2fs", seconds);
  err << "sync: " << counts[Verb::kCreated] << " created, " << counts[Verb::kConfigured] << " configured, "
      << (counts[Verb::kAdopted] > 0 ? std::to_string(counts[Verb::kAdopted]) + " adopted, " : "")
      << counts[Verb::kUnchanged] << " unchanged, " << counts[Verb::kDeleted] << " deleted, " << counts[Verb::kKept]
      << " kept, " << (counts[Verb::kSkipped] > 0 ? std::to_string(counts[Verb::kSkipped]) + " skipped, " : "")
      << (counts[Verb::kConflict] > 0 ? std::to_string(counts[Verb::kConflict]) + " conflicts, " : "")
      << counts[Verb::kFailed] << " failed in " << elapsed << " (" << requests << " API requests, "
      << report.state_writes << " state writes)";
  if (report.throttled > 0) {
    err << "; " << report.throttled << " throttled (429), requests in flight adapted from " << report.concurrency
        << " down to " << report.concurrency_low;
  }
  err << '\n';
}

}  // namespace tazuna::cli
