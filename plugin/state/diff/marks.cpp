#include "state/diff/marks.hpp"

#include "state/store/applyset.hpp"
#include "util/json_get.hpp"

namespace tazuna::state {

nlohmann::json MarkedMetadata(const nlohmann::json& object, const Marks& marks) {
  nlohmann::json meta = object.is_object() && object.contains("metadata") ? object["metadata"] : nlohmann::json();
  if (!meta.is_object()) meta = nlohmann::json::object();
  for (const char* field : {"labels", "annotations"}) {
    if (!meta[field].is_object()) meta[field] = nlohmann::json::object();
  }
  meta["labels"][kManagedByLabel] = kManagedByValue;
  meta["annotations"][kManifestAnnotation] = marks.manifest;
  if (!marks.origin.empty()) meta["annotations"][kOriginAnnotation] = marks.origin;
  meta["labels"][kApplySetPartOfLabel] = ApplySetId(marks.manifest);
  return meta;
}

nlohmann::json WithOwnershipMarks(const nlohmann::json& object, const Marks& marks) {
  if (!object.is_object()) return object;
  nlohmann::json out = object;
  out["metadata"] = MarkedMetadata(object, marks);
  return out;
}

bool CarriesMarks(const nlohmann::json& live, const Marks& marks) {
  const nlohmann::json& annotations = util::JsonObject(util::JsonObject(live, "metadata"), "annotations");
  if (util::JsonString(annotations, kManifestAnnotation) != marks.manifest) return false;
  return marks.origin.empty() || util::JsonString(annotations, kOriginAnnotation) == marks.origin;
}

}  // namespace tazuna::state
