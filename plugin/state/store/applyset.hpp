#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

namespace tazuna::state {

/// kubectl's ApplySet (KEP-3659) keys, so kubectl recognises each state ConfigMap as a set tazuna owns.
inline constexpr char kApplySetIdLabel[] = "applyset.kubernetes.io/id";
inline constexpr char kApplySetPartOfLabel[] = "applyset.kubernetes.io/part-of";
inline constexpr char kApplySetToolingAnnotation[] = "applyset.kubernetes.io/tooling";
inline constexpr char kApplySetGroupKindsAnnotation[] = "applyset.kubernetes.io/contains-group-kinds";
inline constexpr char kApplySetNamespacesAnnotation[] = "applyset.kubernetes.io/additional-namespaces";
/// Largest additional-namespaces annotation written (annotations share a 256 KiB budget).
inline constexpr size_t kMaxNamespacesAnnotation = 64 * 1024;

/// The ApplySet id of manifest `manifest`'s state ConfigMap: `applyset-<base64url(sha256(
/// "<name>.<namespace>.ConfigMap."))>-v1`, as kubectl computes it for a ConfigMap parent.
std::string ApplySetId(const std::string& manifest);

/// Labels and annotations of a state ConfigMap as an ApplySet parent.
struct ApplySetParent {
  nlohmann::json labels = nlohmann::json::object();
  nlohmann::json annotations = nlohmann::json::object();
};

/// The parent metadata for a state holding `entries` (state key -> hash): the id label, `tooling`,
/// the sorted group-kinds (`Kind.group`, `Kind` for the core group) and the namespaces other than
/// `tazuna` that the keys name (capped at kMaxNamespacesAnnotation bytes).
ApplySetParent ParentOf(const std::string& manifest, const std::map<std::string, std::string>& entries,
                        const std::string& tooling);

}  // namespace tazuna::state
