#include "state/prune/deleter.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

#include "state/apply/ownership.hpp"
#include "state/diff/live_compare.hpp"
#include "state/prune/namespace_contents.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;
using Verdict = DeleteOutcome::Verdict;

namespace {

/// How many times a Namespace's contents are listed while only owned objects are left (2 s apart).
constexpr int kNamespaceLooks = 4;

constexpr int kDeleteAttempts = 3;  // a live object that changes between GET and DELETE is read again

bool IsGone(const util::Error& e) { return kube::IsReason(e, "NotFound") || e.kind == util::ErrorKind::kNotFound; }

// tazuna's field manager owns fields of it: applied by us or the Go tool (server-side apply), or
// written by the Go tool's early Update under the manager `tazuna`.
bool ManagedByTazuna(const json& live) {
  const json& fields = util::JsonArray(util::JsonObject(live, "metadata"), "managedFields");
  return std::any_of(fields.begin(), fields.end(), [](const json& f) { return util::JsonString(f, "manager") == "tazuna"; });
}

// kind/namespace/name, for finding the same object rendered under another group.
std::string KindNamespaceName(const ObjectIdentity& id) {
  return StrCat(id.kind, "\x1f", id.namespace_name, "\x1f", id.name);
}

DeleteOutcome Kept(std::string note, bool forget = false) {
  DeleteOutcome out;
  out.note = std::move(note);
  out.forget = forget;
  return out;
}

DeleteOutcome Failed(util::Error error) {
  DeleteOutcome out;
  out.verdict = Verdict::kFailed;
  out.error = std::move(error);
  return out;
}

}  // namespace

Deleter::Deleter(kube::Client& client, DeleteScope scope, AdaptiveLimit* limit, std::function<bool()> may_write)
    : client_(client), scope_(std::move(scope)), limit_(limit), may_write_(std::move(may_write)) {
  for (const auto& [id, manifest] : scope_.rendered) {
    by_kind_name_.emplace(KindNamespaceName(id), id);
    if (!id.namespace_name.empty()) ++in_namespace_[id.namespace_name];
  }
}

template <class F>
auto Deleter::Limited(F&& request) -> decltype(request()) {
  if (limit_ == nullptr) return request();
  return RunLimited(*limit_, client_, std::forward<F>(request));
}

const std::string* Deleter::RenderedBy(const ObjectIdentity& id) const {
  const auto it = scope_.rendered.find(id);
  return it == scope_.rendered.end() ? nullptr : &it->second;
}

DeleteOutcome Deleter::Delete(const DeleteTarget& t, Phase phase) {
  for (int attempt = 1; attempt <= kDeleteAttempts; ++attempt) {
    // Through the version that serves the object now, whatever version its key was recorded under.
    auto read = Limited([&] { return ReadLive(client_, t.key, t.identity.namespace_name, &crds_); });
    if (!read) return Failed(read.error());
    if (!read->object) {  // NotFound where it is served, or no version of it is served at all
      DeleteOutcome gone;
      gone.verdict = Verdict::kGone;
      gone.note = "already gone";
      return gone;
    }
    const json& live = *read->object;
    DeleteOutcome out;
    if (!NotOurs(t, live, out).empty()) return out;
    auto other = RenderedInOtherGroup(t.identity, live);
    if (!other) {  // a check that cannot look keeps the object, and fails the run
      DeleteOutcome unknown = Kept(StrCat("cannot tell whether it is still rendered under another group: ", other.error().message));
      unknown.refused = true;
      return unknown;
    }
    if (*other) return Kept(StrCat("still rendered as ", **other), true);
    if (!AsPlanned(t, live, out)) return out;  // the keeps above delete nothing; from here on, a delete may follow
    if (auto why = CascadeGuard(phase, t.identity, live); !why.empty()) return Kept(why);
    const kube::Preconditions pre{util::MetaString(live, "uid"), util::MetaString(live, "resourceVersion")};
    if (pre.uid.empty()) {  // without a uid precondition the DELETE would hit whatever holds the name then
      DeleteOutcome unknown = Kept("the server's answer holds no uid for it; not deleted");
      unknown.refused = true;
      return unknown;
    }
    // A custom resource goes in the foreground: it stays (and is waited for) until the objects it owns are
    // gone, so a child whose finalizer never finishes is seen, not left behind.
    const auto propagation = phase == Phase::kRest && !BuiltinGroup(t.key.group) ? kube::Propagation::kForeground
                                                                                   : kube::Propagation::kBackground;
    if (may_write_ && !may_write_()) return Kept("sync stopped");  // the fence right before the write
    auto st = Limited([&] { return client_.Delete(read->ref, propagation, scope_.dry_run, pre); });
    if (st) {
      std::lock_guard<std::mutex> lock(mu_);
      deleted_uids_.insert(pre.uid);
      DeleteOutcome deleted;
      deleted.verdict = Verdict::kDeleted;
      return deleted;
    }
    // Gone since it was read, or changed or replaced by a new object: read it again, check again.
    if (!IsGone(st.error()) && !kube::IsReason(st.error(), "Conflict")) return Failed(st.error());
  }
  return Kept("kept changing while being pruned; not deleted");
}

// Why `live` is not this state's to delete (`out` says so), or "" when it is: tazuna's field manager must
// own fields of it, and neither another manifest nor another repository marked it.
std::string Deleter::NotOurs(const DeleteTarget& t, const json& live, DeleteOutcome& out) const {
  if (!ManagedByTazuna(live)) {
    out = Kept("not managed by tazuna");
    out.forgettable = true;
    return out.note;
  }
  const LiveOwner owner = OwnerOf(live);
  if (!owner.manifest.empty() && owner.manifest != t.manifest) {
    out = Kept(StrCat("owned by manifest ", util::Quote(owner.manifest)), true);  // taken over: not ours any more
    return out.note;
  }
  static const Metadata kNoState;
  if (const std::string repo = ForeignOrigin(owner, scope_.origin, t.state ? *t.state : kNoState); !repo.empty()) {
    // another repository's, whatever our state says
    out = Kept(StrCat("owned by repository ", Origin::FromMark(repo).Describe()), true);
    return out.note;
  }
  return "";
}

// Another group serving the same resource (events, once extensions/networking ingresses) renders this very
// object when the live uids agree: returns that object's apiVersion and kind.
// A group that is not served, or an object that is not there, renders nothing; any other failure is an
// error (the object is then kept: it may be rendered).
util::Result<std::optional<std::string>> Deleter::RenderedInOtherGroup(const ObjectIdentity& id, const json& live) {
  const auto [first, last] = by_kind_name_.equal_range(KindNamespaceName(id));
  for (auto it = first; it != last; ++it) {
    const ObjectIdentity& other_id = it->second;
    if (other_id.group == id.group) continue;
    auto served = client_.ResolveGroupKind(other_id.group, other_id.kind);
    if (!served && served.error().kind == util::ErrorKind::kNotFound) {
      // Not listed is "not served" only when the group's API server answers discovery.
      auto all = client_.Served();
      if (!all) return all.error();
      if (const std::string gv = StaleVersionOf(all->stale, other_id.group); !gv.empty()) {
        return util::MakeError(util::ErrorKind::kApi, StrCat("API ", gv, " is unavailable (its APIService does not answer)"));
      }
      continue;
    }
    if (!served) return served.error();
    const std::string api_version =
        other_id.group.empty() ? served->version : StrCat(other_id.group, "/", served->version);
    auto other = Limited([&] {
      return client_.Get({api_version, other_id.kind, other_id.namespace_name, other_id.name});
    });
    if (!other && IsGone(other.error())) continue;
    if (!other) return other.error();
    if (util::MetaString(*other, "uid") == util::MetaString(live, "uid")) {
      return std::optional<std::string>(StrCat(api_version, " ", other_id.kind));
    }
  }
  return std::optional<std::string>();
}

// With a plan, whether `live` is the very object the plan was checked against (DeleteScope::planned_uids);
// when not, `out` keeps it, refused: it was made again, or made where none was, during this run.
bool Deleter::AsPlanned(const DeleteTarget& t, const json& live, DeleteOutcome& out) const {
  if (!scope_.planned_uids) return true;
  const auto it = scope_.planned_uids->find(t.identity);
  const std::string planned = it == scope_.planned_uids->end() ? "" : it->second;
  const std::string uid = util::MetaString(live, "uid");
  if (!planned.empty() && planned == uid) return true;
  out = Kept(planned.empty() ? StrCat("not pruned: created since the plan (uid ", uid, ")")
                             : StrCat("not pruned: created again since the plan (uid ", planned, ", now ", uid, ")"));
  out.refused = true;
  return false;
}

// Why deleting would take more with it: custom resources of a CRD (other than those this run deleted),
// objects tazuna renders inside a Namespace. Empty when the delete may go ahead.
std::string Deleter::CascadeGuard(Phase phase, const ObjectIdentity& id, const json& live) {
  if (phase == Phase::kNamespace) return NamespaceGuard(id.name);
  if (phase != Phase::kCrd) return "";
  auto remaining = RemainingCustomResources(live);
  if (!remaining) return "cannot list its custom resources: " + remaining.error().message;
  if (*remaining > 0) return StrCat(*remaining, " custom resource", *remaining == 1 ? " of it exists" : "s of it exist");
  return "";
}

// A Namespace takes everything in it along: it goes only when all that lives there is deleted by this run.
std::string Deleter::NamespaceGuard(const std::string& ns) {
  if (const auto it = in_namespace_.find(ns); it != in_namespace_.end()) {
    return StrCat(it->second, " rendered objects live in it");
  }
  std::vector<std::string> left;
  // Dependents whose owner this run deleted may outlive it a moment (the garbage collector removes a
  // Deployment's ReplicaSets before their Pods): when only objects with owners are left, look again.
  for (int look = 1;; ++look) {
    auto occupants = ListOccupants(client_, ns);
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

util::Result<int> Deleter::RemainingCustomResources(const json& crd) {
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
  auto items = Limited([&] { return client_.List(StrCat(group, "/", version), kind, ""); });
  if (!items) return items.error();
  std::lock_guard<std::mutex> lock(mu_);
  int count = 0;
  for (const auto& item : *items) count += deleted_uids_.count(util::MetaString(item, "uid")) == 0 ? 1 : 0;
  return count;
}

}  // namespace tazuna::state
