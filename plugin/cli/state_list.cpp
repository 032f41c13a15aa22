// kubectl tazuna state list [-f FILE] [-e ENV] [-m NAME]... [--all] [-o table|wide|json|yaml|name] [--no-headers]
#include "cli/state_list.hpp"

#include <algorithm>
#include <set>

#include "cli/label_filter.hpp"
#include "cli/pipeline.hpp"
#include "cli/print/table.hpp"
#include "state/store/secret_key.hpp"

namespace tazuna::cli {

namespace {

using Rows = std::vector<StateListRow>;

// `in_file`: the manifests tazuna.yaml names (after -m); empty when it was not read. `ours`: the origin of
// tazuna.yaml, which tells this file's orphans from other repositories' states.
util::Result<Rows> Collect(state::StateStore& store, state::IdentityResolver& ids, const std::vector<std::string>& in_file,
                           bool from_cluster, const state::Origin& ours) {
  std::vector<std::string> names = in_file;
  if (from_cluster) {
    auto all = store.ListManifests();
    if (!all) return all.error();
    for (const auto& n : *all) {
      if (std::find(names.begin(), names.end(), n) == names.end()) names.push_back(n);
    }
  }
  const std::set<std::string> known(in_file.begin(), in_file.end());
  Rows rows;
  for (const auto& name : names) {
    auto st = store.Read(name);
    if (!st) return st.error();
    for (const auto& [key, hash] : st->entries) {
      auto parsed = state::ParseStateKey(key);
      // A key no request could reach names no namespace but its own.
      const std::string ns = !parsed                         ? ""
                             : state::KeyNameProblem(*parsed) ? parsed->namespace_name
                                                              : ids.ResolveStored(*parsed, st->metadata.context_namespace).namespace_name;
      const bool gone = !known.empty() && known.count(name) == 0;
      const bool same_origin = st->metadata.origin == ours;
      rows.push_back({name, parsed ? *parsed : state::StateKey{}, key, state::ShownHash(key, hash), st->metadata, ns,
                      gone && same_origin, gone && !same_origin});
    }
  }
  return rows;
}

// -l: keeps the entries whose object tazuna.yaml renders with labels that match; an entry of a state the file
// does not render (--all) matches as an object without labels.
util::Status KeepSelected(Context& ctx, const StateListOptions& o, Session& session, Rows& rows) {
  std::vector<std::string> names;
  for (const auto& r : rows) {
    if (std::find(names.begin(), names.end(), r.manifest) == names.end()) names.push_back(r.manifest);
  }
  auto labels = RenderLabels(ctx, o.file, names, *session.client, session.log);
  if (!labels) return labels.error();
  std::erase_if(rows, [&](const StateListRow& r) {
    return !labels->Matches(o.label_selector, r.manifest, {r.key.group, r.key.kind, r.namespace_name, r.key.name});
  });
  return util::Ok();
}

nlohmann::json RowList(const Rows& rows) {
  std::vector<nlohmann::json> items;
  for (const auto& r : rows) {
    items.push_back({{"manifest", r.manifest}, {"key", r.key_string}, {"apiVersion", r.key.ApiVersion()},
                     {"kind", r.key.kind}, {"namespace", r.namespace_name}, {"name", r.key.name},
                     {"hash", r.hash}, {"lastSyncedAt", r.metadata.last_synced_at},
                     {"gitCommitHash", r.metadata.git_commit_hash}, {"origin", r.metadata.origin.Mark()},
                     {"orphaned", r.orphaned}});
  }
  return print::ListOf(std::move(items));
}

// A key that does not parse is named by the key itself.
std::vector<print::ObjectRef> RowNames(const Rows& rows) {
  std::vector<print::ObjectRef> refs;
  for (const auto& r : rows) refs.push_back({r.key.group, r.key.kind, r.key.kind.empty() ? r.key_string : r.key.name});
  return refs;
}

void PrintRowTable(const Rows& rows, print::Format format, bool no_headers, std::ostream& out) {
  const bool wide = format == print::Format::kWide;
  print::Table t;
  t.headers = {"MANIFEST", "APIVERSION", "KIND", "NAMESPACE", "NAME", "HASH"};
  if (wide) t.headers.insert(t.headers.end(), {"LAST-SYNCED", "COMMIT", "ORIGIN", "STATUS"});
  for (const auto& r : rows) {
    std::vector<std::string> cells = {r.manifest, r.key.ApiVersion(), r.key.kind, r.namespace_name, r.key.name,
                                      wide ? r.hash : r.hash.substr(0, 12)};
    if (wide) {
      const std::string origin = r.metadata.origin.Mark();
      cells.insert(cells.end(), {r.metadata.last_synced_at, r.metadata.git_commit_hash.substr(0, 12),
                                 origin.empty() ? "<none>" : origin,
                                 r.orphaned ? "ORPHANED" : r.elsewhere ? "elsewhere" : "active"});
    }
    t.rows.push_back(std::move(cells));
  }
  print::PrintTable(out, t, !no_headers);
}

}  // namespace

util::Status StateListOptions::Complete(Context& ctx, const FlagSet& flags) {
  auto format = print::ParseFormat(output, {"table", "wide", "json", "yaml", "name"});
  if (!format) return format.error();
  auto parsed_selector = util::ParseLabelSelector(selector);
  if (!parsed_selector) return parsed_selector.error();
  label_selector = std::move(*parsed_selector);
  read_file = flags.Changed("file") || ctx.files.Exists(file.file);
  from_cluster = all || !read_file;
  // `state list -f FILE` lists FILE's manifests, so FILE must load; --all, or a ./tazuna.yaml found by
  // default, only adds what the file knows to what the cluster holds.
  from_cluster_if_unreadable = all || !flags.Changed("file");
  print::Renderers<Rows> renderers;
  renderers.machine = RowList;
  renderers.names = RowNames;
  // kubectl get's "No resources found." goes to stderr, so a table on stdout stays empty.
  renderers.human = [no_headers = no_headers, err = &ctx.err](const Rows& r, print::Format f, std::ostream& out) {
    PrintRowTable(r, f, no_headers, out);
    if (r.empty()) *err << "No state found.\n";
  };
  printer = print::NewPrinter(*format, std::move(renderers));
  return util::Ok();
}

util::Status StateListOptions::Validate() const { return util::Ok(); }

util::Result<int> StateListOptions::Run(Context& ctx) {
  std::vector<std::string> in_file;
  if (read_file) {
    auto selection = LoadSelection(ctx, file);
    // -l matches the labels the file renders: it must load.
    if (!selection && (!from_cluster_if_unreadable || !label_selector.empty())) return selection.error();
    if (!selection) {
      // What the cluster holds is listed without the file; only the ORPHANED marks need it.
      ctx.err << "Warning: " << file.file << " not read, listing every state in the cluster without ORPHANED marks: "
               << selection.error().message << "\n";
      from_cluster = true;
    } else {
      for (const auto* m : selection->manifests) in_file.push_back(m->name);
    }
  }
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  kube::Client& client = *(*session)->client;
  state::StateStore store(client);
  auto scopes = NewDiscoveryScopes(client);
  state::IdentityResolver ids(scopes.get(), client.config().namespace_name);
  const state::Origin ours = in_file.empty() ? state::Origin{} : FindOrigin(ctx, file.file, nullptr);
  auto rows = Collect(store, ids, in_file, from_cluster, ours);
  if (!rows) return rows.error();
  if (!label_selector.empty()) {
    if (auto st = KeepSelected(ctx, *this, **session, *rows); !st) return st.error();
  }
  printer->Print(*rows, ctx.out);
  return kExitOk;
}

Command NewStateListCommand() {
  auto o = std::make_shared<StateListOptions>();
  Command c = Describe("state list", "List the objects tazuna recorded in the cluster", LongDesc(R"(
      List the state tazuna keeps in namespace tazuna: one row per object it installed, with its content hash.

      Without a tazuna.yaml (or with --all) every tazuna-state-* ConfigMap is listed, so state of manifests
      that are no longer in the file stays visible. In wide output ORIGIN names the repository and file each
      state is managed from; STATUS is ORPHANED for a state this tazuna.yaml wrote that it no longer names
      (`state forget --orphaned` or `state delete --orphaned` act on those), elsewhere for another
      repository's state (or one without an origin), active otherwise. A tazuna.yaml that does not load (an
      error, or names that need -e) is then skipped with a warning.

      -l lists the entries whose object tazuna.yaml renders now with labels that match (the state records
      hashes, not labels, so -l renders the manifests listed and needs tazuna.yaml to load); an entry whose
      object is no longer rendered, or of a state the file does not name (--all), matches as an object
      without labels (-l '!app' lists it, -l app=web does not).
  )"));
  c.examples = Examples(R"(
      # List the state of every manifest in ./tazuna.yaml
      kubectl tazuna state list

      # The entries of the objects rendered with label app=web
      kubectl tazuna state list -l app=web

      # Everything in the cluster, with hashes, sync times and commits
      kubectl tazuna state list --all -o wide

      # The state in every context of the kubeconfig, as one List
      kubectl tazuna state list --all-contexts -o json
  )");
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kFileManifestAndEnvironment);
    f.Bool(&o->all, "all", 0, "List every tazuna-state-* ConfigMap in the cluster, not only the file's manifests.");
    AddTableOutputFlags(f, o->output, o->no_headers, "table, wide, json, yaml, name");
    AddSelectorFlag(f, o->selector);
    AddClusterFlags(f, o->connection, o->fleet, nullptr);
  };
  return RunsOverFleet(std::move(c), o, [o] {
    return FleetRequestOf(*o, FleetMode::kParallel, {.noun = "object", .lines_are_rows = false});
  });
}

}  // namespace tazuna::cli
