// kubectl tazuna state plan show PLAN [-o table|wide|json|yaml|name] [--show-changes [-f FILE]]
#include "cli/state_plan_show.hpp"

#include "cli/plan_changes.hpp"
#include "cli/print/table.hpp"
#include "state/apply/ownership.hpp"
#include "state/store/identity.hpp"
#include "state/store/secret_key.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

using util::StrCat;

state::LiveOwner OwnerOf(const state::PlanLive& l) {
  state::LiveOwner o;
  o.uid = l.uid;
  o.manifest = l.manifest;
  o.origin = l.origin;
  o.tazuna_manager = l.tazuna_manager;
  o.managers = l.managers;
  return o;
}

std::vector<PlanShowRow> RowsOf(const state::Plan& plan) {
  // No discovery offline: the built-in table of cluster-scoped kinds says which keys without a namespace are
  // in the context's (a custom cluster-scoped kind is shown there too).
  state::IdentityResolver ids(nullptr, plan.target.context_namespace);
  std::vector<PlanShowRow> rows;
  for (const auto& r : plan.changes) {
    PlanShowRow row{r, {}, ""};
    if (auto parsed = state::ParseStateKey(r.key)) {
      row.parsed = *parsed;
      row.namespace_name = ids.Resolve(*parsed).namespace_name;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::json RowJson(const PlanShowRow& r) {
  const state::PlanLive& l = r.row.live;
  nlohmann::json live = {{"exists", l.exists}, {"uid", l.uid}, {"manifest", l.manifest}, {"origin", l.origin},
                         {"tazunaManager", l.tazuna_manager}, {"managers", l.managers}};
  nlohmann::json j = {{"manifest", r.row.manifest},     {"change", r.row.change},
                      {"key", r.row.key},               {"apiVersion", r.parsed.ApiVersion()},
                      {"kind", r.parsed.kind},          {"namespace", r.namespace_name},
                      {"name", r.parsed.name},          {"oldHash", state::ShownHash(r.row.key, r.row.old_hash)},
                      {"newHash", r.row.new_hash},      {"live", std::move(live)}};
  if (!r.row.old_key.empty()) j["oldKey"] = r.row.old_key;
  return j;
}

void PrintRows(const PlanShowResult& r, print::Format format, bool no_headers, std::ostream& out) {
  if (r.rows.empty()) {
    out << "No changes detected.\n";
    return;
  }
  const bool wide = format == print::Format::kWide;
  print::Table t;
  t.headers = {"MANIFEST", "CHANGE", "APIVERSION", "KIND", "NAMESPACE", "NAME"};
  if (wide) t.headers.insert(t.headers.end(), {"OLD-HASH", "NEW-HASH", "UID", "OWNER"});
  for (const auto& row : r.rows) {
    const state::PlanRow& p = row.row;
    std::vector<std::string> cells = {p.manifest, p.change, row.parsed.ApiVersion(), row.parsed.kind, row.namespace_name,
                                      row.parsed.kind.empty() ? p.key : row.parsed.name};
    if (wide) {
      cells.insert(cells.end(), {state::ShownHash(p.key, p.old_hash).substr(0, 12), p.new_hash.substr(0, 12),
                                 p.live.uid, p.live.exists ? state::DescribeOwner(OwnerOf(p.live)) : ""});
    }
    t.rows.push_back(std::move(cells));
  }
  print::PrintTable(out, t, !no_headers);
}

std::string FlagsOf(const state::PlanTarget& t) {
  std::vector<std::string> flags;
  if (t.prune) flags.push_back("--prune");
  if (t.allow_empty) flags.push_back("--allow-empty");
  if (t.take_ownership) flags.push_back("--take-ownership");
  if (!t.repair.empty() && t.repair != "all") flags.push_back("--repair=" + t.repair);
  return flags.empty() ? "none" : util::Join(flags, " ");
}

std::string SelectionOf(const state::RevisionSelection& s) {
  std::vector<std::string> parts;
  if (!s.environment.empty()) parts.push_back("-e " + s.environment);
  if (!s.tags.empty()) parts.push_back("-t " + util::Join(s.tags, ","));
  for (const auto& m : s.manifests) parts.push_back("-m " + m);
  return parts.empty() ? "every manifest" : util::Join(parts, " ");
}

std::string OrNone(const std::string& s) { return s.empty() ? "(none)" : s; }

// Where and how the plan applies, on stderr (stdout keeps the rows): the server, context namespace, sync flags
// and selection; -o wide adds the cluster identity, CA, repository and take-over managers it pins.
void PrintTarget(const state::Plan& plan, print::Format format, std::ostream& err) {
  const state::PlanTarget& t = plan.target;
  err << "Plan made " << plan.created_at << " for server " << t.server << ", context namespace "
      << OrNone(t.context_namespace) << "; sync flags: " << FlagsOf(t) << "; selection: " << SelectionOf(plan.selection)
      << "; " << plan.changes.size() << (plan.changes.size() == 1 ? " change" : " changes") << ".\n";
  if (format != print::Format::kWide) return;
  err << "Pinned cluster: kube-system uid " << OrNone(t.cluster_uid) << ", kube-root-ca.crt uid "
      << OrNone(t.cluster_root_ca_uid) << "; CA " << OrNone(t.ca_digest) << "; repository " << OrNone(t.origin)
      << "; takeover managers " << OrNone(util::Join(t.takeover_managers, ",")) << ".\n";
}

}  // namespace

util::Status StatePlanShowOptions::Complete(Context&, const FlagSet&, const std::vector<std::string>& args) {
  if (args.size() != 1) {
    return util::MakeError(util::ErrorKind::kUsage,
                           args.empty() ? "a plan file is required: kubectl tazuna state plan show PLAN"
                                        : StrCat("one plan file, not ", args.size(), " arguments"));
  }
  plan_path = args.front();
  auto parsed = print::ParseFormat(output, {"table", "wide", "json", "yaml", "name"});
  if (!parsed) return parsed.error();
  format = *parsed;
  print::Renderers<PlanShowResult> renderers;
  renderers.machine = [](const PlanShowResult& r) {
    std::vector<nlohmann::json> items;
    for (const auto& row : r.rows) items.push_back(RowJson(row));
    return print::ListOf(std::move(items));
  };
  renderers.human = [no_headers = no_headers](const PlanShowResult& r, print::Format f, std::ostream& out) {
    PrintRows(r, f, no_headers, out);
  };
  renderers.names = [](const PlanShowResult& r) {
    std::vector<print::ObjectRef> refs;
    for (const auto& row : r.rows) refs.push_back({row.parsed.group, row.parsed.kind, row.parsed.name});
    return refs;
  };
  printer = print::NewPrinter(format, std::move(renderers));
  return util::Ok();
}

util::Status StatePlanShowOptions::Validate() const { return util::Ok(); }

util::Result<int> StatePlanShowOptions::Run(Context& ctx) {
  auto text = ctx.files.ReadFile(plan_path);
  if (!text) return text.error().WithContext("read plan " + plan_path);
  auto plan = state::DecodePlan(*text);
  if (!plan) return plan.error().WithContext(plan_path);
  PlanShowResult result{std::move(*plan), {}};
  result.rows = RowsOf(result.plan);
  printer->Print(result, ctx.out);
  if (format == print::Format::kTable || format == print::Format::kWide) PrintTarget(result.plan, format, ctx.err);
  if (show_changes && !result.rows.empty()) {
    if (auto st = ShowPlanChanges(ctx, connection, file, result.plan); !st) return st.error();
  }
  return kExitOk;
}

util::Result<int> ShowPlan(Context& ctx, StatePlanShowOptions& options, const std::string& plan_path) {
  return CompleteValidateRun(options, ctx, FlagSet{}, {plan_path});
}

Command NewStatePlanShowCommand() {
  auto o = std::make_shared<StatePlanShowOptions>();
  Command c = Describe("state plan show", "Show the changes a plan made by state diff --out would apply", LongDesc(R"(
      Print the rows of a plan written by state diff --out, as state diff prints them: MANIFEST, CHANGE
      (added, modified, removed, always-sync, missing, drifted), APIVERSION, KIND, NAMESPACE, NAME. -o wide adds
      the old and new hashes, the uid of each row's live object the plan pinned and its owner; -o json|yaml
      prints the rows as a List. Where the plan applies (server, context namespace, sync flags, selection;
      with -o wide the cluster identity, CA, repository and take-over managers it pins) goes to stderr.
      This reads the plan file alone: no cluster and no tazuna.yaml are needed.

      --show-changes renders tazuna.yaml (-f) as the plan selected and, for the cluster the plan is for,
      shows the unified diff of each added or modified object as state diff --show-changes does, but only of
      objects that still render exactly as planned (the plan's hash and digest): any other is named in a
      warning instead of showing a body the plan does not hold.

      Exit status: 0 The plan was shown. 1 The plan could not be read, or its changes could not be shown.
      state diff --plan PLAN is the same command.
  )"));
  c.args_usage = "PLAN";
  c.examples = Examples(R"(
      # Make a plan, then show it to a reviewer
      kubectl tazuna state diff --out plan.json --prune
      kubectl tazuna state plan show plan.json

      # With hashes, the live uids and the cluster the plan pins
      kubectl tazuna state plan show plan.json -o wide

      # The field-level changes, while tazuna.yaml still renders what was planned
      kubectl tazuna state plan show plan.json --show-changes
  )");
  c.add_flags = [o](FlagSet& f) {
    f.String(&o->file, "file", 'f', "The tazuna.yaml --show-changes renders (as the plan selected).");
    AddTableOutputFlags(f, o->output, o->no_headers, "table, wide, json, yaml, name");
    f.Bool(&o->show_changes, "show-changes", 0,
           "Also show a unified diff of each added or modified object whose render still matches the plan: live "
           "vs. server-side dry run (needs the cluster the plan is for; Secret values masked; "
           "KUBECTL_EXTERNAL_DIFF is honoured).");
    AddConnectionFlags(f, o->connection);
  };
  c.run_with_args = RunOptionsWithArgs(o);
  return c;
}

}  // namespace tazuna::cli
