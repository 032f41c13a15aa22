#include "state/store/content_hash.hpp"

#include <array>
#include <string_view>

#include "util/go_json.hpp"
#include "util/sha256.hpp"

namespace tazuna::state {
namespace {

// Server-populated fields, exactly the list in the Go tool's hash.go. Nothing else is stripped.
constexpr std::array<std::string_view, 6> kServerMetadataFields = {
    "resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink"};

}  // namespace

std::string ContentHashInput(const nlohmann::json& object) {
  if (!object.is_object()) return util::GoJsonMarshal(object);
  nlohmann::json copy = object;
  auto metadata = copy.find("metadata");
  if (metadata != copy.end() && metadata->is_object()) {
    for (std::string_view field : kServerMetadataFields) metadata->erase(std::string(field));
  }
  copy.erase("status");
  return util::GoJsonMarshal(copy);
}

std::string ContentHash(const nlohmann::json& object) {
  return util::Sha256Hex(ContentHashInput(object));
}

}  // namespace tazuna::state
