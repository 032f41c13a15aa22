// kubectl tazuna state history [REVISION] [-m NAME]... [-o table|wide|json|yaml|name] [--no-headers]
#include "cli/state_history.hpp"

#include <algorithm>

#include "cli/print/table.hpp"
#include "kube/resource_names.hpp"
#include "state/apply/ownership.hpp"
#include "state/store/state_key.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

using state::Revision;

constexpr char kUlidAlphabet[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZabcdefghjkmnpqrstvwxyz";

std::string Started(const Revision& r) {
  std::chrono::system_clock::time_point t;
  return util::ParseRfc3339(r.started_at, &t) ? util::FormatRfc3339(t) : r.started_at;
}

std::string Duration(const Revision& r) {
  std::chrono::system_clock::time_point start, end;
  if (!util::ParseRfc3339(r.started_at, &start) || !util::ParseRfc3339(r.finished_at, &end)) return "-";
  return FormatDuration(std::chrono::duration_cast<std::chrono::milliseconds>(end - start));
}

std::string Commit(const Revision& r) {
  if (r.git_commit.empty()) return "-";
  return r.git_commit.substr(0, 12) + (r.git_dirty ? "-dirty" : "");
}

std::string Selection(const state::RevisionSelection& s) {
  const std::string flags = state::SelectionFlags(s);
  return flags.empty() ? "all" : flags;
}

void PrintRevisions(const std::vector<Revision>& revisions, bool wide, bool headers, std::ostream& out) {
  print::Table t;
  t.headers = {"REVISION", "STARTED", "DURATION", "USER", "COMMIT", "STATUS", "CHANGES"};
  if (wide) t.headers.insert(t.headers.end(), {"VERSION", "SELECTION", "PLAN", "ORIGIN"});
  for (const auto& r : revisions) {
    std::vector<std::string> cells = {r.id,      Started(r), Duration(r), r.user, Commit(r), state::RevisionStatusName(r.status),
                                      state::ChangeSummary(r)};
    if (wide) {
      cells.insert(cells.end(), {r.version, Selection(r.selection), r.plan_digest.empty() ? "-" : r.plan_digest.substr(0, 19),
                                 r.origin.empty() ? "<none>" : r.origin});
    }
    t.rows.push_back(std::move(cells));
  }
  print::PrintTable(out, t, headers);
}

void PrintObjects(const Revision& r, bool wide, bool headers, std::ostream& out) {
  print::Table t;
  t.headers = {"MANIFEST", "VERB", "APIVERSION", "KIND", "NAMESPACE", "NAME"};
  if (wide) t.headers.insert(t.headers.end(), {"OLD-HASH", "NEW-HASH"});
  for (const auto& o : r.objects) {
    auto k = state::ParseStateKey(o.key);
    const state::StateKey key = k ? *k : state::StateKey{o.manifest, "", "", "", "", o.key};
    const std::string& ns = o.namespace_name.empty() ? key.namespace_name : o.namespace_name;
    std::vector<std::string> cells = {o.manifest, o.verb, key.ApiVersion(), key.kind, ns, key.name};
    if (wide) cells.insert(cells.end(), {o.old_hash.substr(0, 12), o.new_hash.substr(0, 12)});
    t.rows.push_back(std::move(cells));
  }
  print::PrintTable(out, t, headers);
}

nlohmann::json WithSummary(const Revision& r) {
  nlohmann::json j = state::RevisionToJson(r);
  j["changes"] = state::ChangeSummary(r);
  return j;
}

// `-o name` for one revision: its objects; a key that does not parse is named by the key itself.
std::vector<print::ObjectRef> RevisionObjectNames(const Revision& r) {
  std::vector<print::ObjectRef> refs;
  for (const auto& o : r.objects) {
    auto k = state::ParseStateKey(o.key);
    refs.push_back(k ? print::ObjectRef{k->group, k->kind, k->name} : print::ObjectRef{"", "", o.key});
  }
  return refs;
}

// Whether `r` was made from `origin`: a repository (any file of it) or a whole mark (repository:path).
bool FromOrigin(const Revision& r, const std::string& origin) {
  if (origin.empty()) return true;
  if (r.origin.empty()) return false;
  if (origin.find(':') != std::string::npos && r.origin == origin) return true;
  return state::Origin::FromMark(r.origin).repository == state::NormalizeRepository(origin);
}

// The object --object names: its kind and group as the server resolved them, its name, and with -n its
// namespace (where the object is: the key's, or the one the record gives for a key without one).
struct ObjectFilter {
  std::string group, kind, name, namespace_name;
  bool Matches(const state::RevisionObject& o) const {
    auto k = state::ParseStateKey(o.key);
    if (!k || k->group != group || k->kind != kind || k->name != name) return false;
    const std::string& ns = o.namespace_name.empty() ? k->namespace_name : o.namespace_name;
    return namespace_name.empty() || ns == namespace_name;
  }
};

bool SyncedAny(const Revision& r, const std::vector<std::string>& manifests) {
  return std::any_of(manifests.begin(), manifests.end(), [&](const std::string& m) {
    return std::find(r.manifests.begin(), r.manifests.end(), m) != r.manifests.end();
  });
}

}  // namespace

std::string FormatDuration(std::chrono::milliseconds d) {
  const long long ms = std::max<long long>(d.count(), 0);
  if (ms < 1000) return util::StrCat(ms, "ms");
  if (ms < 10000) return util::StrCat(ms / 1000, ".", (ms % 1000) / 100, "s");
  const long long s = ms / 1000;
  if (s < 60) return util::StrCat(s, "s");
  if (s < 3600) return util::StrCat(s / 60, "m", s % 60, "s");
  return util::StrCat(s / 3600, "h", (s % 3600) / 60, "m");
}

util::Status StateHistoryOptions::Complete(Context& ctx, const FlagSet&, const std::vector<std::string>& a) {
  args = a;
  revision = args.empty() ? "" : args.front();
  if (output == "name" && revision.empty()) {  // a list of revisions names no objects
    return util::MakeError(util::ErrorKind::kUsage, "-o name lists the objects of one revision: give a REVISION");
  }
  auto format = print::ParseFormat(output, {"table", "wide", "json", "yaml", "name"});
  if (!format) return format.error();
  print::Renderers<StateHistoryResult> renderers;
  renderers.names = [](const StateHistoryResult& r) {
    return r.revision ? RevisionObjectNames(*r.revision) : std::vector<print::ObjectRef>{};
  };
  renderers.machine = [](const StateHistoryResult& r) {
    if (r.revision) return WithSummary(*r.revision);
    std::vector<nlohmann::json> items;
    for (const auto& rev : r.revisions) items.push_back(WithSummary(rev));
    return print::ListOf(std::move(items));
  };
  renderers.human = [headers = !no_headers, err = &ctx.err](const StateHistoryResult& r, print::Format f,
                                                            std::ostream& out) {
    const bool wide = f == print::Format::kWide;
    if (!r.revision) {
      PrintRevisions(r.revisions, wide, headers, out);
      if (r.revisions.empty()) *err << "No history found.\n";
      return;
    }
    PrintObjects(*r.revision, wide, headers, out);
    if (r.revision->objects_omitted > 0) {
      *err << "Revision " << r.revision->id << " changed " << r.revision->objects_omitted
           << " objects, too many to list: only counts were recorded (" << state::ChangeSummary(*r.revision) << ").\n";
    } else if (r.revision->objects.empty()) {
      *err << "Revision " << r.revision->id << " changed no objects.\n";
    }
  };
  printer = print::NewPrinter(*format, std::move(renderers));
  return util::Ok();
}

util::Status StateHistoryOptions::Validate() const {
  if (args.size() > 1) {
    return util::MakeError(util::ErrorKind::kUsage, "state history takes at most one REVISION argument");
  }
  if (!object.empty()) {
    const size_t slash = object.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == object.size() ||
        object.find('/', slash + 1) != std::string::npos) {
      return util::MakeError(util::ErrorKind::kUsage,
                             util::StrCat("invalid --object ", util::Quote(object), ": give TYPE/NAME, e.g. deployment/web"));
    }
  }
  const bool ulid_chars = revision.find_first_not_of(kUlidAlphabet) == std::string::npos;
  if (!revision.empty() && (!ulid_chars || revision.size() > 26)) {
    return util::MakeError(util::ErrorKind::kUsage,
                           util::StrCat("invalid revision ", util::Quote(revision), ": give a ULID or a prefix of one"));
  }
  return util::Ok();
}

util::Result<int> StateHistoryOptions::Run(Context& ctx) {
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  std::optional<ObjectFilter> filter;
  if (!object.empty()) {  // TYPE as kubectl get takes it (deploy, deployments.apps), resolved by the server
    const size_t slash = object.find('/');
    auto type = kube::ResolveResourceType(*(*session)->client, object.substr(0, slash));
    if (!type) return type.error();
    filter = ObjectFilter{type->group, type->kind, object.substr(slash + 1),
                          type->namespaced ? connection.kube.namespace_name : ""};
  }
  state::HistoryStore store(*(*session)->client);
  auto revisions = store.List((*session)->log);
  if (!revisions) return revisions.error();
  auto lease = store.ReadLease();
  if (!lease) return lease.error();
  const auto now = ctx.clock.Now();
  StateHistoryResult result;
  for (auto& r : *revisions) {
    r.status = state::EffectiveStatus(r, *lease, now);
    if (!manifests.empty() && !SyncedAny(r, manifests)) continue;
    if (!FromOrigin(r, origin)) continue;
    // With REVISION, --object picks its rows, not whether it is found.
    const bool changed_it = filter && std::any_of(r.objects.begin(), r.objects.end(), [&](const auto& o) { return filter->Matches(o); });
    if (filter && revision.empty() && !changed_it) continue;
    result.revisions.push_back(std::move(r));
  }
  if (!revision.empty()) {
    auto found = state::FindRevision(result.revisions, revision);
    if (!found) return found.error();
    if (!manifests.empty()) {
      std::erase_if(found->objects, [&](const state::RevisionObject& o) {
        return std::find(manifests.begin(), manifests.end(), o.manifest) == manifests.end();
      });
    }
    if (filter) {
      std::erase_if(found->objects, [&](const state::RevisionObject& o) { return !filter->Matches(o); });
    }
    result.revision = std::move(*found);
  }
  printer->Print(result, ctx.out);
  return kExitOk;
}

Command NewStateHistoryCommand() {
  auto o = std::make_shared<StateHistoryOptions>();
  Command c = Describe("state history", "List the syncs that wrote to the cluster, or the objects one of them changed",
                       LongDesc(R"(
      Every sync that writes records a revision in namespace tazuna (a ConfigMap tazuna-revision-<ULID>):
      when it started and how long it took, the user the apiserver saw, the git commit (-dirty when the
      work tree had changes), the selection, the counts per verb, and the changed objects with their old
      and new hashes (never values). A sync that is killed reads as interrupted once its lock has expired.
      A sync keeps the newest --history-limit revisions (default 20) of its own repository and file (the
      record's origin); other repositories' records are never counted or deleted by it.

      With REVISION (a ULID, or a unique prefix of one) the objects that revision changed are listed.
  )"));
  c.examples = Examples(R"(
      # Who synced what, and when
      kubectl tazuna state history

      # The objects one revision changed, with hashes
      kubectl tazuna state history 01JD3 -o wide

      # Only syncs of the cni manifest, as JSON
      kubectl tazuna state history -m cni -o json

      # The syncs of one repository that changed the Deployment web
      kubectl tazuna state history --origin github.com/org/platform --object deployment.apps/web
  )");
  c.args_usage = "[REVISION]";
  c.add_flags = [o](FlagSet& f) {
    f.StringArray(&o->manifests, "manifest", 'm', "Only revisions that synced these manifests (repeatable).");
    f.String(&o->origin, "origin", 0,
             "Only revisions synced from this repository (as state list -o wide shows it), or repository:path.");
    f.String(&o->object, "object", 0,
             "Only revisions that changed this object, TYPE/NAME as kubectl get takes it (in namespace -n when given).");
    AddTableOutputFlags(f, o->output, o->no_headers, "table, wide, json, yaml, name (with REVISION)");
    AddClusterFlags(f, o->connection, o->fleet, nullptr);
  };
  return RunsOverFleet(std::move(c), o, [o] {
    return FleetRequestOf(*o, FleetMode::kParallel, {.noun = "row", .lines_are_rows = false});
  });
}

}  // namespace tazuna::cli
