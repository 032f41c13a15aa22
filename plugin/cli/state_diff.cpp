// kubectl tazuna state diff [-f FILE] [-e ENV] [-t TAG,...] [-m NAME]... [-o table|wide|json|yaml|name] [--out PLAN]
#include "cli/state_diff.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>

#include "cli/label_filter.hpp"
#include "cli/orphans.hpp"
#include "cli/pipeline.hpp"
#include "cli/print/table.hpp"
#include "cli/show_changes.hpp"
#include "cli/state_plan_show.hpp"
#include "cli/takeover_flag.hpp"
#include "state/apply/repair.hpp"
#include "state/plan/plan.hpp"
#include "state/plan/plan_file.hpp"
#include "state/store/secret_key.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

// Requests in flight checking objects for removed fields (state sync --concurrency's default).
constexpr int kCheckConcurrency = 16;

nlohmann::json EntryJson(const state::DiffEntry& e) {
  nlohmann::json j = {{"manifest", e.manifest},        {"change", state::ChangeTypeName(e.type)},
                      {"key", e.key},                  {"apiVersion", e.parsed.ApiVersion()},
                      {"kind", e.parsed.kind},         {"namespace", e.identity.namespace_name},
                      {"name", e.parsed.name},         {"oldHash", state::ShownHash(e.parsed, e.old_hash)},
                      {"newHash", e.new_hash}};
  if (!e.old_key.empty()) j["oldKey"] = e.old_key;
  if (!e.note.empty()) j["drift"] = e.note;
  return j;
}

void PrintDiffTable(const StateDiffResult& r, print::Format format, bool no_headers, std::ostream& out) {
  if (r.entries.empty()) {
    out << "No changes detected.\n";
    return;
  }
  const bool wide = format == print::Format::kWide;
  print::Table t;
  t.headers = {"MANIFEST", "CHANGE", "APIVERSION", "KIND", "NAMESPACE", "NAME"};
  if (wide) t.headers.insert(t.headers.end(), {"OLD-HASH", "NEW-HASH", "OWNER"});
  for (const auto& e : r.entries) {
    std::vector<std::string> cells = {e.manifest,         state::ChangeTypeName(e.type), e.parsed.ApiVersion(),
                                      e.parsed.kind,      e.identity.namespace_name,     e.parsed.name};
    if (wide) {
      // Added rows whose object exists already (a plan reads the owners of every row; the table shows these).
      const auto owner = e.type == state::ChangeType::kAdded ? r.owners.find(e.identity) : r.owners.end();
      cells.insert(cells.end(), {state::ShownHash(e.parsed, e.old_hash).substr(0, 12), e.new_hash.substr(0, 12),
                                 owner == r.owners.end() ? "" : state::DescribeOwner(owner->second)});
    }
    t.rows.push_back(std::move(cells));
  }
  print::PrintTable(out, t, !no_headers);
}

// Writes `text` to a temporary file beside `path`, then renames it over `path`, so a reader never sees
// half a plan.
util::Status WriteWhole(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    f << text;
    f.flush();
    if (!f) return util::MakeError(util::ErrorKind::kInput, util::StrCat("write plan ", path, ": ", std::strerror(errno)));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(tmp.c_str());  // best effort: the rename error is the one reported
    return util::MakeError(util::ErrorKind::kInput, util::StrCat("write plan ", path, ": ", why));
  }
  return util::Ok();
}

// Who owns the live objects: of added rows for -o wide, of every row for --out (the plan pins them); with
// --repair=missing or all whether the unchanged objects exist, those gone becoming `missing` rows (what a sync
// repairs; no render is needed for that); with --repair=all which of their fields other writers took, those
// becoming `drifted` rows (a manifest not rendered whose objects others own fields of goes to `needs_render`).
// One metadata-only LIST per kind and namespace; nothing read when none of these is asked for.
state::LiveRead ReadOwnersFor(const StateDiffOptions& o, kube::Client& client, std::vector<state::SyncInput>& inputs,
                              const std::map<std::string, std::vector<manifest::YieldRule>>& yields,
                              std::set<std::string>& needs_render, util::Logger& log) {
  state::LiveRead live;
  const bool repair = o.repair_mode != state::Repair::kNone;
  const bool fields = o.repair_mode == state::Repair::kAll;
  if (o.out_file.empty() && o.format != print::Format::kWide && !repair) return live;
  const auto rows = !o.out_file.empty()                 ? state::OwnerRows::kChanges
                    : o.format == print::Format::kWide ? state::OwnerRows::kAdded
                                                        : state::OwnerRows::kNone;
  std::set<state::ObjectIdentity> unchecked;
  const auto unchanged = repair ? state::UnchangedObjects::kList : state::UnchangedObjects::kSkip;
  live.owners =
      state::ReadLiveOwners(client, inputs, {rows, nullptr, &live.unknown, unchanged, &unchecked,
                                                     fields ? state::LiveFieldsOf::kEvery : state::LiveFieldsOf::kNone}, log);
  if (!repair) return live;
  state::AddMissingRows(inputs, live.owners, unchecked);
  if (fields) {
    state::AddDriftedRows(inputs, live.owners, yields, &needs_render);
    // Removed fields need every render (a plan has them; a diff that skips renders could not tell them all).
    if (!o.out_file.empty()) state::AddRemovedRows(client, inputs, live.owners, yields, kCheckConcurrency, log);
  }
  if (const std::string warning = state::UncheckedWarning(unchecked); !warning.empty()) log.Warning(warning);
  return live;
}

// What --out writes a plan of, besides the options.
struct PlanSource {
  kube::Client& client;
  const std::vector<state::SyncInput>& inputs;
  const state::LiveRead& live;
  const state::Origin& origin;
  util::Logger& log;
};

util::Status WritePlan(Context& ctx, const StateDiffOptions& o, const PlanSource& src) {
  if (!src.live.unknown.empty()) {  // a plan that cannot pin an object's owner could never be checked
    const std::string who = src.live.unknown.begin()->Describe();
    auto e = util::MakeError(util::ErrorKind::kConflict, util::StrCat("cannot write plan ", o.out_file, ": who owns ",
                                                                      who, " cannot be read (see the warning above)"));
    e.hint = "A plan records who owns each object it changes: make it as a user that can list them.";
    return e;
  }
  const state::RevisionSelection selection{o.file.environment, o.file.tags, o.file.manifests};
  state::Plan plan = state::MakePlan(selection, src.inputs, util::FormatRfc3339(ctx.clock.Now()), src.live.owners);
  auto target = PlanTargetOf(src.client, {o.prune, o.allow_empty, o.take_ownership, o.takeover, o.repair_mode}, src.origin,
                             o.fleet.skip_cluster_identity);
  if (!target) return target.error();
  plan.target = std::move(*target);
  for (const auto& obj : plan.objects) {
    if (obj.hash.empty()) {
      src.log.Warning("the plan has no hash for " + obj.key + " (the Secret hash key is missing or unreadable): "
                      "state sync --plan will refuse it");
      break;
    }
  }
  return WriteWhole(o.out_file, state::EncodePlan(plan));
}

}  // namespace

util::Status StateDiffOptions::Complete(Context& ctx, const FlagSet&) {
  // The environment that makes a sync prune makes the plan one for a pruning sync, as state sync reads it.
  if (!out_file.empty() && util::ToLower(ctx.env.GetOr("TAZUNA_STATE_SYNC_DELETE", "")) == "true") prune = true;
  auto parsed = print::ParseFormat(output, {"table", "wide", "json", "yaml", "name"});
  if (!parsed) return parsed.error();
  format = *parsed;
  auto managers = ResolveTakeoverManagers(ctx, takeover_managers);
  if (!managers) return managers.error();
  takeover = std::move(*managers);
  auto repairs = state::ParseRepair(repair);
  if (!repairs) return repairs.error();
  repair_mode = *repairs;
  auto parsed_selector = util::ParseLabelSelector(selector);
  if (!parsed_selector) return parsed_selector.error();
  label_selector = std::move(*parsed_selector);
  print::Renderers<StateDiffResult> renderers;
  renderers.machine = [](const StateDiffResult& r) {
    std::vector<nlohmann::json> items;
    for (const auto& e : r.entries) items.push_back(EntryJson(e));
    return print::ListOf(std::move(items));
  };
  renderers.human = [no_headers = no_headers](const StateDiffResult& r, print::Format f, std::ostream& out) {
    PrintDiffTable(r, f, no_headers, out);
  };
  renderers.names = [](const StateDiffResult& r) {
    std::vector<print::ObjectRef> refs;
    for (const auto& e : r.entries) refs.push_back({e.parsed.group, e.parsed.kind, e.parsed.name});
    return refs;
  };
  printer = print::NewPrinter(format, std::move(renderers));
  return util::Ok();
}

util::Status StateDiffOptions::Validate() const {
  if ((prune || allow_empty || take_ownership) && out_file.empty()) {
    return util::MakeError(util::ErrorKind::kUsage,
                           "--prune, --allow-empty and --take-ownership say which sync a plan is for: use them with --out");
  }
  if (!plan_file.empty() && (!out_file.empty() || !label_selector.empty())) {
    return util::MakeError(util::ErrorKind::kUsage, "--plan shows a plan made before: it cannot be used with --out or -l");
  }
  if (!label_selector.empty() && !out_file.empty()) {
    return util::MakeError(util::ErrorKind::kUsage,
                           "-l/--selector cannot be used with --out: a plan covers whole manifests (select them with -m or -t)");
  }
  return util::Ok();
}

namespace {

// The rows and live owners of one comparison of the render with the states.
struct Compared {
  std::vector<state::SyncInput> inputs;
  state::LiveRead live;
  state::Origin origin;
  std::set<std::string> needs_render;  ///< manifests not rendered whose objects others own fields of
};

// Renders (not the manifests whose states in `skip` record the same inputs; every one when `skip` is null),
// compares with the states and reads the live owners the options ask for. `origin`: this repository's, found
// after the render (so a render error comes first) when null.
util::Result<Compared> Compare(Context& ctx, SelectedCluster& at, const StateDiffOptions& o,
                               std::map<std::string, state::ManifestState> states,
                               const std::map<std::string, state::ManifestState>* skip, const state::Origin* origin) {
  kube::Client& client = at.client();
  util::Logger& log = at.log();
  const RenderOptions render{!o.no_render_cache, skip};
  auto run = RenderForCluster(ctx, at, o.connection, render);
  if (!run) return run.error();
  std::optional<RenderedRun> fresh;  // --verify-render-cache: every manifest rendered as well
  if (VerifyRenderCache(o.verify_render_cache, ctx.env) && !o.no_render_cache) {
    auto again = RenderForCluster(ctx, at, o.connection, {false, nullptr});
    if (!again) return again.error();
    fresh = std::move(*again);
  }
  if (state::AnySecret(run->manifests) || (fresh && state::AnySecret(fresh->manifests))) {
    auto key = state::LoadSecretHashKey(client, state::CreateKey::kNo);
    if (!key) return key.error();
    if (key->status == state::SecretHashKey::Status::kUnreadable) {
      log.Warning(key->problem + ": Secret rows are shown as always-sync");
    }
    state::KeySecretHashes(run->manifests, *key);
    if (fresh) state::KeySecretHashes(fresh->manifests, *key);
  }
  if (fresh) {
    if (auto st = CheckSkippedRenders(run->manifests, fresh->manifests, log); !st) return st.error();
  }
  // Per object only for the rare pair of keys in two groups.
  auto inputs = state::PlanSyncFrom(client, std::move(run->manifests), std::move(states), *run->identities);
  if (!inputs) return inputs.error();
  Compared c{std::move(*inputs), {}, origin != nullptr ? *origin : FindOrigin(ctx, at.selection.file.path, &log), {}};
  for (const auto& in : c.inputs) {  // rows against another repository's state would mean nothing
    if (auto st = state::CheckOrigin(in.stored, c.origin); !st) return st.error();
  }
  c.live = ReadOwnersFor(o, client, c.inputs, YieldRulesOf(at.selection.manifests), c.needs_render, log);
  return c;
}

}  // namespace

util::Result<int> StateDiffOptions::Run(Context& ctx) {
  if (!plan_file.empty()) {  // state plan show PLAN
    StatePlanShowOptions show;
    show.connection = connection;
    show.file = file.file;
    show.output = output;
    show.no_headers = no_headers;
    show.show_changes = show_changes;
    return ShowPlan(ctx, show, plan_file);
  }
  auto at = OpenSelected(ctx, file, connection);
  if (!at) return at.error();
  kube::Client& client = at->client();
  util::Logger& log = at->log();
  state::StateStore store(client);
  // One GET per state ConfigMap, first: a manifest whose state records the render of the same inputs is not
  // rendered (a plan is always made from fresh renders).
  std::vector<std::string> names;
  for (const auto* m : at->selection.manifests) names.push_back(m->name);
  auto states = state::ReadStates(store, names);
  if (!states) return states.error();
  // -l matches rendered labels: a manifest answered from its state has none.
  const bool skip_renders = out_file.empty() && label_selector.empty();
  auto compared = Compare(ctx, *at, *this, skip_renders ? *states : std::move(*states),
                          skip_renders ? &*states : nullptr, nullptr);
  if (compared && !compared->needs_render.empty()) {
    // Only the render tells whether fields others own of a manifest not rendered are fields it sets: those
    // manifests are rendered (the others still answer from their states).
    log.Log(2, util::StrCat("rendering again: other writers own fields of objects of ",
                            util::Join({compared->needs_render.begin(), compared->needs_render.end()}, ", ")));
    std::map<std::string, state::ManifestState> skip;
    for (const auto& [name, state] : *states) {
      if (compared->needs_render.count(name) == 0) skip.emplace(name, state);
    }
    const state::Origin origin = compared->origin;
    compared = Compare(ctx, *at, *this, std::move(*states), &skip, &origin);
  }
  if (!compared) return compared.error();
  auto& [inputs, live, origin, needs_render] = *compared;
  if (!out_file.empty()) {
    if (auto st = WritePlan(ctx, *this, {client, inputs, live, origin, log}); !st) return st.error();
  }
  StateDiffResult result;
  result.owners = std::move(live.owners);
  std::vector<state::DiffEntry>& all = result.entries;
  RenderedLabels labels;
  for (const auto& in : inputs) labels.Add(in.desired);
  for (const auto& in : inputs) {
    std::copy_if(in.diff.begin(), in.diff.end(), std::back_inserter(all), [&](const state::DiffEntry& e) {
      return labels.Matches(label_selector, e.manifest, e.identity);
    });
  }
  state::SortDiff(all);
  printer->Print(result, ctx.out);
  WarnRetired(ctx, client, at->selection.file, origin, log);  // retired manifests whose objects still run
  if (show_changes && !all.empty()) {
    std::vector<state::DesiredManifest> desired;
    for (auto& in : inputs) desired.push_back(std::move(in.desired));
    const state::TakeoverContext shown{client, log, takeover};
    const auto yields = YieldRulesOf(at->selection.manifests);
    if (auto st = ShowChanges(ctx, shown, all, desired, origin.Mark(), yields); !st) return st.error();
  }
  const bool only_always_sync = std::all_of(all.begin(), all.end(), [](const state::DiffEntry& e) {
    return e.type == state::ChangeType::kAlwaysSync;
  });
  return all.empty() || (ignore_always_sync && only_always_sync) ? kExitOk : kExitDifferences;
}

Command NewStateDiffCommand() {
  auto o = std::make_shared<StateDiffOptions>();
  Command c = Describe("state diff", "Show what changed between the recorded state and tazuna.yaml", LongDesc(R"(
      Render tazuna.yaml and compare each object's content hash with the state recorded in the cluster.
      Changes are added, modified, removed and always-sync (genesissecret manifests); missing: an object
      the state records as applied that is gone from the cluster, which state sync creates again; and
      drifted: such an object whose fields tazuna applied another writer took since (kubectl edit, set
      image, label, ...; not those the manifest's yieldFields leave to others), or with --out removed by
      hand, which state sync applies again (--repair=missing leaves drifted rows out, --repair=none both).

      Exit status: 0 No differences were found. 1 Differences were found. >1 An error occurred.
      With --ignore-always-sync, always-sync rows alone exit 0 (a CI check for "clean").
  )"));
  c.examples = Examples(R"(
      # What would the next sync change?
      kubectl tazuna state diff

      # Only the cni manifest, for the production environment, as JSON
      kubectl tazuna state diff -m cni -e production -o json

      # Only the objects rendered with label tier=web or tier=api
      kubectl tazuna state diff -l 'tier in (web,api)'

      # Save a plan for review; state sync --plan applies it only if nothing moved
      kubectl tazuna state diff --out plan.json --prune
      kubectl tazuna state sync --plan plan.json --prune

      # What differs across the fleet? One table, a CONTEXT column first
      kubectl tazuna state diff --contexts 'prod-*,staging'
  )");
  c.exit_style = ExitStyle::kDiff;
  c.exit_one = "differences found";
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kAll);
    AddTableOutputFlags(f, o->output, o->no_headers, "table, wide, json, yaml, name");
    f.Bool(&o->ignore_always_sync, "ignore-always-sync", 0,
           "Exit 0 when the only rows are always-sync (genesissecret objects every sync re-applies); they are "
           "still printed.");
    f.Bool(&o->show_changes, "show-changes", 0,
           "Also show a unified diff of each added or modified object: live vs. server-side dry run, with the "
           "fields the sync's take-over of earlier tools' fields removes (Secret values masked; "
           "KUBECTL_EXTERNAL_DIFF is honoured).");
    f.String(&o->out_file, "out", 0,
             "Also write a plan to this file (hashes, resourceVersions and each changed object's live uid and "
             "owner, no object bodies) for state sync --plan. The plan is for this server and context namespace, "
             "and for a sync with the flags below and --takeover-managers.");
    f.String(&o->plan_file, "plan", 0, "Show this plan (made by --out) instead of comparing: state plan show PLAN.");
    f.Bool(&o->prune, "prune", 0, "With --out: the plan is for state sync --prune (also TAZUNA_STATE_SYNC_DELETE=true).");
    f.Bool(&o->allow_empty, "allow-empty", 0, "With --out: the plan is for state sync --allow-empty.");
    f.Bool(&o->take_ownership, "take-ownership", 0, "With --out: the plan is for state sync --take-ownership.");
    f.String(&o->repair, "repair", 0,
             "all: also show the objects the state records as applied that are gone from the cluster (missing) or "
             "whose fields tazuna applied other writers took since (drifted), which state sync repairs (one "
             "metadata-only LIST per kind and namespace); missing: only the gone ones; none: hashes only.");
    AddSelectorFlag(f, o->selector);
    AddTakeoverFlag(f, o->takeover_managers);
    AddClusterFlags(f, o->connection, o->fleet, &o->no_render_cache);
    AddVerifyRenderCacheFlag(f, o->verify_render_cache);
  };
  return RunsOverFleet(std::move(c), o, [o] {
    FleetRequest r = FleetRequestOf(*o, FleetMode::kParallel, {.noun = "change", .lines_are_rows = false});
    if (!o->out_file.empty()) r.plan_flag = "--out", r.plan_path = o->out_file;
    r.empty_message = "No changes detected.";
    return r;
  });
}

}  // namespace tazuna::cli
