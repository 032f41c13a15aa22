#include "state/live_compare.hpp"

#include "state/marks.hpp"

namespace tazuna::state {

using nlohmann::json;

namespace {

// Fields the server changes on every write or that say nothing about content.
json Normalized(json object) {
  if (!object.is_object()) return object;  // a server answer of another shape: compared as it is
  object.erase("status");
  if (object.contains("metadata") && object["metadata"].is_object()) {
    for (const char* field : {"managedFields", "resourceVersion", "generation", "creationTimestamp", "uid"}) {
      object["metadata"].erase(field);
    }
  }
  return object;
}

bool IsGone(const util::Error& e) { return kube::IsReason(e, "NotFound") || e.kind == util::ErrorKind::kNotFound; }

}  // namespace

util::Result<std::optional<json>> GetLive(kube::Client& client, const StateKey& k, const std::string& ns) {
  auto live = client.Get({k.ApiVersion(), k.kind, ns, k.name});
  if (live) return std::optional<json>(std::move(*live));
  if (IsGone(live.error())) return std::optional<json>();
  return live.error();
}

util::Result<json> DryRunApply(kube::Client& client, const json& rendered, const std::string& manifest) {
  kube::ApplyOptions dry;
  dry.dry_run = kube::DryRun::kAll;
  return client.Apply(WithOwnershipMarks(rendered, manifest), dry);
}

bool SameContent(const json& live, const json& merged) { return Normalized(live) == Normalized(merged); }

}  // namespace tazuna::state
