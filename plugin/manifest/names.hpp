#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tazuna::manifest {

/// Prefix of a manifest's state ConfigMap in namespace `tazuna`. The same text as state::kConfigMapPrefix;
/// it is repeated here because the state layer sits above this one.
inline constexpr std::string_view kStateConfigMapPrefix = "tazuna-state-";

/// Room kept after `tazuna-state-<name>` for a spill shard's suffix: `.<generation>.<index>` with an
/// 8-hex-digit generation and an index up to 999 (state::ShardName), longer than the older `-<index>`.
inline constexpr size_t kStateShardSuffixLength = 1 + 8 + 1 + 3;

/// Longest manifest name whose state ConfigMaps, the base and every spill shard, stay valid Kubernetes
/// names (at most 253 characters). Keep it in step with state::ShardName.
inline constexpr size_t kMaxManifestNameLength = 253 - kStateConfigMapPrefix.size() - kStateShardSuffixLength;

/// True when `name` matches the Go tool's syntax, ^[a-zA-Z0-9_-]+$.
bool HasManifestNameSyntax(std::string_view name);

/// Why `name` (already of the Go tool's syntax) cannot name its state ConfigMap, as the end of a
/// one-line message; nullopt when it can. `tazuna-state-<name>` must be an RFC 1123 subdomain:
/// lowercase letters, digits and '-', ending in a letter or digit, within kMaxManifestNameLength.
std::optional<std::string> StateConfigMapNameProblem(std::string_view name);

/// Why `ns` cannot name a namespace (an RFC 1123 label, as the apiserver requires), as the end of a
/// one-line message (`invalid namespace "Bad_NS": use lowercase ...`); nullopt when it can.
std::optional<std::string> NamespaceProblem(std::string_view ns);

/// Why `name` cannot be any object's metadata.name (util::PathSegmentProblem: not "." or "..", no '/',
/// '%', '?', '#', '\\', whitespace or control characters; each kind's stricter rule is the apiserver's),
/// as the end of a one-line message; nullopt when it can (also for an empty name).
std::optional<std::string> ObjectNameProblem(std::string_view name);

}  // namespace tazuna::manifest
