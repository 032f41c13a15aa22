// SyncEngine's apply or replace: a Job or Pod whose immutable fields changed is deleted and created again,
// as the Go tool does, when it is tazuna's to delete and the new object passes a dry-run create first.
#include <algorithm>

#include "state/apply/ownership.hpp"
#include "state/apply/sync_engine.hpp"
#include "state/apply/takeover_apply.hpp"
#include "state/diff/live_compare.hpp"
#include "state/diff/marks.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

// Why `live` may not be deleted to be created again, or "": tazuna's field manager must own fields of it,
// no other manifest or repository may have marked it, and no controller may own it (a StatefulSet's Pod,
// a CronJob's Job would be replaced behind the controller's back).
std::string NotOursToRecreate(const json& live, const Marks& marks) {
  const LiveOwner owner = OwnerOf(live);
  if (!owner.tazuna_manager) return "managed by " + (owner.managers.empty() ? std::string("nobody") : util::Join(owner.managers, ", "));
  if (!owner.manifest.empty() && owner.manifest != marks.manifest) return "owned by manifest " + util::Quote(owner.manifest);
  if (!owner.origin.empty() && owner.origin != marks.origin) return "owned by repository " + Origin::FromMark(owner.origin).Describe();
  for (const auto& ref : util::JsonArray(util::JsonObject(live, "metadata"), "ownerReferences")) {
    if (util::JsonBool(ref, "controller")) return StrCat("controlled by ", util::JsonString(ref, "kind"), " ", util::JsonString(ref, "name"));
  }
  return "";
}

bool IsRecreatable(const json& object) {
  const std::string api_version = util::JsonString(object, "apiVersion"), kind = util::JsonString(object, "kind");
  return (api_version == "batch/v1" && kind == "Job") || (api_version == "v1" && kind == "Pod");
}

// An Invalid answer whose every cause is an immutable field (a Job's template or selector, a Pod's spec):
// the one answer that recreating the object can cure.
bool OnlyImmutableFields(const util::Error& e) {
  if (!kube::IsReason(e, "Invalid")) return false;
  const auto immutable = [](const std::string& cause) {
    return cause.find("field is immutable") != std::string::npos ||
           cause.find("pod updates may not change fields") != std::string::npos;
  };
  if (e.detail_lines.empty()) return immutable(e.message);
  return std::all_of(e.detail_lines.begin(), e.detail_lines.end(), immutable);
}

}  // namespace

util::Result<kube::ApplyResult> SyncEngine::ApplyOrReplace(Task& task, const json& metadata, bool want_object,
                                                           const SyncOptions& o) {
  const json& object = *task.object;
  kube::ApplyOptions apply;
  apply.dry_run = o.dry_run;
  apply.metadata = &metadata;
  apply.want_object = want_object;
  auto applied = client_.ApplyObject(object, apply);
  // A custom resource whose CRD was established moments ago: discovery can lag for a few seconds.
  const int retries = crds_applied_ ? 40 : 0;  // an unknown kind with no new CRD fails at once
  for (int i = 0; i < retries && !applied && applied.error().kind == util::ErrorKind::kNotFound; ++i) {
    clock_.SleepFor(std::chrono::milliseconds(250));
    applied = client_.ApplyObject(object, apply);
  }
  if (applied || o.dry_run == kube::DryRun::kAll || !IsRecreatable(object) || !OnlyImmutableFields(applied.error())) {
    return applied;
  }
  task.recreated = true;
  return Recreate(object, apply, Marks{task.entry->manifest, o.origin.Mark()});
}

// A create whose answer was lost is sent again (server-side apply), and the second answer may refuse what
// the first created (an admission rule on updates): the object with our marks on the server says so.
bool SyncEngine::ExistsMarked(const json& object, const Marks& marks) {
  const kube::ObjectRef ref = RefOf(object);
  auto live = client_.Get(ref);
  return !live ? !kube::IsReason(live.error(), "NotFound") : CarriesMarks(*live, marks);  // unknown: keep it
}

// Jobs and Pods cannot change most fields in place: when the server answered only that such fields are
// immutable, the object is deleted and created again, as the Go tool does, if it is ours to delete
// (NotOursToRecreate). Before the delete, a dry-run create of the new object must pass validation and
// admission (AlreadyExists is the answer that says so), so that a Job which could not be created again
// is never deleted.
util::Result<kube::ApplyResult> SyncEngine::Recreate(const json& object, const kube::ApplyOptions& apply,
                                                     const Marks& marks) {
  const kube::ObjectRef ref = RefOf(object);
  auto live = client_.Get(ref);
  if (!live) return kube::IsReason(live.error(), "NotFound") ? client_.ApplyObject(object, apply) : live.error();
  if (auto why = NotOursToRecreate(*live, marks); !why.empty()) {
    auto e = util::MakeError(util::ErrorKind::kConflict,
                             StrCat("fields that cannot change changed, and the live ", ref.kind, " is not tazuna's to "
                                    "delete and create again: ", why));
    e.hint = "Delete it yourself (kubectl delete), then sync again.";
    return e;
  }
  json marked = object;
  marked["metadata"] = *apply.metadata;
  if (auto probe = client_.Create(marked, kube::DryRun::kAll); !probe && !kube::IsReason(probe.error(), "AlreadyExists")) {
    return probe.error();
  }
  const std::string uid = util::MetaString(*live, "uid");
  if (uid.empty()) {  // an unconditional DELETE could hit whatever holds the name by then
    return util::MakeError(util::ErrorKind::kConflict, "cannot delete and create again: the server's answer holds no uid for it");
  }
  if (auto st = client_.Delete(ref, kube::Propagation::kBackground, kube::DryRun::kNone, {uid, ""});
      !st && !kube::IsReason(st.error(), "NotFound")) {
    return st.error();
  }
  for (int i = 0; i < 300; ++i) {  // until that object is gone (or replaced by someone else's)
    auto got = client_.Get(ref);
    if (!got && kube::IsReason(got.error(), "NotFound")) break;
    if (got && util::MetaString(*got, "uid") != uid) break;
    clock_.SleepFor(std::chrono::seconds(1));
  }
  return client_.ApplyObject(object, apply);
}

}  // namespace tazuna::state
