#include "util/secret_mask.hpp"

#include <algorithm>

#include "util/base64.hpp"
#include "util/json_get.hpp"

namespace tazuna::util {

using nlohmann::json;

namespace {

constexpr size_t kMinScrubbed = 3;
constexpr int kMaxCopyDepth = 8;  // JSON inside JSON inside an annotation: deeper copies are masked whole

using Masker = std::function<std::string(std::string_view field, const std::string& key)>;

// Every scalar in `value` replaced by `mask`, whatever the nesting; null (no value) stays.
void MaskScalars(json& value, const std::string& mask, int depth) {
  if (!value.is_structured()) {
    if (!value.is_null()) value = mask;
  } else if (depth > kMaxCopyDepth) {
    value = mask;
  } else {
    for (auto& member : value) MaskScalars(member, mask, depth + 1);
  }
}

bool MaskFields(json& object, const Masker& mask) {
  bool masked = false;
  for (const char* field : {"data", "stringData"}) {
    auto it = object.find(field);
    if (it == object.end() || it->is_null()) continue;
    if (it->is_object()) {
      for (auto& [key, value] : it->items()) value = mask(field, key);
    } else {
      // A mistyped Secret (`stringData: "value"`, a list): what it holds is a value all the same.
      MaskScalars(*it, mask(field, ""), 0);
    }
    masked = true;
  }
  return masked;
}

// A copy of a Secret somewhere in `value` (an object, a list of them, or JSON text): every `data` and
// `stringData` map in it is masked, whatever the kind says.
bool MaskCopies(json& value, int depth) {
  if (depth > kMaxCopyDepth) {
    value = std::string(kSecretMask);
    return true;
  }
  bool masked = false;
  if (value.is_object()) {
    masked = MaskFields(value, [](std::string_view, const std::string&) { return std::string(kSecretMask); });
    for (auto& [key, member] : value.items()) masked = MaskCopies(member, depth + 1) || masked;
  } else if (value.is_array()) {
    for (auto& member : value) masked = MaskCopies(member, depth + 1) || masked;
  } else if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    const size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos || (text[start] != '{' && text[start] != '[')) return false;
    json parsed = json::parse(text, nullptr, false);
    if (parsed.is_discarded() || !MaskCopies(parsed, depth + 1)) return false;
    value = parsed.dump();
    masked = true;
  }
  return masked;
}

bool MaskAnnotations(json& object) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return false;
  auto annotations = meta->find("annotations");
  if (annotations == meta->end() || !annotations->is_object()) return false;
  bool masked = false;
  for (auto& [key, value] : annotations->items()) masked = MaskCopies(value, 0) || masked;
  return masked;
}

void AddValue(std::string value, std::vector<std::string>& out) {
  if (value.size() >= kMinScrubbed) out.push_back(std::move(value));
}

// Every scalar under a value of `data`/`stringData`: a server echoes a wrongly typed value's parts
// (`got &value.valueUnstructured{Value:[]interface {}{"..."}}`), not the JSON it was sent as.
void CollectLeaves(const json& value, bool base64, int depth, std::vector<std::string>& out) {
  if (depth > kMaxCopyDepth) return;
  if (value.is_structured()) {
    for (const auto& member : value) CollectLeaves(member, base64, depth + 1, out);
    return;
  }
  if (value.is_null()) return;
  const std::string text = value.is_string() ? value.get<std::string>() : value.dump();
  AddValue(text, out);
  if (!base64) {
    AddValue(Base64Encode(text), out);
  } else if (auto decoded = Base64Decode(text)) {
    AddValue(std::move(*decoded), out);
  }
}

void CollectValues(const json& value, int depth, std::vector<std::string>& out) {
  if (depth > kMaxCopyDepth) return;
  if (value.is_object()) {
    // Whatever their shape: a map, or a mistyped string or list.
    CollectLeaves(JsonField(value, "data"), true, depth, out);
    CollectLeaves(JsonField(value, "stringData"), false, depth, out);
    for (const auto& [key, member] : value.items()) CollectValues(member, depth + 1, out);
  } else if (value.is_array()) {
    for (const auto& member : value) CollectValues(member, depth + 1, out);
  } else if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    const size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos || (text[start] != '{' && text[start] != '[')) return;
    const json parsed = json::parse(text, nullptr, false);
    if (!parsed.is_discarded()) CollectValues(parsed, depth + 1, out);
  }
}

}  // namespace

bool IsSecret(const json& object) {
  if (JsonString(object, "kind") != "Secret") return false;
  // Logged API bodies may omit apiVersion (list items); a group's own "Secret" kind is not masked.
  const std::string api_version = JsonString(object, "apiVersion");
  return api_version.empty() || api_version == "v1";
}

bool MaskSecretValues(json& object, const Masker& mask, SecretBy by) {
  if (!object.is_object() || (by == SecretBy::kKind && !IsSecret(object))) return false;
  const bool fields = MaskFields(object, mask);
  const bool annotations = MaskAnnotations(object);
  return fields || annotations;
}

bool MaskSecretValues(json& object, SecretBy by) {
  return MaskSecretValues(object, [](std::string_view, const std::string&) { return std::string(kSecretMask); }, by);
}

std::vector<std::string> SecretValues(const json& object, SecretBy by) {
  std::vector<std::string> out;
  if (!object.is_object() || (by == SecretBy::kKind && !IsSecret(object))) return out;
  CollectValues(object, 0, out);
  // Longest first, so a value that contains another is replaced whole.
  std::sort(out.begin(), out.end(),
            [](const std::string& a, const std::string& b) { return a.size() != b.size() ? a.size() > b.size() : a < b; });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace tazuna::util
