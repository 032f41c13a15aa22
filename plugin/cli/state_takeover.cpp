// kubectl tazuna state takeover [-f FILE] -m NAME...
#include "cli/state_takeover.hpp"

#include "cli/pipeline.hpp"
#include "manifest/select.hpp"
#include "state/store/lease.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

// Takes one manifest's state over: returns the line to print; sets `wrote` once its write is sent.
util::Result<std::string> TakeOver(state::StateStore& store, const std::string& manifest, const state::Origin& ours,
                                   bool& wrote) {
  auto st = store.Read(manifest);
  if (!st) return st.error();
  const std::string name = util::Quote(manifest);
  if (!st->exists()) return util::StrCat("manifest ", name, " has no state yet: its first sync makes it this repository's");
  const state::Origin theirs = st->metadata.origin;
  if (theirs == ours) return util::StrCat("manifest ", name, " is already managed from ", ours.Describe());
  if (!theirs.empty()) st->metadata.taken_from.push_back(theirs);
  st->metadata.origin = ours;
  auto w = store.Write(*st);
  wrote = wrote || w || w.error().MayHaveLanded();
  if (!w) return w.error().WithContext("take over manifest " + name);
  if (theirs.empty()) return util::StrCat("manifest ", name, " claimed (its state had no origin)");
  return util::StrCat("manifest ", name, " taken over from ", theirs.Describe());
}

}  // namespace

util::Status StateTakeoverOptions::Complete(Context&, const FlagSet&) { return util::Ok(); }

util::Status StateTakeoverOptions::Validate() const {
  if (file.manifests.empty()) {
    return util::MakeError(util::ErrorKind::kUsage, "name the manifests to take over with -m/--manifest");
  }
  return util::Ok();
}

util::Result<int> StateTakeoverOptions::Run(Context& ctx) {
  auto at = OpenSelected(ctx, file, connection);  // only manifests this tazuna.yaml has can be managed from it
  if (!at) return at.error();
  const Selection& selection = at->selection;
  kube::Client& client = at->client();
  util::Logger& log = at->log();
  // The context guard of tazuna.yaml holds here as for a sync: never take over another cluster's state.
  if (auto st = manifest::CheckContext(selection.file, client.config().context_name); !st) return st.error();
  const state::Origin ours = FindOrigin(ctx, selection.file.path, &log);
  auto lock = state::SyncLock::Acquire(client, ctx.clock, log, state::DefaultLockOptions());
  if (!lock) return lock.error();  // never while a sync of either repository runs
  state::StateStore store = NewStateStore(client);
  bool wrote = false;  // once a state was (or may have been) written, an error is part-way
  for (const auto* m : selection.manifests) {
    auto line = [&]() -> util::Result<std::string> {
      if (auto st = (*lock)->Check(); !st) return st.error();
      return TakeOver(store, m->name, ours, wrote);
    }();
    if (!line) return wrote ? line.error().PartWay() : line.error();
    ctx.out << *line << '\n';
  }
  return kExitOk;
}

Command NewStateTakeoverCommand() {
  auto o = std::make_shared<StateTakeoverOptions>();
  Command c = Describe("state takeover", "Manage a manifest's state from this repository from now on", LongDesc(R"(
      A state belongs to the repository (git remote and tazuna.yaml path) that first wrote it: syncs, diffs
      and forgets from any other repository are refused, and objects that repository applied are never
      changed or pruned from another one. Take a state over when a manifest moves to this repository:
      its origin becomes this repository, and the objects the former one applied become this state's.
      Nothing in the cluster but the state's _metadata is changed, and nothing is pruned; run state diff to
      see what the next sync will do.
  )"));
  c.writes = true;
  c.examples = Examples(R"(
      # The monitoring manifest moved here from another repository
      kubectl tazuna state takeover -m monitoring
      kubectl tazuna state diff -m monitoring
  )");
  c.add_flags = [o](FlagSet& f) {
    AddFileFlags(f, o->file, FileFlags::kFileManifestAndEnvironment);
    AddConnectionFlags(f, o->connection);
  };
  c.run = RunOptions(o);
  return c;
}

}  // namespace tazuna::cli
