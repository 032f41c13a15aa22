// SyncEngine::Prune: deletes removed objects after every apply, in reverse dependency order, and only
// what tazuna provably manages and nothing still renders.
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "state/live_compare.hpp"
#include "state/namespace_contents.hpp"
#include "state/ownership.hpp"
#include "state/sync_engine.hpp"
#include "util/json_get.hpp"
#include "util/parallel.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

/// How many times a Namespace's contents are listed while only owned objects are left (2 s apart).
constexpr int kNamespaceLooks = 4;

constexpr int kDeleteAttempts = 3;  // a live object that changes between GET and DELETE is read again

// 0: ordinary objects (custom resources included), 1: CRDs, 2: Namespaces.
int PruneRank(const StateKey& k) {
  if (k.group.empty() && k.kind == "Namespace") return 2;
  if (k.group == "apiextensions.k8s.io" && k.kind == "CustomResourceDefinition") return 1;
  return 0;
}

bool IsGone(const util::Error& e) { return kube::IsReason(e, "NotFound") || e.kind == util::ErrorKind::kNotFound; }

std::string Meta(const json& object, const char* field) {
  const auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return "";
  const auto it = meta->find(field);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : "";
}

// tazuna's field manager owns fields of it: applied by us or the Go tool (server-side apply), or
// written by the Go tool's early Update under the manager `tazuna`.
bool ManagedByTazuna(const json& live) {
  const auto meta = live.find("metadata");
  if (meta == live.end() || !meta->is_object()) return false;
  const auto fields = meta->find("managedFields");
  if (fields == meta->end() || !fields->is_array()) return false;
  for (const auto& f : *fields) {
    if (util::JsonString(f, "manager") == "tazuna") return true;
  }
  return false;
}

// kind/namespace/name, for finding the same object rendered under another group.
std::string KindNamespaceName(const ObjectIdentity& id) {
  return StrCat(id.kind, "\x1f", id.namespace_name, "\x1f", id.name);
}

}  // namespace

struct SyncEngine::PruneTask {
  const DiffEntry* entry = nullptr;
  const ManifestState* stored = nullptr;  ///< the state the entry is in, as read
  bool empty_manifest = false;            ///< its manifest renders nothing
  SyncResult result;
};

// One prune: the guards that need no request, then per object (a rank at a time) the live checks
// and the delete.
class SyncEngine::PruneRun {
 public:
  PruneRun(SyncEngine& engine, Checkpointer& cp, const SyncOptions& o) : e_(engine), cp_(cp), o_(o) {}

  void Index(const std::vector<SyncInput>& inputs) {
    for (const auto& in : inputs) {
      for (const auto& d : in.desired.objects) rendered_.emplace(d.identity, in.desired.name);
    }
    rendered_.insert(o_.others.rendered_elsewhere.begin(), o_.others.rendered_elsewhere.end());
    for (const auto& [id, manifest] : rendered_) {
      by_kind_name_.emplace(KindNamespaceName(id), id);
      if (!id.namespace_name.empty()) ++in_namespace_[id.namespace_name];
    }
  }

  // Decides what needs no request; true when the task still needs the cluster.
  bool Screen(PruneTask& t, int failed_applies) {
    const DiffEntry& e = *t.entry;
    if (!e.valid_key) return InvalidKey(t);
    if (auto it = rendered_.find(e.identity); it != rendered_.end()) {
      return Keep(t, StrCat("still rendered by manifest ", util::Quote(it->second)), Forget::kYes);
    }
    const Forget when_pruning = o_.prune ? Forget::kYes : Forget::kNo;
    if (IsReserved(e.identity)) return Keep(t, "tazuna's own object; never pruned", when_pruning);
    if (PruneRank(e.parsed) == 2 && IsProtectedNamespace(e.identity.name)) {
      return Keep(t, StrCat("namespace ", e.identity.name, " is never pruned"), when_pruning);
    }
    if (!o_.prune) return Keep(t, "", Forget::kNo);
    if (ClaimedByThisRun(*t.stored)) return Keep(t, "state claimed in this run; prune runs on the next sync", Forget::kNo);
    if (failed_applies > 0) {
      return Keep(t, StrCat("not pruned: ", failed_applies, failed_applies == 1 ? " apply" : " applies", " failed"),
                  Forget::kNo);
    }
    if (!o_.others.elsewhere_error.empty()) {
      t.result.refused = true;
      return Keep(t, "not pruned: " + o_.others.elsewhere_error, Forget::kNo);
    }
    if (t.empty_manifest && !o_.allow_empty) {
      t.result.refused = true;
      return Keep(t, "not pruned: the manifest renders no objects; pass --allow-empty to prune it", Forget::kNo);
    }
    return true;
  }

  // Reads the live object and deletes it when every check passes.
  void PruneOne(PruneTask& t, int rank) {
    if (!e_.MayWrite(o_)) {
      Keep(t, "sync stopped", Forget::kNo);
      return;
    }
    for (int attempt = 1; attempt <= kDeleteAttempts; ++attempt) {
      // Through the version that serves the object now, whatever version its key was recorded under.
      const auto& where = t.entry->identity.namespace_name;
      auto read = e_.Limited([&] { return ReadLive(e_.client_, t.entry->parsed, where, &crds_); });
      if (!read) return Fail(t, read.error());
      if (!read->object) return Gone(t);  // NotFound where it is served, or no version of it is served at all
      const kube::ObjectRef* ref = &read->ref;
      const json* live = &*read->object;
      if (auto why = NotOurs(t, *live); !why.empty()) return;
      if (auto other = RenderedInOtherGroup(*t.entry, *live)) {
        Keep(t, StrCat("still rendered as ", *other), Forget::kYes);
        return;
      }
      if (!AsPlanned(t, *live)) return;  // the keeps above delete nothing; from here on, a delete may follow
      if (auto why = CascadeGuard(rank, t.entry->identity, *live); !why.empty()) {
        Keep(t, why, Forget::kNo);
        return;
      }
      const kube::Preconditions pre{Meta(*live, "uid"), Meta(*live, "resourceVersion")};
      auto st = e_.Limited([&] { return e_.client_.Delete(*ref, kube::Propagation::kBackground, o_.dry_run, pre); });
      if (st) return Deleted(t, pre.uid);
      // Gone since it was read, or changed or replaced by a new object: read it again, check again.
      if (!IsGone(st.error()) && !kube::IsReason(st.error(), "Conflict")) return Fail(t, st.error());
    }
    Keep(t, "kept changing while being pruned; not deleted", Forget::kNo);
  }

 private:
  enum class Forget { kYes, kNo };

  // With --plan, whether `live` is the very object the plan was checked against (PruneScope::planned_uids);
  // when not, the row is kept, refused: it was made again, or made where none was, during this sync.
  bool AsPlanned(PruneTask& t, const json& live) {
    if (!o_.others.planned_uids) return true;
    const auto it = o_.others.planned_uids->find(t.entry->identity);
    const std::string planned = it == o_.others.planned_uids->end() ? "" : it->second;
    const std::string uid = Meta(live, "uid");
    if (!planned.empty() && planned == uid) return true;
    t.result.refused = true;
    Keep(t, planned.empty() ? StrCat("not pruned: created since the plan (uid ", uid, ")")
                            : StrCat("not pruned: created again since the plan (uid ", planned, ", now ", uid, ")"),
         Forget::kNo);
    return false;
  }

  // Why `live` is not this state's to delete (the row is kept, saying so), or "" when it is: tazuna's
  // field manager must own fields of it, and neither another manifest nor another repository marked it.
  std::string NotOurs(PruneTask& t, const json& live) {
    if (!ManagedByTazuna(live)) {
      Keep(t, "not managed by tazuna", Forget::kNo);
      t.result.forgettable = true;
      return t.result.note;
    }
    const LiveOwner owner = OwnerOf(live);
    if (!owner.manifest.empty() && owner.manifest != t.result.manifest) {
      Keep(t, StrCat("owned by manifest ", util::Quote(owner.manifest)), Forget::kYes);  // taken over: not ours any more
      return t.result.note;
    }
    if (const std::string repo = ForeignOrigin(owner, o_.origin, t.stored->metadata); !repo.empty()) {
      Keep(t, StrCat("owned by repository ", Origin::FromMark(repo).Describe()), Forget::kYes);  // another repository's, whatever our state says
      return t.result.note;
    }
    return "";
  }

  // Another group serving the same resource (events, once extensions/networking ingresses) renders
  // this very object when the live uids agree: returns that object's apiVersion and kind.
  std::optional<std::string> RenderedInOtherGroup(const DiffEntry& e, const json& live) {
    const auto [first, last] = by_kind_name_.equal_range(KindNamespaceName(e.identity));
    for (auto it = first; it != last; ++it) {
      const ObjectIdentity& id = it->second;
      if (id.group == e.identity.group) continue;
      auto served = e_.client_.ResolveGroupKind(id.group, id.kind);
      if (!served) continue;
      const std::string api_version = id.group.empty() ? served->version : StrCat(id.group, "/", served->version);
      auto other = e_.Limited([&] { return e_.client_.Get({api_version, id.kind, id.namespace_name, id.name}); });
      if (other && Meta(*other, "uid") == Meta(live, "uid")) return StrCat(api_version, " ", id.kind);
    }
    return std::nullopt;
  }

  // Why deleting would take more with it: custom resources of a CRD (other than those this prune
  // deleted), objects tazuna renders inside a Namespace. Empty when the delete may go ahead.
  std::string CascadeGuard(int rank, const ObjectIdentity& id, const json& live) {
    if (rank == 2) return NamespaceGuard(id.name);
    if (rank != 1) return "";
    auto remaining = RemainingCustomResources(live);
    if (!remaining) return "cannot list its custom resources: " + remaining.error().message;
    if (*remaining > 0) return StrCat(*remaining, " custom resource", *remaining == 1 ? "" : "s", " of it exist");
    return "";
  }

  // A Namespace takes everything in it along: it goes only when all that lives there is deleted by this run.
  std::string NamespaceGuard(const std::string& ns) {
    if (const auto it = in_namespace_.find(ns); it != in_namespace_.end()) {
      return StrCat(it->second, " rendered objects live in it");
    }
    std::vector<std::string> left;
    // Dependents whose owner this run deleted may outlive it a moment (the garbage collector removes a
    // Deployment's ReplicaSets before their Pods): when only objects with owners are left, look again.
    for (int look = 1;; ++look) {
      auto occupants = ListOccupants(e_.client_, ns);
      if (!occupants) return "cannot read what lives in it: " + occupants.error().message;
      {
        std::lock_guard<std::mutex> lock(mu_);
        left = Unaccounted(*occupants, deleted_uids_);
      }
      if (left.empty()) return "";
      if (look >= kNamespaceLooks || !OnlyDependentsLeft(*occupants, left)) break;
      std::this_thread::sleep_for(std::chrono::seconds(2));
    }
    constexpr size_t kNamed = 5;
    std::string names = util::Join(std::vector<std::string>(left.begin(), left.begin() + std::min(left.size(), kNamed)), ", ");
    if (left.size() > kNamed) names += ", ...";
    return StrCat(left.size(), left.size() == 1 ? " object" : " objects", " not deleted by this run: ", names);
  }

  util::Result<int> RemainingCustomResources(const json& crd) {
    const json& spec = util::JsonObject(crd, "spec");
    const std::string group = util::JsonString(spec, "group");
    const std::string kind = util::JsonString(util::JsonObject(spec, "names"), "kind");
    std::string version;
    for (const auto& v : util::JsonArray(spec, "versions")) {
      if (!util::JsonBool(v, "served")) continue;
      if (version.empty() || util::JsonBool(v, "storage")) version = util::JsonString(v, "name");
    }
    // Custom resources stay stored while no version is served, and deleting the CRD deletes them: what
    // cannot be counted keeps it.
    if (version.empty()) return util::MakeError(util::ErrorKind::kApi, "no version of it is served");
    auto items = e_.Limited([&] { return e_.client_.List(StrCat(group, "/", version), kind, ""); });
    if (!items) return items.error();
    std::lock_guard<std::mutex> lock(mu_);
    int count = 0;
    for (const auto& item : *items) count += deleted_uids_.count(Meta(item, "uid")) == 0 ? 1 : 0;
    return count;
  }

  // A stored key that does not parse, or names no object a request could reach: an error naming the key,
  // never a request; `state forget` drops it.
  bool InvalidKey(PruneTask& t) {
    auto parsed = ParseStateKey(t.result.key);
    const std::string problem = parsed ? KeyNameProblem(*parsed).value_or("") : parsed.error().message;
    t.result.Fail(util::MakeError(util::ErrorKind::kInput,
                                  StrCat("invalid state key ", util::Quote(t.result.key), ": ", problem)));
    t.result.forgettable = true;
    return false;
  }

  bool Keep(PruneTask& t, std::string note, Forget forget) {
    t.result.verb = Verb::kKept;
    t.result.note = std::move(note);
    if (forget == Forget::kYes && o_.dry_run == kube::DryRun::kNone) cp_.Set(t.result.manifest, t.result.key, std::nullopt);
    return false;
  }
  void Gone(PruneTask& t) {
    t.result.verb = Verb::kDeleted;
    t.result.note = "already gone";
    if (o_.dry_run == kube::DryRun::kNone) cp_.Set(t.result.manifest, t.result.key, std::nullopt);
  }
  void Deleted(PruneTask& t, const std::string& uid) {
    t.result.verb = Verb::kDeleted;
    {
      std::lock_guard<std::mutex> lock(mu_);
      deleted_uids_.insert(uid);
    }
    if (o_.dry_run == kube::DryRun::kNone) cp_.Set(t.result.manifest, t.result.key, std::nullopt);
  }
  void Fail(PruneTask& t, util::Error error) {
    t.result.Fail(std::move(error));
  }

  SyncEngine& e_;
  Checkpointer& cp_;
  const SyncOptions& o_;
  std::map<ObjectIdentity, std::string> rendered_;          // identity -> manifest rendering it
  std::multimap<std::string, ObjectIdentity> by_kind_name_;  // kind/namespace/name -> rendered identities
  std::map<std::string, int> in_namespace_;                  // namespace -> rendered objects in it
  std::mutex mu_;
  std::set<std::string> deleted_uids_;  // guarded by mu_
  CrdIndex crds_;  // for rows of a kind nothing serves: listed once per prune
};

void SyncEngine::Prune(std::vector<SyncInput>& inputs, Checkpointer& cp, const SyncOptions& o,
                       std::vector<SyncResult>& out) {
  int failed_applies = 0;
  for (const auto& r : out) failed_applies += IsFailure(r.verb) ? 1 : 0;
  PruneRun run(*this, cp, o);
  run.Index(inputs);
  std::vector<PruneTask> ranks[3];
  std::vector<PruneTask> screened;
  for (const auto& in : inputs) {
    for (auto it = in.diff.rbegin(); it != in.diff.rend(); ++it) {
      if (it->type != ChangeType::kRemoved) continue;
      PruneTask t{&*it, &in.stored, in.desired.objects.empty(), MakeResult(it->manifest, it->key, it->identity.namespace_name, Verb::kKept, it->old_hash)};
      if (run.Screen(t, failed_applies)) {
        ranks[PruneRank(it->parsed)].push_back(std::move(t));
      } else {
        screened.push_back(std::move(t));
      }
    }
  }
  for (int rank = 0; rank < 3; ++rank) {
    auto& tasks = ranks[rank];
    util::ParallelFor(tasks.size(), o.concurrency, [&](size_t i) {
      run.PruneOne(tasks[i], rank);
      Tick();
      if (o.dry_run == kube::DryRun::kNone) {
        if (auto st = cp.MaybeFlush(); !st) Abort(st.error());
      }
    });
    for (auto& t : tasks) out.push_back(std::move(t.result));
  }
  for (auto& t : screened) {
    if (o.prune) Tick();
    out.push_back(std::move(t.result));
  }
}

}  // namespace tazuna::state
