// kubectl tazuna state drift [-f FILE] [-e ENV] [-t TAG,...] [-m NAME]... [-o table|wide|json|yaml|name]
#include "cli/state_drift.hpp"

#include <algorithm>

#include "cli/pipeline.hpp"
#include "cli/print/table.hpp"
#include "state/store/secret_key.hpp"
#include "cli/takeover_flag.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

using DriftRows = std::vector<state::DriftEntry>;

nlohmann::json DriftList(const DriftRows& entries) {
  std::vector<nlohmann::json> items;
  for (const auto& e : entries) {
    items.push_back({{"manifest", e.manifest}, {"drift", state::DriftTypeName(e.type)}, {"key", e.key},
                     {"apiVersion", e.parsed.ApiVersion()}, {"kind", e.parsed.kind},
                     {"namespace", e.namespace_name}, {"name", e.parsed.name}, {"hash", state::ShownHash(e.parsed, e.stored_hash)}});
    if (!e.fields.empty()) items.back()["fields"] = e.fields;
  }
  return print::ListOf(std::move(items));
}

void PrintDriftTable(const DriftRows& entries, print::Format format, bool no_headers, std::ostream& out) {
  if (entries.empty()) {
    out << "No drift detected.\n";
    return;
  }
  const bool wide = format == print::Format::kWide;
  print::Table t;
  t.headers = {"MANIFEST", "DRIFT", "APIVERSION", "KIND", "NAMESPACE", "NAME"};
  if (wide) t.headers.insert(t.headers.end(), {"STORED-HASH", "FIELDS"});
  for (const auto& e : entries) {
    t.rows.push_back({e.manifest, state::DriftTypeName(e.type), e.parsed.ApiVersion(), e.parsed.kind,
                      e.namespace_name, e.parsed.name});
    if (wide) t.rows.back().insert(t.rows.back().end(), {state::ShownHash(e.parsed, e.stored_hash), util::Join(e.fields, ",")});
  }
  print::PrintTable(out, t, !no_headers);
}

}  // namespace

util::Status StateDriftOptions::Complete(Context& ctx, const FlagSet&) {
  auto format = print::ParseFormat(output, {"table", "wide", "json", "yaml", "name"});
  if (!format) return format.error();
  auto managers = ResolveTakeoverManagers(ctx, takeover_managers);
  if (!managers) return managers.error();
  takeover = std::move(*managers);
  print::Renderers<DriftRows> renderers;
  renderers.machine = DriftList;
  renderers.human = [no_headers = no_headers](const DriftRows& r, print::Format f, std::ostream& out) {
    PrintDriftTable(r, f, no_headers, out);
  };
  renderers.names = [](const DriftRows& r) {
    std::vector<print::ObjectRef> refs;
    for (const auto& e : r) refs.push_back({e.parsed.group, e.parsed.kind, e.parsed.name});
    return refs;
  };
  printer = print::NewPrinter(*format, std::move(renderers));
  return util::Ok();
}

util::Status StateDriftOptions::Validate() const { return util::Ok(); }

util::Result<int> StateDriftOptions::Run(Context& ctx) {
  auto selection = LoadSelection(ctx, file);
  if (!selection) return selection.error();
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  kube::Client& client = *(*session)->client;
  auto run = RenderSelection(ctx, *selection, (*session)->log, &client, {!no_render_cache});
  if (!run) return run.error();
  if (auto st = state::CheckNamespaceFlag(run->manifests, connection.kube.namespace_name); !st) return st.error();
  state::StateStore store(client);
  DriftRows all;
  for (const auto& d : run->manifests) {
    if (d.always_sync) continue;  // genesissecret: stringData is write-only, re-applied every sync anyway
    auto stored = store.Read(d.name);
    if (!stored) return stored.error();
    const state::DriftOptions options{concurrency, &takeover, &(*session)->log};
    auto entries = state::Drift(client, d, *stored, *run->identities, options);
    if (!entries) return entries.error();
    all.insert(all.end(), entries->begin(), entries->end());
  }
  std::stable_sort(all.begin(), all.end(), [](const state::DriftEntry& a, const state::DriftEntry& b) {
    return a.type < b.type;
  });
  printer->Print(all, ctx.out);
  return all.empty() ? kExitOk : kExitDifferences;
}

Command NewStateDriftCommand() {
  auto o = std::make_shared<StateDriftOptions>();
  Command c;
  c.path = "state drift";
  c.short_help = "Show recorded objects that were changed or deleted in the cluster";
  c.long_help =
      "Check every object tazuna recorded against the cluster. live-missing: the object is gone.\n"
      "live-drifted: applying the rendered object again (server-side dry run) would change it, i.e. a field\n"
      "tazuna sets was changed by someone else, or a sync would remove a field the manifest no longer sets.\n"
      "live-leftover: the object holds fields an earlier tool set (see --takeover-managers) that the\n"
      "manifest does not set and no controller owns; no sync removes them (-o wide names them).\n"
      "Server defaults and fields owned by others are not drift.\n\n"
      "Exit status: 0 No drift was found. 1 Drift was found. >1 An error occurred.\n";
  c.examples = "  # Was anything changed behind tazuna's back?\n  kubectl tazuna state drift\n\n"
               "  # As JSON, for one manifest\n  kubectl tazuna state drift -m cni -o json\n";
  c.exit_style = ExitStyle::kDiff;
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kAll);
    AddOutputFlag(f, o->output, "table, wide, json, yaml, name");
    f.Bool(&o->no_headers, "no-headers", 0, "When using the default or wide output format, don't print headers.");
    f.Int(&o->concurrency, "concurrency", 0, "Maximum number of API requests in flight.");
    AddTakeoverFlag(f, o->takeover_managers);
    AddRenderCacheFlag(f, o->no_render_cache);
    AddConnectionFlags(f, o->connection);
    AddFleetFlags(f, o->fleet);
  };
  c.fleet_request = [o] {
    FleetRequest r = FleetRequestOf(*o, FleetMode::kParallel, {.noun = "drifted object", .lines_are_rows = false});
    r.empty_message = "No drift detected.";
    return r;
  };
  c.check = CheckOptions(o);
  c.run = RunOptions(o);
  return c;
}

}  // namespace tazuna::cli
