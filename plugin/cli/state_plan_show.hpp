#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/print/printer.hpp"
#include "state/plan/plan_file.hpp"
#include "state/store/state_key.hpp"

namespace tazuna::cli {

/// One row of a plan as `state plan show` prints it.
struct PlanShowRow {
  state::PlanRow row;
  state::StateKey parsed;      ///< row.key parsed (empty when it does not parse)
  std::string namespace_name;  ///< the key's namespace, else the plan's context namespace for a kind not known cluster-scoped
};

/// What `state plan show` prints: the plan, and its rows.
struct PlanShowResult {
  state::Plan plan;
  std::vector<PlanShowRow> rows;
};

/// `kubectl tazuna state plan show PLAN` (and `state diff --plan PLAN`): flag values, then what Complete resolved.
struct StatePlanShowOptions {
  ConnectionOptions connection;
  std::string file = "tazuna.yaml";  ///< -f: what --show-changes renders
  std::string output = "table";
  bool no_headers = false;
  bool show_changes = false;
  // Completed:
  std::string plan_path;
  print::Format format = print::Format::kTable;
  std::unique_ptr<print::Printer<PlanShowResult>> printer;

  /// Takes the one PLAN argument and picks the printer from -o; kUsage error for a missing or extra
  /// argument or an unknown format.
  util::Status Complete(Context& ctx, const FlagSet& flags, const std::vector<std::string>& args);
  /// Flag combinations (none conflict today); no I/O.
  util::Status Validate() const;
  /// Reads the plan (no cluster needed) and prints its rows, and where it applies on stderr; with
  /// --show-changes renders tazuna.yaml as the plan selected and shows the changes of the rows whose objects
  /// still render as planned. 0 unless the plan cannot be read or the changes cannot be shown.
  util::Result<int> Run(Context& ctx);
};

/// Runs `state plan show` for `state diff --plan PLAN` with these options (Complete, Validate, Run).
util::Result<int> ShowPlan(Context& ctx, StatePlanShowOptions& options, const std::string& plan_path);

}  // namespace tazuna::cli
