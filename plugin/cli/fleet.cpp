#include "cli/fleet.hpp"

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>
#include <sstream>
#include <thread>

#include "cli/fleet_clusters.hpp"
#include "cli/fleet_contexts.hpp"
#include "cli/fleet_output.hpp"
#include "cli/fleet_plan.hpp"
#include "cli/print/list.hpp"
#include "cli/print/printer.hpp"
#include "cli/print/table.hpp"
#include "kube/rest_config.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

constexpr int kDefaultParallel = 4;

util::Error UsageError(const std::string& message) { return util::MakeError(util::ErrorKind::kUsage, message); }

util::Status ValidateRequest(const FleetRequest& r) {
  if (!r.refused.empty()) {
    auto e = UsageError(r.refused + " cannot be used with --contexts or --all-contexts: a plan pins one cluster");
    e.hint = "Make and apply plans one context at a time (--context NAME).";
    return e;
  }
  if (!r.kube.context.empty()) return UsageError("--context and --contexts/--all-contexts cannot be used together");
  if (!r.kube.server.empty()) {
    return UsageError("--server cannot be used with --contexts: each context names its server");
  }
  if (r.output == "name") {
    return UsageError("-o name cannot say which context an object is in: use -o json with --contexts");
  }
  if (r.fleet.max_parallel < 0) return UsageError("--max-parallel must be at least 1");
  return util::Ok();
}

// The command's own arguments for one context: --context first, and -o json (read back as a List) for
// json and yaml, put before a `--` so it stays a flag.
std::vector<std::string> ContextArgs(const std::vector<std::string>& args, const std::string& context,
                                     print::Format format) {
  std::vector<std::string> out = {"--context", context};
  auto end = std::find(args.begin(), args.end(), "--");
  out.insert(out.end(), args.begin(), end);
  if (format == print::Format::kJson || format == print::Format::kYaml) out.insert(out.end(), {"-o", "json"});
  out.insert(out.end(), end, args.end());
  return out;
}

Command FreshCommand(const std::string& path) {
  for (auto& c : AllCommands()) {
    if (c.path == path) return std::move(c);
  }
  return {};
}

// What the command printed: its List items (json/yaml), else its tables and other lines.
void TakeOutput(const print::TableCapture& out, print::Format format, ContextOutcome& o) {
  if (format == print::Format::kJson || format == print::Format::kYaml) {
    const auto list = nlohmann::json::parse(out.str(), nullptr, /*allow_exceptions=*/false);
    if (list.is_object() && list.contains("items") && list["items"].is_array()) o.items = list["items"];
    return;
  }
  o.tables = out.tables();
  for (auto& line : util::Split(out.str(), '\n')) {
    if (!line.empty()) o.lines.push_back(std::move(line));
  }
}

struct RunSpec {
  const Command& cmd;
  const std::vector<std::string>& args;
  print::Format format;
  const FleetPlanFiles* plans = nullptr;  ///< each context's --out/--plan file (plan_flag)
  std::string plan_flag;
};

// A fresh command (its own options) with its flags parsed for one context.
struct PreparedCommand {
  Command command;
  FlagSet flags;
  std::vector<std::string> positional;
};

util::Result<std::unique_ptr<PreparedCommand>> Prepare(const RunSpec& spec, const std::string& context) {
  auto p = std::make_unique<PreparedCommand>();
  p->command = FreshCommand(spec.cmd.path);
  p->command.add_flags(p->flags);
  const std::vector<std::string> args =
      spec.plans != nullptr ? WithFlagValue(spec.args, spec.plan_flag, spec.plans->FileOf(context)) : spec.args;
  auto positional = p->flags.Parse(ContextArgs(args, context, spec.format));
  if (!positional) return positional.error();
  p->positional = std::move(*positional);
  return p;
}

// The command's own Complete and Validate, once, on the first context's flags.
util::Status CheckOnce(Context& ctx, const RunSpec& spec, const std::string& context) {
  auto p = Prepare(spec, context);
  if (!p) return p.error();
  if (!(*p)->command.check) return util::Ok();
  std::istringstream in;
  std::ostringstream quiet;
  Context probe{in, quiet, quiet, ctx.env, ctx.clock, ctx.files, ctx.processes, ctx.make_transport};
  return (*p)->command.check(probe, (*p)->flags, (*p)->positional);
}

ContextOutcome RunOne(Context& parent, const RunSpec& spec, const std::string& context) {
  ContextOutcome o;
  o.context = context;
  o.status = ContextOutcome::Status::kFailed;
  auto p = Prepare(spec, context);
  if (!p) {
    o.error = p.error();
    return o;
  }
  const Command& c = (*p)->command;
  std::istringstream in;
  print::TableCapture out;
  std::ostringstream err;
  Context sub{in, out, err, parent.env, parent.clock, parent.files, parent.processes, parent.make_transport};
  sub.exec_pool = parent.exec_pool;
  auto code = c.run_with_args ? c.run_with_args(sub, (*p)->flags, (*p)->positional) : c.run(sub, (*p)->flags);
  o.err_text = err.str();
  TakeOutput(out, spec.format, o);  // a sync that failed in part still reports the rows it has
  if (!code) {
    o.error = code.error();
    return o;
  }
  o.code = *code;
  const bool failed = spec.cmd.exit_style == ExitStyle::kDiff ? o.code >= kExitRefused : o.code != kExitOk;
  if (!failed) o.status = ContextOutcome::Status::kDone;
  return o;
}

void Report(std::ostream& err, const ContextOutcome& o, const FleetWords& words) {
  PrefixLines(err, o.context, o.err_text);
  if (o.error) {
    for (const auto& line : o.error->detail_lines) err << o.context << ": " << line << '\n';
  }
  err << OutcomeLine(o, words) << '\n';
}

// Runs the contexts on up to `parallel` threads, each context's stderr and line reported as it ends;
// in a rollout no context starts once one has failed (those stay kSkipped).
std::vector<ContextOutcome> RunAll(Context& ctx, const RunSpec& spec, const FleetRequest& r,
                                   const std::vector<std::string>& contexts) {
  std::vector<ContextOutcome> outcomes(contexts.size());
  for (size_t i = 0; i < contexts.size(); ++i) outcomes[i].context = contexts[i];
  const int fallback = r.mode == FleetMode::kRollout ? 1 : kDefaultParallel;
  const size_t parallel = std::min<size_t>(contexts.size(), r.fleet.max_parallel > 0 ? r.fleet.max_parallel : fallback);
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::mutex report_mu;
  auto worker = [&] {
    for (size_t i = next++; i < contexts.size(); i = next++) {
      if (stop) continue;
      ContextOutcome o = RunOne(ctx, spec, contexts[i]);
      if (r.mode == FleetMode::kRollout && o.status == ContextOutcome::Status::kFailed) stop = true;
      std::lock_guard<std::mutex> lock(report_mu);
      Report(ctx.err, o, r.words);
      outcomes[i] = std::move(o);
    }
  };
  std::vector<std::thread> threads;
  for (size_t t = 0; t < parallel; ++t) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  for (const auto& o : outcomes) {
    if (o.status == ContextOutcome::Status::kSkipped) ctx.err << OutcomeLine(o, r.words) << '\n';
  }
  return outcomes;
}

void PrintMerged(Context& ctx, const FleetRequest& r, print::Format format, const std::vector<ContextOutcome>& all) {
  if (format == print::Format::kJson || format == print::Format::kYaml) {
    print::PrintObject(ctx.out, MergeLists(all), format == print::Format::kYaml ? "yaml" : "json");
    return;
  }
  const print::Table merged = MergeTables(all, r.words);
  if (merged.rows.empty()) {
    if (!r.empty_message.empty()) ctx.out << r.empty_message << '\n';
    return;
  }
  const bool named_columns = !(merged.headers.size() == 2 && merged.headers[1].empty());
  print::PrintTable(ctx.out, merged, !r.no_headers && named_columns);
}

// The contexts' own plan files of a --out or --plan over the fleet; null without one.
util::Result<std::unique_ptr<FleetPlanFiles>> PlanFiles(Context& ctx, const FleetRequest& r,
                                                        const std::vector<std::string>& contexts) {
  if (r.plan_flag == "--plan") return FleetPlanFiles::Split(ctx.files, r.plan_path, contexts);
  if (r.plan_flag == "--out") return FleetPlanFiles::Make(contexts);
  return std::unique_ptr<FleetPlanFiles>();
}

}  // namespace

util::Result<int> RunFleet(Context& ctx, const Command& cmd, const FleetRequest& request,
                           const std::vector<std::string>& args) {
  if (auto st = ValidateRequest(request); !st) return st.error();
  auto format = print::ParseFormat(request.output, {"table", "wide", "json", "yaml"});
  if (!format) return format.error();
  const auto known = kube::ListContextNames(request.kube, ctx.env, ctx.files);
  auto contexts = SelectContexts({request.fleet.contexts, request.fleet.all_contexts}, known);
  if (!contexts) return contexts.error();
  auto plans = PlanFiles(ctx, request, *contexts);
  if (!plans) return plans.error();
  const RunSpec spec{cmd, args, *format, plans->get(), request.plan_flag};
  if (auto st = CheckOnce(ctx, spec, contexts->front()); !st) return st.error();
  // Contexts that share a user share its exec credential plugin's run (once per user, not per context).
  kube::ExecProviderPool exec_pool(ctx.processes, ctx.clock, ctx.env);
  Context shared{ctx.in, ctx.out, ctx.err, ctx.env, ctx.clock, ctx.files, ctx.processes, ctx.make_transport};
  shared.exec_pool = &exec_pool;
  if (request.mode == FleetMode::kRollout) {
    if (auto st = CheckDistinctClusters(shared, request.kube, *contexts, request.fleet.skip_cluster_identity); !st) return st.error();
  }
  const auto outcomes = RunAll(shared, spec, request, *contexts);
  PrintMerged(ctx, request, *format, outcomes);
  if (request.plan_flag == "--out") {  // written only when every context made its part
    const bool all_done = std::all_of(outcomes.begin(), outcomes.end(), [](const ContextOutcome& o) {
      return o.status == ContextOutcome::Status::kDone;
    });
    if (!all_done) {
      return util::MakeError(util::ErrorKind::kInput, "plan " + request.plan_path + " not written: a context failed");
    }
    if (auto st = (*plans)->Join(ctx.files, *contexts, request.plan_path); !st) return st.error();
  }
  return FleetExitCode(outcomes, request.mode);
}

}  // namespace tazuna::cli
