// kubectl tazuna state list [-f FILE] [-m NAME]... [--all] [-o table|wide|json|yaml] [--no-headers]
#include <algorithm>
#include <set>

#include "cli/command.hpp"
#include "cli/options.hpp"
#include "cli/pipeline.hpp"
#include "cli/print/list.hpp"
#include "cli/print/table.hpp"
#include "state/state_key.hpp"
#include "state/store.hpp"

namespace tazuna::cli {

namespace {

struct StateListOptions {
  ConnectionOptions connection;
  FileOptions file;
  bool all = false;
  bool no_headers = false;
  std::string output = "table";
  // Completed:
  std::vector<std::string> in_file;  ///< manifests named by tazuna.yaml (after -m)
  bool from_cluster = false;         ///< list every tazuna-state-* ConfigMap
};

struct Row {
  std::string manifest;
  state::StateKey key;
  std::string key_string;
  std::string hash;
  state::Metadata metadata;
  bool orphaned = false;
};

util::Status Complete(Context& ctx, StateListOptions& o, const FlagSet& flags) {
  o.from_cluster = o.all || (!flags.Changed("file") && !ctx.files.Exists(o.file.file));
  if (!flags.Changed("file") && !ctx.files.Exists(o.file.file)) return util::Ok();
  auto selection = LoadSelection(ctx, o.file);
  if (!selection) return selection.error();
  for (const auto* m : selection->manifests) o.in_file.push_back(m->name);
  return util::Ok();
}

util::Result<std::vector<Row>> Collect(state::StateStore& store, const StateListOptions& o) {
  std::vector<std::string> names = o.in_file;
  if (o.from_cluster) {
    auto all = store.ListManifests();
    if (!all) return all.error();
    for (const auto& n : *all) {
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
  }
  const std::set<std::string> known(o.in_file.begin(), o.in_file.end());
  std::vector<Row> rows;
  for (const auto& name : names) {
    auto st = store.Read(name);
    if (!st) return st.error();
    for (const auto& [key, hash] : st->entries) {
      auto parsed = state::ParseStateKey(key);
      rows.push_back({name, parsed ? *parsed : state::StateKey{}, key, hash, st->metadata,
                      !known.empty() && known.count(name) == 0});
    }
  }
  return rows;
}

nlohmann::json RowJson(const Row& r) {
  return {{"manifest", r.manifest},          {"key", r.key_string},        {"apiVersion", r.key.ApiVersion()},
          {"kind", r.key.kind},              {"namespace", r.key.namespace_name}, {"name", r.key.name},
          {"hash", r.hash},                  {"lastSyncedAt", r.metadata.last_synced_at},
          {"gitCommitHash", r.metadata.git_commit_hash}, {"orphaned", r.orphaned}};
}

void PrintRows(Context& ctx, const StateListOptions& o, const std::vector<Row>& rows) {
  if (o.output == "json" || o.output == "yaml") {
    std::vector<nlohmann::json> items;
    for (const auto& r : rows) items.push_back(RowJson(r));
    print::PrintList(ctx.out, std::move(items), o.output);
    return;
  }
  const bool wide = o.output == "wide";
  print::Table t;
  t.headers = {"MANIFEST", "APIVERSION", "KIND", "NAMESPACE", "NAME", "HASH"};
  if (wide) t.headers.insert(t.headers.end(), {"LAST-SYNCED", "COMMIT", "STATUS"});
  for (const auto& r : rows) {
    std::vector<std::string> cells = {r.manifest, r.key.ApiVersion(), r.key.kind, r.key.namespace_name, r.key.name,
                                      wide ? r.hash : r.hash.substr(0, 12)};
    if (wide) {
      cells.insert(cells.end(), {r.metadata.last_synced_at, r.metadata.git_commit_hash.substr(0, 12),
                                 r.orphaned ? "ORPHANED" : "active"});
    }
    t.rows.push_back(std::move(cells));
  }
  print::PrintTable(ctx.out, t, !o.no_headers);
  if (rows.empty()) ctx.err << "No state found.\n";
}

util::Result<int> Run(Context& ctx, StateListOptions& o, const FlagSet& flags) {
  if (auto st = ValidateOutput(o.output, {"table", "wide", "json", "yaml"}); !st) return st.error();
  if (auto st = Complete(ctx, o, flags); !st) return st.error();
  auto session = OpenSession(ctx, o.connection);
  if (!session) return session.error();
  state::StateStore store(*(*session)->client);
  auto rows = Collect(store, o);
  if (!rows) return rows.error();
  PrintRows(ctx, o, *rows);
  return kExitOk;
}

}  // namespace

Command NewStateListCommand() {
  auto o = std::make_shared<StateListOptions>();
  Command c;
  c.path = "state list";
  c.short_help = "List the objects tazuna recorded in the cluster";
  c.long_help =
      "List the state tazuna keeps in namespace tazuna: one row per object it installed, with its content hash.\n\n"
      "Without a tazuna.yaml (or with --all) every tazuna-state-* ConfigMap is listed, so state of manifests\n"
      "that are no longer in the file stays visible (marked ORPHANED in wide output).\n";
  c.examples = "  # List the state of every manifest in ./tazuna.yaml\n  kubectl tazuna state list\n\n"
               "  # Everything in the cluster, with hashes, sync times and commits\n"
               "  kubectl tazuna state list --all -o wide\n";
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kFileAndManifest);
    f.Bool(&o->all, "all", 0, "List every tazuna-state-* ConfigMap in the cluster, not only the file's manifests.");
    f.Bool(&o->no_headers, "no-headers", 0, "When using the default or wide output format, don't print headers.");
    AddOutputFlag(f, o->output, "table, wide, json, yaml");
    AddConnectionFlags(f, o->connection);
  };
  c.run = [o](Context& ctx, const FlagSet& f, const std::vector<std::string>&) { return Run(ctx, *o, f); };
  return c;
}

}  // namespace tazuna::cli
