// kubectl tazuna state status [-f FILE] [-m NAME]... [--all] [-w] [--timeout D] [-o table|wide|json|yaml|name]
#include "cli/state_status.hpp"

#include <algorithm>
#include <map>

#include "cli/label_filter.hpp"
#include "cli/pipeline.hpp"
#include "cli/print/table.hpp"
#include "cli/wait_output.hpp"
#include "kube/served_version.hpp"
#include "state/readiness/wait.hpp"
#include "state/store/identity.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

using Rows = std::vector<StatusRow>;
using util::StrCat;

std::string NamespacedName(const state::StateKey& k) {
  return k.namespace_name.empty() ? k.name : k.namespace_name + "/" + k.name;
}

// The judgement of an item no read answered yet.
constexpr char kUnread[] = "not read";

// One recorded object: its row and what the readiness reader needs of it.
struct Tracked {
  StatusRow row;
  state::WaitItem item;
  bool readable = true;  ///< false: its row is final (an invalid key, a kind no longer served)
};

// kstatus's words for a judgement; Unknown when no read answered.
std::string StatusWord(const state::WaitItem& item) {
  if (item.last.message == kUnread) return "Unknown";
  switch (item.last.state) {
    case state::ReadyState::kReady: return "Current";
    case state::ReadyState::kInProgress: return item.last.terminating ? "Terminating" : "InProgress";
    case state::ReadyState::kFailed: return "Failed";
    case state::ReadyState::kNotFound: return "NotFound";
  }
  return "Unknown";
}

void Fill(Tracked& t) {
  if (!t.readable) return;
  t.row.status = StatusWord(t.item);
  t.row.uid = t.item.last.state == state::ReadyState::kNotFound ? "" : t.item.uid;
  if (!t.item.read_error.empty()) {
    t.row.status = "Unknown";
    t.row.message = "cannot read it: " + t.item.read_error;
  } else if (t.item.last.state == state::ReadyState::kReady) {
    t.row.message = t.item.last.warning;
  } else {
    t.row.message = t.item.last.message;
  }
}

// The manifests whose states are read: -m as given (a state needs no tazuna.yaml entry), else tazuna.yaml's,
// else (no file, or --all) every state in the cluster.
util::Result<std::vector<std::string>> ManifestNames(Context& ctx, const StateStatusOptions& o, state::StateStore& store) {
  auto in_cluster = store.ListManifests();
  if (!in_cluster) return in_cluster.error();
  if (!o.file.manifests.empty()) {
    std::vector<std::string> names;  // each once
    for (const auto& m : o.file.manifests) {
      if (std::find(in_cluster->begin(), in_cluster->end(), m) == in_cluster->end()) {
        return util::MakeError(util::ErrorKind::kNotFound,
                               StrCat("manifest ", util::Quote(m), " has no state in this cluster (see state list --all)"));
      }
      if (std::find(names.begin(), names.end(), m) == names.end()) names.push_back(m);
    }
    return names;
  }
  if (o.all || !o.read_file) return *in_cluster;
  auto selection = LoadSelection(ctx, o.file);
  if (!selection) return selection.error();
  std::vector<std::string> names;
  for (const auto* m : selection->manifests) {
    if (std::find(in_cluster->begin(), in_cluster->end(), m->name) != in_cluster->end()) names.push_back(m->name);
  }
  return names;
}

util::Result<std::vector<Tracked>> Collect(Context& ctx, const StateStatusOptions& o, kube::Client& client) {
  state::StateStore store(client);
  auto names = ManifestNames(ctx, o, store);
  if (!names) return names.error();
  auto scopes = NewDiscoveryScopes(client);
  state::IdentityResolver ids(scopes.get(), client.config().namespace_name);
  std::map<std::string, kube::ServedVersion> served;  // group/kind/version -> what serves it
  std::vector<Tracked> out;
  for (const auto& name : *names) {
    auto st = store.Read(name);
    if (!st) return st.error();
    for (const auto& [key, hash] : st->entries) {
      Tracked t;
      t.row.manifest = name;
      t.row.key_string = key;
      auto parsed = state::ParseStateKey(key);
      const auto problem = parsed ? state::KeyNameProblem(*parsed) : std::optional<std::string>(parsed.error().message);
      if (problem) {
        if (parsed) t.row.key = *parsed;
        t.row.status = "Unknown";
        t.row.message = StrCat("invalid state key: ", *problem);
        t.readable = false;
        out.push_back(std::move(t));
        continue;
      }
      t.row.key = *parsed;
      t.row.key.namespace_name = ids.ResolveStored(*parsed, st->metadata.context_namespace).namespace_name;
      const std::string gkv = StrCat(parsed->group, "/", parsed->kind, "/", parsed->version);
      if (!served.count(gkv)) served[gkv] = kube::ServedVersionOf(client, parsed->group, parsed->version, parsed->kind);
      const kube::ServedVersion& v = served[gkv];
      if (v.gone || !v.error.empty()) {
        t.row.status = v.gone ? "NotFound" : "Unknown";
        t.row.message = v.gone ? StrCat("the server serves no ", parsed->kind, " any more")
                               : StrCat("cannot read it: ", v.error);
        t.readable = false;
      }
      t.item.manifest = name;
      t.item.key = t.row.key;
      t.item.key.version = v.version.empty() ? parsed->version : v.version;
      t.item.last = {state::ReadyState::kInProgress, kUnread, ""};
      out.push_back(std::move(t));
    }
  }
  return out;
}

// -l: keeps the objects whose labels, as tazuna.yaml renders them, match (read no further).
util::Status KeepSelected(Context& ctx, const StateStatusOptions& o, Session& session, std::vector<Tracked>& tracked) {
  std::vector<std::string> names;
  for (const auto& t : tracked) {
    if (std::find(names.begin(), names.end(), t.row.manifest) == names.end()) names.push_back(t.row.manifest);
  }
  auto labels = RenderLabels(ctx, o.file, names, *session.client, session.log);
  if (!labels) return labels.error();
  std::erase_if(tracked, [&](const Tracked& t) {
    const state::StateKey& k = t.row.key;
    return !labels->Matches(o.label_selector, t.row.manifest, {k.group, k.kind, k.namespace_name, k.name});
  });
  return util::Ok();
}

std::vector<state::WaitItem*> Pending(std::vector<Tracked>& all, bool only_not_current) {
  std::vector<state::WaitItem*> items;
  for (auto& t : all) {
    if (!t.readable) continue;
    if (only_not_current && t.item.read_error.empty() && t.item.last.state == state::ReadyState::kReady) continue;
    items.push_back(&t.item);
  }
  return items;
}

// -w: reads what is not Current again until everything is, or the deadline passes; a line on stderr for
// every judgement that changed.
void Watch(Context& ctx, std::vector<Tracked>& all, state::ReadinessWaiter& reader, std::chrono::seconds timeout) {
  const auto deadline = ctx.clock.Steady() + timeout;
  auto interval = std::chrono::milliseconds(250);
  while (true) {
    auto pending = Pending(all, true);
    if (pending.empty()) return;  // what could not be read up front (an invalid key, a kind not served) stays so
    if (ctx.clock.Steady() >= deadline) {
      ctx.err << "Timed out after " << timeout.count() << "s: " << pending.size()
              << (pending.size() == 1 ? " object is" : " objects are") << " not Current.\n";
      return;
    }
    ctx.clock.SleepFor(interval);
    interval = std::min(std::chrono::milliseconds(2000), interval * 2);
    std::map<const state::WaitItem*, std::string> before;
    for (auto* item : pending) before[item] = StatusWord(*item) + item->last.message;
    reader.Read(pending);
    for (auto& t : all) {
      const auto it = before.find(&t.item);
      if (it == before.end() || it->second == StatusWord(t.item) + t.item.last.message) continue;
      Fill(t);
      ctx.err << "status: " << WaitObjectName(t.item) << ": " << t.row.status
              << (t.row.message.empty() ? "" : " (" + t.row.message + ")") << "\n";
    }
  }
}

nlohmann::json RowList(const Rows& rows) {
  std::vector<nlohmann::json> items;
  for (const auto& r : rows) {
    items.push_back({{"manifest", r.manifest}, {"key", r.key_string}, {"apiVersion", r.key.ApiVersion()},
                     {"kind", r.key.kind}, {"namespace", r.key.namespace_name}, {"name", r.key.name},
                     {"status", r.status}, {"message", r.message}});
    if (!r.uid.empty()) items.back()["uid"] = r.uid;
  }
  return print::ListOf(std::move(items));
}

void PrintRowTable(const Rows& rows, print::Format format, bool no_headers, std::ostream& out) {
  const bool wide = format == print::Format::kWide;
  print::Table t;
  t.headers = {"MANIFEST", "APIVERSION", "KIND", "NAMESPACE", "NAME", "STATUS", "MESSAGE"};
  if (wide) t.headers.push_back("UID");
  for (const auto& r : rows) {
    t.rows.push_back({r.manifest, r.key.ApiVersion(), r.key.kind, r.key.namespace_name, r.key.name, r.status, r.message});
    if (wide) t.rows.back().push_back(r.uid);
  }
  print::PrintTable(out, t, !no_headers);
}

}  // namespace

util::Status StateStatusOptions::Complete(Context& ctx, const FlagSet& flags) {
  auto format = print::ParseFormat(output, {"table", "wide", "json", "yaml", "name"});
  if (!format) return format.error();
  auto parsed = kube::ParseTimeout(timeout);
  if (!parsed || *parsed < std::chrono::seconds(1)) {
    return util::MakeError(util::ErrorKind::kUsage,
                           "invalid --timeout \"" + timeout + "\": use a duration of at least a second, e.g. 5m or 90s");
  }
  watch_timeout = std::chrono::duration_cast<std::chrono::seconds>(*parsed);
  auto parsed_selector = util::ParseLabelSelector(selector);
  if (!parsed_selector) return parsed_selector.error();
  label_selector = std::move(*parsed_selector);
  read_file = flags.Changed("file") || ctx.files.Exists(file.file);
  print::Renderers<Rows> renderers;
  renderers.machine = RowList;
  renderers.names = [](const Rows& rows) {
    std::vector<print::ObjectRef> refs;
    for (const auto& r : rows) refs.push_back({r.key.group, r.key.kind, r.key.kind.empty() ? r.key_string : r.key.name});
    return refs;
  };
  renderers.human = [no_headers = no_headers, err = &ctx.err](const Rows& r, print::Format f, std::ostream& out) {
    PrintRowTable(r, f, no_headers, out);
    if (r.empty()) *err << "No state found.\n";
  };
  printer = print::NewPrinter(*format, std::move(renderers));
  return util::Ok();
}

util::Status StateStatusOptions::Validate() const {
  if (all && !file.manifests.empty()) {
    return util::MakeError(util::ErrorKind::kUsage, "--all and -m/--manifest cannot be used together");
  }
  return util::Ok();
}

util::Result<int> StateStatusOptions::Run(Context& ctx) {
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  kube::Client& client = *(*session)->client;
  auto tracked = Collect(ctx, *this, client);
  if (!tracked) return tracked.error();
  if (!label_selector.empty()) {
    if (auto st = KeepSelected(ctx, *this, **session, *tracked); !st) return st.error();
  }
  state::ReadinessWaiter reader(client, ctx.clock, (*session)->log);
  reader.Read(Pending(*tracked, false));
  if (watch) {
    Watch(ctx, *tracked, reader, watch_timeout);
    reader.Read(Pending(*tracked, false));  // what was Current may have changed since: the rows say now
  }
  Rows rows;
  size_t unknown = 0, not_current = 0;
  std::string first_error;
  for (auto& t : *tracked) {
    Fill(t);
    if (t.row.status == "Unknown") {
      if (unknown++ == 0) first_error = StrCat(t.row.key.kind, " ", NamespacedName(t.row.key), ": ", t.row.message);
    } else if (t.row.status != "Current") {
      ++not_current;
    }
    rows.push_back(std::move(t.row));
  }
  printer->Print(rows, ctx.out);
  if (unknown > 0) {
    ctx.err << "error: the status of " << unknown << (unknown == 1 ? " object" : " objects") << " is unknown: "
            << first_error << "\n";
    return kExitRefused;
  }
  return not_current == 0 ? kExitOk : kExitDifferences;
}

Command NewStateStatusCommand() {
  auto o = std::make_shared<StateStatusOptions>();
  Command c = Describe("state status", "Show whether every object tazuna recorded is ready now", LongDesc(R"(
      Read every object tazuna recorded and judge it by the rules a sync waits with (kstatus's, stricter
      where README.md says): Current, InProgress, Failed, NotFound (gone from the cluster), Terminating
      (being deleted; the message names the finalizers it waits for), or Unknown (it could not be read).
      One request per kind and namespace (a LIST; a GET for a single object), never one per object.

      The manifests are those of tazuna.yaml that have a state; with --all, or without a tazuna.yaml, every
      state in the cluster; -m names states directly, so a manifest no longer in tazuna.yaml can be checked.
      With -w the objects that are not Current are read again until all are, or --timeout passes.
      -l keeps the objects whose labels, as tazuna.yaml renders them now, match (it renders their manifests).

      Exit status: 0 Every object is Current. 1 Some object is not. >1 An error occurred, or the status of
      some object could not be read.
  )"));
  c.examples = Examples(R"(
      # Is everything tazuna installed ready now?
      kubectl tazuna state status

      # One manifest, as JSON
      kubectl tazuna state status -m cni -o json

      # Only the objects tazuna.yaml renders with label app=web
      kubectl tazuna state status -l app=web

      # Wait up to two minutes for everything to become ready
      kubectl tazuna state status -w --timeout 2m
  )");
  c.exit_style = ExitStyle::kDiff;
  c.exit_one = "objects not current (in progress, failed or not found)";
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kFileManifestAndEnvironment);
    f.Bool(&o->all, "all", 0, "Every state in the cluster, not only the file's manifests.");
    f.Bool(&o->watch, "watch", 'w', "Read again until every object is Current or --timeout passes.");
    f.String(&o->timeout, "timeout", 0, "How long -w waits (e.g. 5m, 90s).");
    AddSelectorFlag(f, o->selector);
    AddTableOutputFlags(f, o->output, o->no_headers, "table, wide, json, yaml, name");
    AddClusterFlags(f, o->connection, o->fleet, nullptr);
  };
  return RunsOverFleet(std::move(c), o, [o] {
    FleetRequest r = FleetRequestOf(*o, FleetMode::kParallel, {.noun = "object", .lines_are_rows = false});
    return r;
  });
}

}  // namespace tazuna::cli
