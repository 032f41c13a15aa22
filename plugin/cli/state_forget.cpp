// kubectl tazuna state forget [-f FILE] [-m NAME] KEY... | --orphaned
#include "cli/state_forget.hpp"

#include <map>
#include <set>

#include "cli/orphans.hpp"
#include "cli/pipeline.hpp"
#include "manifest/select.hpp"
#include "state/store/lease.hpp"
#include "state/apply/ownership.hpp"
#include "state/store/state_key.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

// The spellings `key` may stand for, most literal first: the key itself (a ConfigMap data key is
// decoded), then, with -m, the key under that manifest (`-m web /v1/ConfigMap/default/cfg`).
std::vector<std::string> Spellings(const std::string& key, const std::string& manifest) {
  const std::string plain = key.find('/') == std::string::npos ? state::DecodeDataKey(key) : key;
  std::vector<std::string> out;
  auto parsed = state::ParseStateKey(plain);
  if (parsed && (manifest.empty() || parsed->manifest == manifest)) out.push_back(plain);
  if (!manifest.empty()) out.push_back(manifest + "/" + plain);
  return out;
}

// The entry `spelled` names in `st`: itself, or, for a namespaced kind (as `scopes` knows it) and a key
// naming the namespace the state recorded as its context namespace, the key without it (as state diff
// shows a moved object: under its namespace).
std::string StoredSpelling(const state::ManifestState& st, const std::string& spelled, manifest::ScopeLookup& scopes) {
  if (st.entries.count(spelled) > 0) return spelled;
  auto parsed = state::ParseStateKey(spelled);
  if (!parsed || parsed->namespace_name.empty() || parsed->namespace_name != st.metadata.context_namespace) return "";
  if (scopes.IsNamespaced(parsed->ApiVersion(), parsed->kind) != true) return "";
  parsed->namespace_name.clear();
  const std::string plain = parsed->ToString();
  return st.entries.count(plain) > 0 ? plain : "";
}

util::Result<std::unique_ptr<state::SyncLock>> Lock(Context& ctx, kube::Client& client, util::Logger& log) {
  state::LockOptions lo = state::DefaultLockOptions();
  return state::SyncLock::Acquire(client, ctx.clock, log, lo);
}

util::Status ForgetKeys(Context& ctx, state::StateStore& store, manifest::ScopeLookup& scopes,
                        const StateForgetOptions& o, const state::Origin& origin) {
  const std::string only = o.file.manifests.empty() ? "" : o.file.manifests.front();
  std::map<std::string, state::ManifestState> states;
  std::map<std::string, std::vector<std::string>> found;  // manifest -> keys to erase
  for (const auto& key : o.keys) {
    bool hit = false;
    for (const auto& spelled : Spellings(key, only)) {
      const std::string manifest = state::ParseStateKey(spelled) ? state::ParseStateKey(spelled)->manifest : "";
      if (manifest.empty()) continue;
      if (!states.count(manifest)) {
        auto read = store.Read(manifest);
        if (!read) return read.error();
        if (auto st = state::CheckOrigin(*read, origin); !st) return st;
        states.emplace(manifest, std::move(*read));
      }
      const std::string stored = StoredSpelling(states[manifest], spelled, scopes);
      if (stored.empty()) continue;
      found[manifest].push_back(stored);
      hit = true;
      break;
    }
    if (!hit) {
      return util::MakeError(util::ErrorKind::kNotFound, util::StrCat("no state entry ", util::Quote(key),
                                                                      only.empty() ? "" : " in manifest " + util::Quote(only)));
    }
  }
  bool wrote = false;
  for (auto& [manifest, keys] : found) {
    state::ManifestState& st = states[manifest];
    for (const auto& k : keys) st.entries.erase(k);
    if (auto w = store.Write(st); !w) {
      const util::Error e = w.error().WithContext("manifest " + util::Quote(manifest));
      return wrote || e.MayHaveLanded() ? e.PartWay() : e;
    }
    wrote = true;
    for (const auto& k : keys) ctx.out << "forgot " << k << '\n';
  }
  return util::Ok();
}

// Only states this repository wrote are its orphans: another repository's, and one without an origin
// (the Go tool's, or one nobody claimed), are listed and left alone. While objects a state records still
// live, nothing is forgotten (they would run on, tracked by nothing) unless --leave-objects says to.
util::Status ForgetOrphaned(Context& ctx, state::StateStore& store, kube::Client& client, const Selection& selection,
                            const StateForgetOptions& o, const state::Origin& origin, util::Logger& log) {
  if (auto st = CheckOrphanBasis(ctx, selection.file); !st) return st;
  auto orphans = FindOrphans(client, selection.file, origin);
  if (!orphans) return orphans.error();
  for (const auto& why : orphans->skipped) ctx.err << "skipped " << why << '\n';
  for (const auto& why : orphans->unreadable) ctx.err << "skipped " << why << '\n';  // not forgotten: safe
  for (const auto& st : orphans->ours) {
    if (o.leave_objects) break;
    auto live = LiveObjectsOf(client, st, log);
    if (live && live->count == 0) continue;
    const std::string what = live ? util::StrCat(live->count, live->count == 1 ? " object" : " objects",
                                                 " it recorded still live (", live->first, ")")
                                  : "whether its objects still live cannot be told: " + live.error().message;
    auto e = util::MakeError(util::ErrorKind::kConflict, util::StrCat("manifest ", util::Quote(st.manifest), ": ", what,
                                                                      "; nothing was forgotten"));
    e.hint = "Uninstall them with state delete --orphaned, or pass --leave-objects to forget the state and leave them running.";
    return e;
  }
  for (size_t i = 0; i < orphans->ours.size(); ++i) {
    const state::ManifestState& st = orphans->ours[i];
    if (auto d = store.Delete(st); !d) {
      // A state of spill shards is deleted base first: a later shard's failure comes after a delete.
      const util::Error e = d.error().WithContext("manifest " + util::Quote(st.manifest));
      return i > 0 || st.objects.size() > 1 || e.MayHaveLanded() ? e.PartWay() : e;
    }
    ctx.out << "forgot manifest " << util::Quote(st.manifest) << " (" << st.entries.size()
            << (st.entries.size() == 1 ? " entry" : " entries")
            << (o.leave_objects && !st.entries.empty() ? ", objects left running" : "") << ")\n";
  }
  if (orphans->ours.empty()) ctx.out << "No orphaned state found.\n";
  return util::Ok();
}

}  // namespace

util::Status StateForgetOptions::Complete(Context&, const FlagSet&, const std::vector<std::string>& args) {
  keys = args;
  return util::Ok();
}

util::Status StateForgetOptions::Validate() const {
  if (orphaned && !keys.empty()) return util::MakeError(util::ErrorKind::kUsage, "--orphaned takes no KEY arguments");
  if (leave_objects && !orphaned) return util::MakeError(util::ErrorKind::kUsage, "--leave-objects needs --orphaned");
  if (orphaned && !file.manifests.empty()) {
    return util::MakeError(util::ErrorKind::kUsage, "--orphaned and --manifest cannot be used together");
  }
  if (!orphaned && keys.empty()) {
    return util::MakeError(util::ErrorKind::kUsage, "give the state KEYs to forget, or --orphaned");
  }
  if (file.manifests.size() > 1) return util::MakeError(util::ErrorKind::kUsage, "--manifest may be given once");
  return util::Ok();
}

util::Result<int> StateForgetOptions::Run(Context& ctx) {
  std::optional<Selection> selection;
  if (orphaned) {  // which manifests are orphaned is read from tazuna.yaml, before anything is written
    auto loaded = LoadSelection(ctx, file);
    if (!loaded) return loaded.error();
    selection = std::move(*loaded);
  }
  auto session = OpenSession(ctx, connection);
  if (!session) return session.error();
  kube::Client& client = *(*session)->client;
  if (selection) {  // the context guard of tazuna.yaml: never forget another cluster's state as orphaned
    if (auto st = manifest::CheckContext(selection->file, client.config().context_name); !st) return st.error();
  }
  auto lock = Lock(ctx, client, (*session)->log);  // never edit state under a running sync
  if (!lock) return lock.error();
  state::StateStore store = NewStateStore(client);
  const state::Origin origin = FindOrigin(ctx, file.file, &(*session)->log);
  const auto scopes = NewDiscoveryScopes(client);
  const auto st = orphaned ? ForgetOrphaned(ctx, store, client, *selection, *this, origin, (*session)->log)
                            : ForgetKeys(ctx, store, *scopes, *this, origin);
  if (!st) return st.error();
  return kExitOk;
}

Command NewStateForgetCommand() {
  auto o = std::make_shared<StateForgetOptions>();
  Command c = Describe("state forget", "Remove entries from the recorded state without touching the cluster",
                       LongDesc(R"(
      Remove state entries (KEY as printed by 'state list -o json' or a kept sync row), or with --orphaned the
      whole state of manifests that are no longer in tazuna.yaml. Live objects are never touched: this is
      the way out for an object that sync keeps (for example one tazuna does not manage) and that should
      no longer be tracked. --orphaned forgets nothing while objects a state records still live (they would
      run on, tracked by nothing): uninstall them with state delete --orphaned, or say --leave-objects.
  )"));
  c.args_usage = "KEY... | --orphaned";
  c.writes = true;
  c.examples = Examples(R"(
      # Stop tracking one object
      kubectl tazuna state forget 'web//v1/ConfigMap/default/legacy'

      # The same, naming the manifest
      kubectl tazuna state forget -m web /v1/ConfigMap/default/legacy

      # Drop the state of manifests removed from tazuna.yaml whose objects are gone
      kubectl tazuna state forget --orphaned

      # ... or whose objects are to keep running, no longer tracked
      kubectl tazuna state forget --orphaned --leave-objects
  )");
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kFileManifestAndEnvironment);
    f.Bool(&o->orphaned, "orphaned", 0,
           "Forget the state of every manifest that tazuna.yaml no longer names (refused while objects it records "
           "live: uninstall them with state delete --orphaned).");
    f.Bool(&o->leave_objects, "leave-objects", 0,
           "With --orphaned: forget the states even while their objects live, leaving them running untracked.");
    AddConnectionFlags(f, o->connection);
  };
  c.run_with_args = RunOptionsWithArgs(o);
  return c;
}

}  // namespace tazuna::cli
