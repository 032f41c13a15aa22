#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tazuna::manifest {

/// Prefix of a manifest's state ConfigMap in namespace `tazuna`. The same text as state::kConfigMapPrefix;
/// it is repeated here because the state layer sits above this one.
inline constexpr std::string_view kStateConfigMapPrefix = "tazuna-state-";

/// Longest manifest name whose state ConfigMaps all stay valid Kubernetes names (at most 253
/// characters): `tazuna-state-<name>` and its spill shards `tazuna-state-<name>-1` .. `-999`.
inline constexpr size_t kMaxManifestNameLength = 253 - kStateConfigMapPrefix.size() - 4;

/// True when `name` matches the Go tool's syntax, ^[a-zA-Z0-9_-]+$.
bool HasManifestNameSyntax(std::string_view name);

/// Why `name` (already of the Go tool's syntax) cannot name its state ConfigMap, as the end of a
/// one-line message; nullopt when it can. `tazuna-state-<name>` must be an RFC 1123 subdomain:
/// lowercase letters, digits and '-', ending in a letter or digit, within kMaxManifestNameLength.
std::optional<std::string> StateConfigMapNameProblem(std::string_view name);

}  // namespace tazuna::manifest
