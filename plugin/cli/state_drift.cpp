// kubectl tazuna state drift [-f FILE] [-e ENV] [-t TAG,...] [-m NAME]... [-o table|wide|json|yaml|name]
#include "cli/state_drift.hpp"

#include <algorithm>

#include "cli/label_filter.hpp"
#include "cli/pipeline.hpp"
#include "cli/print/table.hpp"
#include "cli/show_changes.hpp"
#include "state/store/secret_key.hpp"
#include "cli/takeover_flag.hpp"
#include "state/apply/ownership.hpp"
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

// What --show-changes shows the changes of.
struct Drifted {
  const DriftRows& rows;
  std::vector<state::SyncInput>& inputs;
  const std::map<std::string, std::vector<manifest::YieldRule>>& yields;
  const state::TakeoverManagers& takeover;
};

// --show-changes: for each drifted object still rendered, the live object against what applying its render
// makes of it (as state diff --show-changes shows a change).
util::Status ShowDrift(Context& ctx, SelectedCluster& at, const Drifted& d) {
  std::vector<state::DiffEntry> entries;
  for (const auto& row : d.rows) {
    if (row.type != state::DriftType::kDrifted) continue;
    for (const auto& in : d.inputs) {
      if (in.desired.name != row.manifest) continue;
      for (size_t i = 0; i < in.desired.objects.size(); ++i) {
        const state::DesiredObject& o = in.desired.objects[i];
        if (o.identity.name != row.parsed.name || o.identity.kind != row.parsed.kind ||
            o.identity.group != row.parsed.group || o.identity.namespace_name != row.namespace_name) {
          continue;
        }
        entries.push_back({row.manifest, state::ChangeType::kModified, row.key, row.parsed, "", row.stored_hash,
                           o.hash, static_cast<int>(i), o.identity, true});
      }
    }
  }
  if (entries.empty()) return util::Ok();
  std::vector<state::DesiredManifest> desired;
  for (auto& in : d.inputs) desired.push_back(std::move(in.desired));
  const state::Origin origin = FindOrigin(ctx, at.selection.file.path, &at.log());
  return ShowChanges(ctx, {at.client(), at.log(), d.takeover}, entries, desired, origin.Mark(), d.yields);
}

}  // namespace

util::Status StateDriftOptions::Complete(Context& ctx, const FlagSet&) {
  auto format = print::ParseFormat(output, {"table", "wide", "json", "yaml", "name"});
  if (!format) return format.error();
  auto managers = ResolveTakeoverManagers(ctx, takeover_managers);
  if (!managers) return managers.error();
  takeover = std::move(*managers);
  auto parsed_selector = util::ParseLabelSelector(selector);
  if (!parsed_selector) return parsed_selector.error();
  label_selector = std::move(*parsed_selector);
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
  auto at = OpenSelected(ctx, file, connection);
  if (!at) return at.error();
  kube::Client& client = at->client();
  auto run = RenderForCluster(ctx, *at, connection, {!no_render_cache});
  if (!run) return run.error();
  state::StateStore store(client);
  std::vector<state::SyncInput> inputs;
  for (auto& d : run->manifests) {
    if (d.always_sync) continue;  // genesissecret: stringData is write-only, re-applied every sync anyway
    auto stored = store.Read(d.name);
    if (!stored) return stored.error();
    auto diff = state::Diff(d, *stored, *run->identities);
    inputs.push_back({std::move(d), std::move(*stored), std::move(diff), {}, {}});
  }
  // Who owns which fields of every recorded object: one metadata-only LIST per kind and namespace. An object
  // they show unchanged in content and ownership needs no request of its own.
  std::set<state::ObjectIdentity> unanswered;
  const state::OwnerQuery query{state::OwnerRows::kChanges, nullptr, &unanswered, state::UnchangedObjects::kList,
                                &unanswered, state::LiveFieldsOf::kEvery};
  const state::LiveOwners listed = state::ReadLiveOwners(client, inputs, query, at->log());
  const auto yields = YieldRulesOf(at->selection.manifests);
  DriftRows all;
  RenderedLabels labels;
  for (const auto& in : inputs) {
    const state::DriftOptions options{concurrency, &takeover, &at->log(), &listed, &yields.at(in.desired.name)};
    auto entries = state::Drift(client, in.desired, in.stored, *run->identities, options);
    if (!entries) return entries.error();
    labels.Add(in.desired);
    std::copy_if(entries->begin(), entries->end(), std::back_inserter(all), [&](const state::DriftEntry& e) {
      return labels.Matches(label_selector, e.manifest, {e.parsed.group, e.parsed.kind, e.namespace_name, e.parsed.name});
    });
  }
  std::stable_sort(all.begin(), all.end(), [](const state::DriftEntry& a, const state::DriftEntry& b) {
    return a.type < b.type;
  });
  printer->Print(all, ctx.out);
  if (show_changes) {
    if (auto st = ShowDrift(ctx, *at, {all, inputs, yields, takeover}); !st) return st.error();
  }
  return all.empty() ? kExitOk : kExitDifferences;
}

Command NewStateDriftCommand() {
  auto o = std::make_shared<StateDriftOptions>();
  Command c = Describe("state drift", "Show recorded objects that were changed or deleted in the cluster", LongDesc(R"(
      Check every object tazuna recorded against the cluster. live-missing: the object is gone.
      live-drifted: applying the rendered object again (server-side dry run) would change it, i.e. a field
      tazuna sets was changed by someone else, or a sync would remove a field the manifest no longer sets.
      live-leftover: the object holds fields an earlier tool set (see --takeover-managers) that the
      manifest does not set and no controller owns; no sync removes them (-o wide names them).
      Server defaults and fields owned by others are not drift. One metadata-only LIST per kind and namespace
      reads who owns which fields; only objects whose content changed since their sync, whose fields tazuna
      applied another writer owns or nobody owns (removed by hand), or that an earlier tool's manager holds
      fields of are read and dry-run: -o wide names those fields (FIELDS). Fields a manifest's yieldFields
      leave to others are left out of the dry run, as a sync leaves them out.

      Exit status: 0 No drift was found. 1 Drift was found. >1 An error occurred.
  )"));
  c.examples = Examples(R"(
      # Was anything changed behind tazuna's back?
      kubectl tazuna state drift

      # As JSON, for one manifest
      kubectl tazuna state drift -m cni -o json

      # What changed live, field by field
      kubectl tazuna state drift --show-changes
  )");
  c.exit_style = ExitStyle::kDiff;
  c.exit_one = "drift found";
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kAll);
    AddTableOutputFlags(f, o->output, o->no_headers, "table, wide, json, yaml, name");
    f.Int(&o->concurrency, "concurrency", 0, "Maximum number of API requests in flight.");
    f.Bool(&o->show_changes, "show-changes", 0,
           "Also show a unified diff of each drifted object: live vs. what applying its render makes of it "
           "(server-side dry run; Secret values masked; KUBECTL_EXTERNAL_DIFF is honoured).");
    AddSelectorFlag(f, o->selector);
    AddTakeoverFlag(f, o->takeover_managers);
    AddClusterFlags(f, o->connection, o->fleet, &o->no_render_cache);
  };
  return RunsOverFleet(std::move(c), o, [o] {
    FleetRequest r = FleetRequestOf(*o, FleetMode::kParallel, {.noun = "drifted object", .lines_are_rows = false});
    r.empty_message = "No drift detected.";
    return r;
  });
}

}  // namespace tazuna::cli
