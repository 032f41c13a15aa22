#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace tazuna::kube {

/// The identity fields of an object the server returned.
struct ObjectMeta {
  std::string uid;
  std::string resource_version;
};

/// metadata.uid and metadata.resourceVersion of the JSON object in `body`, read without building the
/// document (a CRD's apply response can be several hundred kilobytes). kApi error on invalid JSON.
util::Result<ObjectMeta> ReadObjectMeta(std::string_view body);

/// The JSON text of `object` with `metadata` in place of its own metadata (added when it has none),
/// written without copying the object.
std::string JsonWithMetadata(const nlohmann::json& object, const nlohmann::json& metadata);

}  // namespace tazuna::kube
