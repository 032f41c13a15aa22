#include "kube/redact.hpp"

#include <nlohmann/json.hpp>

#include "util/secret_mask.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

bool MaskSecret(nlohmann::json& obj) {
  if (!obj.is_object()) return false;
  bool changed = util::MaskSecretValues(obj);
  if (obj.value("kind", "") == "ExecCredential" && obj.contains("status") && obj["status"].is_object()) {
    for (auto& [key, value] : obj["status"].items()) {
      if (key != "expirationTimestamp") value = util::kSecretMask;
    }
    changed = true;
  }
  if (obj.contains("items") && obj["items"].is_array()) {
    // The items of a SecretList response carry no kind of their own: they are Secrets all the same.
    const bool secret_list = obj.value("kind", "") == "SecretList";
    for (auto& item : obj["items"]) {
      const bool unnamed = secret_list && item.is_object() && !item.contains("kind");
      if (unnamed) item["kind"] = "Secret";
      changed = MaskSecret(item) || changed;
      if (unnamed) item.erase("kind");
    }
  }
  return changed;
}

}  // namespace

std::string RedactHeader(std::string_view name, std::string_view value) {
  const std::string lower = util::ToLower(name);
  if (lower != "authorization" && lower != "proxy-authorization") return std::string(value);
  const size_t space = value.find(' ');
  if (space == std::string_view::npos) return "<masked>";
  return std::string(value.substr(0, space)) + " <masked>";
}

std::string RedactBody(std::string_view body) {
  nlohmann::json doc = nlohmann::json::parse(body, nullptr, false);
  if (doc.is_discarded() || !MaskSecret(doc)) return std::string(body);
  return doc.dump();
}

}  // namespace tazuna::kube
