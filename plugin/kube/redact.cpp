#include "kube/redact.hpp"

#include <nlohmann/json.hpp>

#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

constexpr char kMask[] = "***";

bool MaskSecret(nlohmann::json& obj) {
  if (!obj.is_object()) return false;
  bool changed = false;
  const std::string kind = obj.value("kind", "");
  if (kind == "Secret") {
    for (const char* field : {"data", "stringData"}) {
      if (!obj.contains(field) || !obj[field].is_object()) continue;
      for (auto& [key, value] : obj[field].items()) value = kMask;
      changed = true;
    }
  }
  if (kind == "ExecCredential" && obj.contains("status") && obj["status"].is_object()) {
    for (auto& [key, value] : obj["status"].items()) {
      if (key != "expirationTimestamp") value = kMask;
    }
    changed = true;
  }
  if (obj.contains("items") && obj["items"].is_array()) {
    for (auto& item : obj["items"]) changed = MaskSecret(item) || changed;
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
