#include "cli/sync_output.hpp"

#include <algorithm>
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

// Conflict rows (objects another manifest or repository owns, not applied): one error line per manifest
// and the ways to take them.
void PrintConflicts(std::ostream& err, const state::SyncReport& report) {
  std::map<std::string, std::vector<const state::SyncResult*>> by_manifest;
  for (const auto& r : report.results) {
    if (r.verb == Verb::kConflict) by_manifest[r.manifest].push_back(&r);
  }
  for (const auto& [manifest, rows] : by_manifest) {
    const state::StateKey k = rows.front()->Parsed();
    err << "error: manifest \"" << manifest << "\": " << rows.size() << (rows.size() == 1 ? " object is" : " objects are")
        << " not applied: " << ObjectName(k.group, k.kind, k.name)
        << (rows.front()->namespace_name.empty() ? "" : " -n " + rows.front()->namespace_name) << ": "
        << rows.front()->note << '\n';
  }
  if (!by_manifest.empty()) {
    err << "hint: to apply them and move them to this manifest: kubectl tazuna state sync --take-ownership; to manage "
           "another repository's whole state from here: kubectl tazuna state takeover -m NAME\n";
  }
}

// The row's hash: one this run computed (applied or unchanged), or one read from the state (kept,
// deleted, failed...), which for a Secret is not shown (state::ShownHash).
std::string RowHash(const state::SyncResult& r, const state::StateKey& k) {
  const bool computed = r.verb == Verb::kCreated || r.verb == Verb::kConfigured || r.verb == Verb::kAdopted ||
                        r.verb == Verb::kUnchanged;
  return computed ? r.hash : state::ShownHash(k, r.hash);
}

std::map<Verb, int> CountVerbs(const state::SyncReport& report) {
  std::map<Verb, int> counts;
  for (const auto& r : report.results) ++counts[r.verb];
  return counts;
}

// `-o json|yaml`'s summary: the rows per verb, the revision, whether anything was written.
nlohmann::json SyncSummary(const state::SyncReport& report, const SyncLineStyle& style) {
  const auto counts = CountVerbs(report);
  nlohmann::json verbs = nlohmann::json::object();
  for (const Verb v : {Verb::kCreated, Verb::kConfigured, Verb::kAdopted, Verb::kUnchanged, Verb::kDeleted, Verb::kKept,
                       Verb::kConflict, Verb::kSkipped, Verb::kFailed}) {
    const auto it = counts.find(v);
    verbs[state::VerbName(v)] = it == counts.end() ? 0 : it->second;
  }
  const bool dry = style.dry_run != kube::DryRun::kNone;
  return {{"counts", std::move(verbs)},
          {"revision", report.revision.empty() ? nlohmann::json(nullptr) : nlohmann::json(report.revision)},
          {"written", !dry && (report.state_writes > 0 || !report.revision.empty())},
          {"dryRun", dry},
          {"stateWrites", report.state_writes},
          {"needsAttention", NeedsAttention(report)}};
}

nlohmann::json SyncReportList(const state::SyncReport& report, const SyncLineStyle& style) {
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
  nlohmann::json list = print::ListOf(std::move(items));
  list["summary"] = SyncSummary(report, style);
  return list;
}

}  // namespace

std::unique_ptr<print::Printer<state::SyncReport>> NewSyncReportPrinter(print::Format format, SyncLineStyle style) {
  print::Renderers<state::SyncReport> renderers;
  renderers.machine = [style](const state::SyncReport& report) { return SyncReportList(report, style); };
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

bool NeedsAttention(const state::SyncReport& report) {
  if (report.failed > 0 || report.refused > 0) return true;
  return std::any_of(report.results.begin(), report.results.end(), [](const state::SyncResult& r) {
    return r.verb == Verb::kFailed || r.verb == Verb::kConflict || r.verb == Verb::kKept || r.verb == Verb::kSkipped;
  });
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
  PrintConflicts(err, report);
}

void PrintSyncSummary(std::ostream& err, const state::SyncReport& report, double seconds, uint64_t requests,
                      bool dry_run) {
  auto counts = CountVerbs(report);
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
  if (!report.revision.empty()) {
    err << "; revision " << report.revision;
  } else if (report.state_writes == 0 && !dry_run) {
    err << "; nothing written";
  }
  err << '\n';
}

}  // namespace tazuna::cli
