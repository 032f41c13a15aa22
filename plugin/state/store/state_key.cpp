#include "state/store/state_key.hpp"

#include <algorithm>
#include <iterator>
#include <vector>

#include "manifest/names.hpp"
#include "util/go_json.hpp"
#include "util/path_segment.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::state {
namespace {

constexpr char kHex[] = "0123456789abcdef";
constexpr std::string_view kHashedPrefix = "_h";
constexpr size_t kHashedHexDigits = 40;

bool IsPlainKeyByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.';
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string StringField(const nlohmann::json& object, const char* field) {
  auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Go's strings.SplitN(s, "/", n).
std::vector<std::string_view> SplitN(std::string_view text, size_t n) {
  std::vector<std::string_view> parts;
  while (parts.size() + 1 < n) {
    const size_t slash = text.find('/');
    if (slash == std::string_view::npos) break;
    parts.push_back(text.substr(0, slash));
    text.remove_prefix(slash + 1);
  }
  parts.push_back(text);
  return parts;
}

}  // namespace

std::optional<std::string> KeyNameProblem(const StateKey& key) {
  if (!key.namespace_name.empty()) {
    if (auto problem = manifest::NamespaceProblem(key.namespace_name)) return *problem;
  }
  if (auto problem = util::PathSegmentProblem(key.name)) {
    return util::StrCat("name ", util::Quote(key.name), ": ", *problem);
  }
  return std::nullopt;
}

std::string StateKey::ToString() const {
  if (namespace_name.empty()) return util::StrCat(manifest, "/", group, "/", version, "/", kind, "/", name);
  return util::StrCat(manifest, "/", group, "/", version, "/", kind, "/", namespace_name, "/", name);
}

std::string StateKey::ApiVersion() const {
  return group.empty() ? version : util::StrCat(group, "/", version);
}

util::Result<StateKey> ParseStateKey(std::string_view text) {
  const auto parts = SplitN(text, 6);
  if (parts.size() != 5 && parts.size() != 6) {
    return util::MakeError(util::ErrorKind::kInput,
                           util::StrCat("invalid state key ", util::Quote(text),
                                        ": want 5 or 6 '/'-separated parts, got ", parts.size()));
  }
  StateKey key{std::string(parts[0]), std::string(parts[1]), std::string(parts[2]),
               std::string(parts[3]), "", ""};
  if (parts.size() == 6) {
    key.namespace_name = std::string(parts[4]);
    key.name = std::string(parts[5]);
  } else {
    key.name = std::string(parts[4]);
  }
  return key;
}

StateKey KeyFor(const std::string& manifest, const nlohmann::json& object) {
  StateKey key;
  key.manifest = manifest;
  if (!object.is_object()) return key;
  const std::string api_version = StringField(object, "apiVersion");
  const size_t slash = api_version.find('/');
  if (slash == std::string::npos) {
    key.version = api_version;
  } else {
    key.group = api_version.substr(0, slash);
    key.version = api_version.substr(slash + 1);
  }
  key.kind = StringField(object, "kind");
  auto metadata = object.find("metadata");
  if (metadata != object.end() && metadata->is_object()) {
    key.namespace_name = StringField(*metadata, "namespace");
    key.name = StringField(*metadata, "name");
  }
  return key;
}

std::string EncodeDataKey(std::string_view state_key) {
  std::string out;
  out.reserve(state_key.size() + 8);
  for (char c : state_key) {
    if (c == '/') {
      out += "__";
    } else if (IsPlainKeyByte(c)) {
      out.push_back(c);
    } else {
      const auto b = static_cast<unsigned char>(c);
      out += "_x";
      out.push_back(kHex[b >> 4]);
      out.push_back(kHex[b & 0xF]);
    }
  }
  return out;
}

std::string DecodeDataKey(std::string_view data_key) {
  std::string out;
  out.reserve(data_key.size());
  for (size_t i = 0; i < data_key.size();) {
    if (data_key[i] == '_' && i + 1 < data_key.size() && data_key[i + 1] == '_') {
      out.push_back('/');
      i += 2;
      continue;
    }
    if (data_key[i] == '_' && i + 3 < data_key.size() && data_key[i + 1] == 'x') {
      const int hi = HexValue(data_key[i + 2]), lo = HexValue(data_key[i + 3]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi << 4 | lo));
        i += 4;
        continue;
      }
    }
    out.push_back(data_key[i]);
    ++i;
  }
  return out;
}

std::string HashedDataKey(std::string_view state_key) {
  return util::StrCat(kHashedPrefix, util::Sha256Hex(state_key).substr(0, kHashedHexDigits));
}

bool IsHashedDataKey(std::string_view data_key) {
  if (data_key.size() != kHashedPrefix.size() + kHashedHexDigits) return false;
  if (data_key.substr(0, kHashedPrefix.size()) != kHashedPrefix) return false;
  for (char c : data_key.substr(kHashedPrefix.size())) {
    if (HexValue(c) < 0 || (c >= 'A' && c <= 'F')) return false;
  }
  return true;
}

std::string DataKeyFor(std::string_view state_key) {
  std::string encoded = EncodeDataKey(state_key);
  if (encoded.size() <= kMaxDataKeyLength) return encoded;
  return HashedDataKey(state_key);
}

std::string EncodeEntry(const std::string& hash, const std::string& full_key_or_empty) {
  std::string out = "{\"contentHash\":";
  util::AppendGoJsonString(out, hash);
  if (!full_key_or_empty.empty()) {
    out += ",\"key\":";
    util::AppendGoJsonString(out, full_key_or_empty);
  }
  out.push_back('}');
  return out;
}

util::Result<Entry> DecodeEntry(std::string_view json) {
  auto fail = [&](std::string_view why) {
    return util::MakeError(util::ErrorKind::kInput,
                           util::StrCat("invalid state entry ", util::Quote(json), ": ", why));
  };
  nlohmann::json parsed = nlohmann::json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return fail("not valid JSON");
  if (!parsed.is_object()) return fail("not a JSON object");
  auto hash = parsed.find("contentHash");
  if (hash == parsed.end() || !hash->is_string()) return fail("missing string \"contentHash\"");
  Entry entry;
  entry.content_hash = hash->get<std::string>();
  auto key = parsed.find("key");
  if (key != parsed.end()) {
    if (!key->is_string()) return fail("\"key\" is not a string");
    entry.key = key->get<std::string>();
  }
  // Both tools write 64 lowercase hex digits, or (this one) an empty hash for an unconfirmed apply.
  const std::string& h = entry.content_hash;
  if (!h.empty() && (h.size() != 64 || h.find_first_not_of("0123456789abcdef") != std::string::npos)) {
    return fail(util::StrCat("contentHash ", util::Quote(h), " is not 64 lowercase hex digits"));
  }
  return entry;
}

bool BuiltinGroup(std::string_view group) {
  // Kubernetes' own groups, v1.33 (and extensions, metrics).
  static constexpr std::string_view kGroups[] = {
      "", "apps", "batch", "autoscaling", "policy", "extensions", "admissionregistration.k8s.io",
      "apiextensions.k8s.io", "apiregistration.k8s.io", "authentication.k8s.io", "authorization.k8s.io",
      "certificates.k8s.io", "coordination.k8s.io", "discovery.k8s.io", "events.k8s.io",
      "flowcontrol.apiserver.k8s.io", "internal.apiserver.k8s.io", "networking.k8s.io", "node.k8s.io",
      "rbac.authorization.k8s.io", "resource.k8s.io", "scheduling.k8s.io", "storage.k8s.io",
      "storagemigration.k8s.io", "metrics.k8s.io", "custom.metrics.k8s.io", "external.metrics.k8s.io"};
  return std::find(std::begin(kGroups), std::end(kGroups), group) != std::end(kGroups);
}

}  // namespace tazuna::state
