#include "util/json_get.hpp"

#include <limits>

namespace tazuna::util {

using nlohmann::json;

namespace {

// Immutable shared answers for "absent" (const statics, never written).
const json& Null() {
  static const json kNull;
  return kNull;
}
const json& EmptyObject() {
  static const json kObject = json::object();
  return kObject;
}
const json& EmptyArray() {
  static const json kArray = json::array();
  return kArray;
}

}  // namespace

const json& JsonField(const json& object, std::string_view key) {
  if (!object.is_object()) return Null();
  const auto it = object.find(key);
  return it == object.end() ? Null() : *it;
}

const json& JsonObject(const json& object, std::string_view key) {
  const json& value = JsonField(object, key);
  return value.is_object() ? value : EmptyObject();
}

const json& JsonArray(const json& object, std::string_view key) {
  const json& value = JsonField(object, key);
  return value.is_array() ? value : EmptyArray();
}

std::string JsonString(const json& object, std::string_view key, std::string_view fallback) {
  const json& value = JsonField(object, key);
  return value.is_string() ? value.get_ref<const std::string&>() : std::string(fallback);
}

int64_t JsonInt(const json& object, std::string_view key, int64_t fallback) {
  const json& value = JsonField(object, key);
  if (value.is_number_unsigned()) {
    const auto u = value.get<uint64_t>();
    return u <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) ? static_cast<int64_t>(u) : fallback;
  }
  return value.is_number_integer() ? value.get<int64_t>() : fallback;
}

bool JsonBool(const json& object, std::string_view key, bool fallback) {
  const json& value = JsonField(object, key);
  return value.is_boolean() ? value.get<bool>() : fallback;
}

json& WritableObject(json& parent, std::string_view key) {
  if (!parent.is_object()) parent = json::object();
  json& child = parent[std::string(key)];
  if (!child.is_object()) child = json::object();
  return child;
}

bool NestsDeeperThan(std::string_view text, size_t limit) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;  // the escaped character cannot end the string
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > limit) return true;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return false;
}

std::string MetaString(const json& object, std::string_view field) {
  return JsonString(JsonObject(object, "metadata"), field);
}

}  // namespace tazuna::util
