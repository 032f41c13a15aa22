#include "util/secret_mask.hpp"

namespace tazuna::util {

bool IsSecret(const nlohmann::json& object) {
  if (!object.is_object() || object.value("kind", "") != "Secret") return false;
  // Logged API bodies may omit apiVersion (list items); a group's own "Secret" kind is not masked.
  const std::string api_version = object.value("apiVersion", "");
  return api_version.empty() || api_version == "v1";
}

bool MaskSecretValues(nlohmann::json& object,
                      const std::function<std::string(std::string_view field, const std::string& key)>& mask) {
  if (!IsSecret(object)) return false;
  bool masked = false;
  for (const char* field : {"data", "stringData"}) {
    if (!object.contains(field) || !object[field].is_object()) continue;
    for (auto& [key, value] : object[field].items()) value = mask(field, key);
    masked = true;
  }
  return masked;
}

bool MaskSecretValues(nlohmann::json& object) {
  return MaskSecretValues(object, [](std::string_view, const std::string&) { return std::string(kSecretMask); });
}

}  // namespace tazuna::util
