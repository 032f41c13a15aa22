#include "state/marks.hpp"

#include "state/applyset.hpp"

namespace tazuna::state {

nlohmann::json MarkedMetadata(const nlohmann::json& object, const std::string& manifest) {
  nlohmann::json meta = object.is_object() && object.contains("metadata") ? object["metadata"] : nlohmann::json();
  if (!meta.is_object()) meta = nlohmann::json::object();
  for (const char* field : {"labels", "annotations"}) {
    if (!meta[field].is_object()) meta[field] = nlohmann::json::object();
  }
  meta["labels"][kManagedByLabel] = kManagedByValue;
  meta["annotations"][kManifestAnnotation] = manifest;
  meta["labels"][kApplySetPartOfLabel] = ApplySetId(manifest);
  return meta;
}

nlohmann::json WithOwnershipMarks(const nlohmann::json& object, const std::string& manifest) {
  if (!object.is_object()) return object;
  nlohmann::json out = object;
  out["metadata"] = MarkedMetadata(object, manifest);
  return out;
}

}  // namespace tazuna::state
