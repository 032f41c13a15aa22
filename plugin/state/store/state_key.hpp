#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace tazuna::state {

/// Identity of one object in a manifest's state: `{manifest}/{group}/{version}/{kind}/{ns}/{name}`,
/// or 5 parts when the namespace is empty. The core group is an empty segment.
struct StateKey {
  std::string manifest;
  std::string group;
  std::string version;
  std::string kind;
  std::string namespace_name;  ///< empty for cluster-scoped objects (5-part form)
  std::string name;

  /// The string form (6 parts, or 5 when namespace_name is empty).
  std::string ToString() const;
  /// `group/version`, or just `version` for the core group.
  std::string ApiVersion() const;
  bool operator==(const StateKey&) const = default;
};

/// Parses the string form as the Go tool does (SplitN on "/" into at most 6 parts, so a
/// 6-part key's name may contain "/"). Fails with kInput unless there are 5 or 6 parts.
util::Result<StateKey> ParseStateKey(std::string_view text);

/// Why the object `key` names could never be reached by a request (the result is one segment of a URL
/// path): a namespace that is not an RFC 1123 label, a name that util::PathSegmentProblem refuses ('/',
/// '..', '?', '#', ...); nullopt when both are fine. Such a key is an error naming it, never a request.
std::optional<std::string> KeyNameProblem(const StateKey& key);

/// The key of `object` in `manifest`: group/version from apiVersion ("v1" -> core group),
/// kind, metadata.namespace (absent or empty -> 5-part key) and metadata.name. Missing or
/// non-string fields become empty segments.
StateKey KeyFor(const std::string& manifest, const nlohmann::json& object);

/// Longest ConfigMap data key (validation.IsConfigMapKey allows 253 bytes).
constexpr size_t kMaxDataKeyLength = 253;

/// Encodes a state key as a ConfigMap data key: `/` -> `__`, `[-.a-zA-Z0-9]` copied, every
/// other byte (including `_`) -> `_x` plus two lowercase hex digits. Byte-compatible with Go.
std::string EncodeDataKey(std::string_view state_key);

/// Inverse of EncodeDataKey, scanning left to right: `__` -> `/`, `_xHH` -> byte, anything
/// else copied literally (so the legacy plain `__` form decodes too). Never fails.
std::string DecodeDataKey(std::string_view data_key);

/// Short deterministic data key for a state key whose encoding exceeds kMaxDataKeyLength:
/// `_h` + the first 40 hex digits of SHA-256(state_key). `_h` never starts an encoded key.
std::string HashedDataKey(std::string_view state_key);

/// True when `data_key` was produced by HashedDataKey (the full key is in the entry value).
bool IsHashedDataKey(std::string_view data_key);

/// The data key to store `state_key` under: EncodeDataKey, or HashedDataKey when too long.
std::string DataKeyFor(std::string_view state_key);

/// One state entry's value.
struct Entry {
  std::string content_hash;  ///< 64 lowercase hex digits
  std::string key;           ///< full state key; set only for hashed data keys
  bool operator==(const Entry&) const = default;
};

/// `{"contentHash":"<hash>"}` exactly as the Go tool writes it, or with `,"key":"<full key>"`
/// appended when `full_key_or_empty` is non-empty (over-long keys, SPEC §4.5).
std::string EncodeEntry(const std::string& hash, const std::string& full_key_or_empty);

/// Parses an entry value. Fails with kInput when it is not a JSON object with a string
/// `contentHash` (and, if present, a string `key`), or when the hash is neither empty (an apply
/// not yet confirmed) nor 64 lowercase hex digits. Unknown fields are ignored, as Go does.
util::Result<Entry> DecodeEntry(std::string_view json);

/// True when `group` is served by Kubernetes itself, so no CRD is behind it (not every group ending in
/// .k8s.io: Gateway API's and volume snapshots' are CRDs).
bool BuiltinGroup(std::string_view group);

}  // namespace tazuna::state
