#include "state/marks.hpp"

#include "state/applyset.hpp"

namespace tazuna::state {

nlohmann::json WithOwnershipMarks(const nlohmann::json& object, const std::string& manifest) {
  nlohmann::json out = object;
  if (!out.is_object()) return out;
  nlohmann::json& meta = out["metadata"];
  if (!meta.is_object()) meta = nlohmann::json::object();
  for (const char* field : {"labels", "annotations"}) {
    if (!meta[field].is_object()) meta[field] = nlohmann::json::object();
  }
  meta["labels"][kManagedByLabel] = kManagedByValue;
  meta["annotations"][kManifestAnnotation] = manifest;
  meta["labels"][kApplySetPartOfLabel] = ApplySetId(manifest);
  return out;
}

}  // namespace tazuna::state
