#include "state/apply/takeover_apply.hpp"

#include <utility>

#include "util/strings.hpp"

namespace tazuna::state {

using nlohmann::json;
using util::StrCat;

namespace {

constexpr int kStripAttempts = 5;  // kubectl's migration retries its patch as often

const json& MetadataOf(const json& object) {
  static const json kNone = json::object();
  if (!object.is_object()) return kNone;
  const auto it = object.find("metadata");
  return it != object.end() && it->is_object() ? *it : kNone;
}

std::string Str(const json& object, const char* field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

json ManagedFieldsOf(const json& object) {
  const json& meta = MetadataOf(object);
  const auto it = meta.find("managedFields");
  return it != meta.end() && it->is_array() ? *it : json::array();
}

std::string Describe(const kube::ObjectRef& ref) {
  return StrCat(ref.kind, " ", ref.namespace_name.empty() ? "" : ref.namespace_name + "/", ref.name);
}

}  // namespace

kube::ObjectRef RefOf(const json& object) {
  if (!object.is_object()) return {};
  const json& meta = MetadataOf(object);
  return {Str(object, "apiVersion"), Str(object, "kind"), Str(meta, "namespace"), Str(meta, "name")};
}

util::Result<FieldSet> StripOnServer(const TakeoverContext& c, const kube::ObjectRef& ref, TakeoverState seen) {
  for (int attempt = 1;; ++attempt) {
    FieldSet moved;
    auto stripped = StripTakenOver(seen.managed_fields, c.managers, &moved);
    // Without a resourceVersion the patch would be unconditional: it could drop what someone just wrote.
    if (!stripped || seen.resource_version.empty()) return FieldSet();
    const json patch = json::array({
        {{"op", "replace"}, {"path", "/metadata/managedFields"}, {"value", std::move(*stripped)}},
        // "replace", not "test": a changed object is then a 409 Conflict from storage, as kubectl relies on.
        {{"op", "replace"}, {"path", "/metadata/resourceVersion"}, {"value", seen.resource_version}},
    });
    auto patched = c.client.JsonPatch(ref, patch, c.dry_run);
    if (patched) return moved;
    if (kube::IsReason(patched.error(), "NotFound")) return FieldSet();
    if (!kube::IsReason(patched.error(), "Conflict") || attempt == kStripAttempts) return patched.error();
    auto live = c.client.Get(ref);
    if (!live) return kube::IsReason(live.error(), "NotFound") ? util::Result<FieldSet>(FieldSet()) : live.error();
    seen.resource_version = Str(MetadataOf(*live), "resourceVersion");
    seen.managed_fields = ManagedFieldsOf(*live);
  }
}

util::Result<SimulatedRemoval> SimulateRemoval(kube::Client& client, const json& merged, const FieldSet& paths) {
  const std::vector<FieldPath> top = paths.TopPaths();
  json body = merged;
  for (const auto& p : top) RemoveField(body, p);
  // managedFields in an update replace the object's; resourceVersion stays, as custom resources need it.
  if (body.contains("metadata") && body["metadata"].is_object()) body["metadata"].erase("managedFields");
  auto stored = client.Update(body, kube::DryRun::kAll);
  if (!stored) return stored.error();
  SimulatedRemoval out{std::move(*stored), {}};
  for (const auto& p : top) {
    const json* before = FindField(merged, p);
    const json* after = FindField(out.object, p);
    if (before != nullptr && (after == nullptr || *after != *before)) out.removed.push_back(p);
  }
  return out;
}

util::Status ApplyTakeover::Before(const json& object) {
  if (state_ == nullptr || state_->adopting) return util::Ok();
  if (c_.dry_run == kube::DryRun::kAll) {  // nothing is written; After shows what this would let go
    StripTakenOver(state_->managed_fields, c_.managers, &moved_);
    return util::Ok();
  }
  const kube::ObjectRef ref = RefOf(object);
  auto moved = StripOnServer(c_, ref, *state_);
  if (!moved) {
    const auto tools = ReadFieldOwners(state_->managed_fields, c_.managers).tool_managers;
    return moved.error().WithContext(StrCat("take over the fields of ", util::Join(tools, ", ")));
  }
  moved_ = std::move(*moved);
  if (!moved_.empty()) c_.log.Log(2, StrCat(Describe(ref), ": fields of earlier tools taken over"));
  return util::Ok();
}

std::string ApplyTakeover::After(const json& applied) {
  if (state_ == nullptr || !applied.is_object()) return "";
  const json fields = ManagedFieldsOf(applied);
  std::vector<FieldPath> removed;
  const FieldSet released = moved_.empty() ? FieldSet() : Released(moved_, ReadFieldOwners(fields, c_.managers));
  if (!released.empty() && c_.dry_run == kube::DryRun::kAll) {
    auto simulated = SimulateRemoval(c_.client, applied, released);
    removed = simulated ? std::move(simulated->removed) : released.TopPaths();
    if (!simulated) c_.log.Log(2, "cannot check what the take-over removes: " + simulated.error().message);
  } else if (!released.empty()) {
    for (auto& p : released.TopPaths()) {
      if (FindField(applied, p) == nullptr) removed.push_back(std::move(p));  // the apply removed it
    }
  }
  if (state_->adopting && c_.dry_run == kube::DryRun::kNone) {
    const kube::ObjectRef ref = RefOf(applied);
    auto moved = StripOnServer(c_, ref, {Str(MetadataOf(applied), "resourceVersion"), fields, false});
    if (!moved) {
      c_.log.Warning(StrCat(Describe(ref), ": cannot take over the fields of earlier tools yet (the next sync that "
                            "changes it does): ", moved.error().message));
    } else if (!moved->empty()) {
      const auto tools = ReadFieldOwners(fields, c_.managers).tool_managers;
      c_.log.Log(2, StrCat(Describe(ref), ": fields of ", util::Join(tools, ", "), " taken over"));
    }
  }
  return removed.empty() ? "" : "removed " + DescribeFields(removed);
}

TakeoverPreview PreviewTakeover(const TakeoverContext& c, const json& live, json merged, PreviewScope scope) {
  TakeoverPreview out;
  FieldSet moved;
  StripTakenOver(ManagedFieldsOf(live), c.managers, &moved);  // what a sync's Before would move
  const FieldOwners after = WithWrittenFields(ReadFieldOwners(ManagedFieldsOf(merged), c.managers), merged);
  const FieldSet released = moved.empty() ? FieldSet() : Released(moved, after);
  const FieldSet remove = scope == PreviewScope::kLeftovers ? Leftovers(after).Union(released) : released;
  if (remove.empty()) {
    out.merged = std::move(merged);
    return out;
  }
  auto simulated = SimulateRemoval(c.client, merged, remove);
  if (!simulated) {
    out.warning = StrCat(Describe(RefOf(merged)), ": cannot check the fields earlier tools left (",
                         simulated.error().message, ")");
    out.merged = std::move(merged);
    return out;
  }
  for (auto& p : simulated->removed) (released.Contains(p) ? out.removed : out.leftovers).push_back(std::move(p));
  out.merged = scope == PreviewScope::kSync ? std::move(simulated->object) : std::move(merged);
  return out;
}

}  // namespace tazuna::state
