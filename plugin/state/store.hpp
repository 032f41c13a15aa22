#pragma once

#include <map>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "util/result.hpp"

namespace tazuna::state {

inline constexpr char kStateNamespace[] = "tazuna";
inline constexpr char kConfigMapPrefix[] = "tazuna-state-";
/// A state ConfigMap is filled up to this many bytes of data before spilling into `-1`, `-2`, ...
inline constexpr size_t kShardBytes = 900 * 1024;

/// `_metadata` of a manifest's state.
struct Metadata {
  std::string git_commit_hash;
  std::string last_synced_at;
  int shards = 0;  ///< number of spill ConfigMaps (`-1`..`-N`); omitted from JSON when 0
};

/// One ConfigMap as last read or written (for resourceVersion preconditions).
struct ShardObject {
  std::string name;
  std::string resource_version;  ///< empty: does not exist
};

/// The state of one manifest: state key -> content hash (an empty hash marks an object whose
/// apply was started but not confirmed; it reads as modified and is re-applied).
struct ManifestState {
  std::string manifest;
  std::map<std::string, std::string> entries;
  Metadata metadata;
  std::vector<ShardObject> objects;  ///< [0] is the base ConfigMap
  bool exists() const { return !objects.empty() && !objects[0].resource_version.empty(); }
};

/// `tazuna-state-<manifest>` or `tazuna-state-<manifest>-<shard>`.
std::string ConfigMapName(const std::string& manifest, int shard);
/// The Go tool's `_metadata` JSON: {"gitCommitHash":"...","lastSyncedAt":"..."} (+ "shards").
std::string EncodeMetadata(const Metadata& metadata);
/// Builds the `data` maps for a state: the base first, then spill shards, each under kShardBytes.
std::vector<std::map<std::string, std::string>> BuildShards(const std::map<std::string, std::string>& entries,
                                                            Metadata metadata);
/// Parses the `data` of state ConfigMaps into `state` (entries merged; `_metadata` from the base).
util::Status ParseData(const std::string& configmap, const nlohmann::json& data, ManifestState& state);

/// Reads and writes state ConfigMaps in namespace `tazuna`. Reads never need write permission.
class StateStore {
 public:
  explicit StateStore(kube::Client& client) : client_(client) {}

  /// One GET per state ConfigMap; a missing ConfigMap is an empty state.
  util::Result<ManifestState> Read(const std::string& manifest);
  /// Names of every manifest with a `tazuna-state-*` ConfigMap (one LIST), spill shards excluded.
  util::Result<std::vector<std::string>> ListManifests();
  /// Creates namespace `tazuna` when absent (remembered after the first success).
  util::Status EnsureNamespace();
  /// Writes `state` conditionally on the resourceVersions it was read with. kConflict when another
  /// writer got there first (the caller re-reads and merges). Updates `state.objects` on success.
  util::Status Write(ManifestState& state);
  /// Deletes the state ConfigMaps of `state` (base first, so the record goes at once; then its spill
  /// shards), each conditional on the resourceVersion it was read with (kConflict when it changed).
  /// Touches nothing else in the cluster.
  util::Status Delete(const ManifestState& state);

 private:
  util::Status WriteOne(ShardObject& object, const std::map<std::string, std::string>& data);

  kube::Client& client_;
  bool namespace_ready_ = false;
};

}  // namespace tazuna::state
