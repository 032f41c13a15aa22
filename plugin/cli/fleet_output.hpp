#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/command.hpp"
#include "cli/fleet_options.hpp"
#include "cli/print/table.hpp"
#include "util/error.hpp"

namespace tazuna::cli {

/// What one context of a fleet run did.
struct ContextOutcome {
  enum class Status { kSkipped, kDone, kFailed };
  std::string context;
  Status status = Status::kSkipped;
  int code = 0;                        ///< the command's exit code when kDone (or kFailed without `error`)
  std::optional<util::Error> error;    ///< the error the run returned (kFailed)
  std::vector<print::Table> tables;    ///< table/wide: the tables its command printed
  std::vector<std::string> lines;      ///< table/wide: stdout lines outside tables (sync's result lines)
  nlohmann::json items = nlohmann::json::array();  ///< json/yaml: the items of its List
  std::string err_text;                ///< what it wrote to stderr (warnings, progress, summaries)
};

/// Rows `o` produced: table rows, else result lines when they are rows, else List items.
size_t RowCount(const ContextOutcome& o, const FleetWords& words);

/// The line saying what happened in one context: `prod-a: 3 changes`, `prod-b: unreachable: <message>`
/// (a transport error), `prod-c: error: <message>`, `prod-d: skipped (an earlier context failed)`.
std::string OutcomeLine(const ContextOutcome& o, const FleetWords& words);

/// One table: CONTEXT first, then the columns of the first table any context printed; each context's
/// rows in context order. With `lines_are_rows`, result lines become one-cell rows (no header names).
print::Table MergeTables(const std::vector<ContextOutcome>& outcomes, const FleetWords& words);

/// One List whose items are every context's items in context order, each with "context" set.
nlohmann::json MergeLists(const std::vector<ContextOutcome>& outcomes);

/// The fleet's exit code: the highest of its contexts' (a context that failed with an error: 2, or 3 when
/// part-way), and 3 when a rollout stopped at a failed context after others had run (some clusters changed).
int FleetExitCode(const std::vector<ContextOutcome>& outcomes, FleetMode mode);

/// Writes `text` to `err` with every line prefixed `context: `.
void PrefixLines(std::ostream& err, const std::string& context, const std::string& text);

}  // namespace tazuna::cli
