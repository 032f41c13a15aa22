#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "kube/settled_write.hpp"
#include "util/result.hpp"

namespace tazuna::state {

inline constexpr char kStateNamespace[] = "tazuna";
inline constexpr char kConfigMapPrefix[] = "tazuna-state-";
/// Sync history records (plan/history.hpp). The prefix is not kConfigMapPrefix, so `state list --all` never
/// mistakes a record for a manifest's state.
inline constexpr char kRevisionPrefix[] = "tazuna-revision-";
/// A state ConfigMap is filled up to this many bytes of data before spilling into shards.
inline constexpr size_t kShardBytes = 900 * 1024;
/// Label on every spill shard (value: the manifest, or a hash of a name too long for a label value).
inline constexpr char kShardLabel[] = "tazuna.pepabo.com/state-shard-of";

/// Where a state is managed from: the repository (its git remote `origin`, normalised to host/path, so
/// a laptop and CI agree) and the path of tazuna.yaml in it. Empty: unknown (the Go tool's states).
struct Origin {
  std::string repository;
  std::string path;
  bool empty() const { return repository.empty() && path.empty(); }
  /// `<repository>:<path>`, as the annotation tazuna.pepabo.com/origin of applied objects holds it.
  std::string Mark() const { return empty() ? "" : repository + ":" + path; }
  /// For messages: `github.com/org/platform (clusters/prod/tazuna.yaml)`.
  std::string Describe() const { return repository + " (" + path + ")"; }
  /// The origin a Mark() stands for (a normalised repository holds no ':').
  static Origin FromMark(const std::string& mark) {
    const size_t colon = mark.find(':');
    if (colon == std::string::npos) return {mark, ""};
    return {mark.substr(0, colon), mark.substr(colon + 1)};
  }
  bool operator==(const Origin&) const = default;
};

/// `_metadata` of a manifest's state.
struct Metadata {
  std::string git_commit_hash;
  std::string last_synced_at;
  Origin origin;  ///< omitted from JSON when empty (the Go tool ignores it)
  /// The spill ConfigMaps holding the rest of the entries, in order (omitted from JSON when none).
  /// Read from `"shards":[names]`, or from the older `"shards":N` meaning `<base>-1`..`<base>-N`.
  std::vector<std::string> shards;
  /// Origins this state was taken over from (`state takeover`), oldest first: objects they marked are
  /// this state's too. Omitted from JSON when empty.
  std::vector<Origin> taken_from;
  /// Where this state's objects that name no namespace went: the context namespace (-n or the
  /// kubeconfig's) of the sync that wrote it. Every namespaced object under a key without a namespace
  /// segment is there (or pending). Omitted from JSON when empty (the Go tool's states, which leave
  /// it to the context namespace of each run).
  std::string context_namespace;
  /// The input digest (manifest::DigestInputs, with the context namespace) of the render this state is
  /// exactly the record of, written only by a sync that left nothing else in it; empty otherwise.
  std::string render_digest = {};
  /// EntriesDigest of the entries written with `render_digest` (the sync's Checkpointer computes it; other
  /// writers keep it as read): a state changed since by anyone (state forget, the Go tool) no longer
  /// matches, and is diffed against a fresh render.
  std::string entries_digest = {};
  /// The scopes the recorded render's CustomResourceDefinitions declare ("group/Kind" -> namespaced), written
  /// with `render_digest`: a manifest not rendered gives other manifests' keys the scopes its render would.
  std::map<std::string, bool> crd_scopes = {};
  /// The scope each kind of the recorded render's custom resources resolved to when its keys were made
  /// ("group/Kind" -> "Namespaced", "Cluster" or "Unknown"; KindScopes), written with `render_digest`: another
  /// manifest's CRDs or the cluster decide it, so a manifest whose kinds resolve otherwise now is rendered.
  std::map<std::string, std::string> kind_scopes = {};
  bool operator==(const Metadata&) const = default;
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

/// `tazuna-state-<manifest>`: the base ConfigMap, the one the Go tool reads.
std::string ConfigMapName(const std::string& manifest);
/// Spill shard `index` (from 1) of one write's generation: `tazuna-state-<manifest>.<generation>.<index>`.
/// Manifest names never contain '.', so a shard never collides with another manifest's ConfigMap.
std::string ShardName(const std::string& manifest, const std::string& generation, int index);
/// The Go tool's `_metadata` JSON: {"gitCommitHash":"...","lastSyncedAt":"..."}, then when set
/// "origin":{"path":"...","repository":"..."}, "shards":[...], "takenFrom":[...], "contextNamespace":"..." and
/// the render record ("renderDigest", "entriesDigest", "crdScopes":{"group/Kind":"Namespaced"|"Cluster"},
/// "kindScopes":{"group/Kind":"Namespaced"|"Cluster"|"Unknown"}).
std::string EncodeMetadata(const Metadata& metadata);
/// Reads `_metadata` of ConfigMap `configmap` into `metadata` (kInput when it is not the Go tool's form or ours;
/// a malformed render record only reads as none).
util::Status ParseMetadata(const std::string& configmap, const std::string& text, Metadata& metadata);
/// SHA-256 over the entries (key and value per line, in key order) and the scopes recorded with them
/// (Metadata::crd_scopes and kind_scopes of `record`; none adds nothing), 64 hex digits.
std::string EntriesDigest(const std::map<std::string, std::string>& entries, const Metadata& record = {});
/// Builds the `data` maps for a state: the base first, then spill shards named ShardName(manifest,
/// generation, i), each under kShardBytes. The base's `_metadata` names the shards.
std::vector<std::map<std::string, std::string>> BuildShards(const std::string& manifest,
                                                            const std::map<std::string, std::string>& entries,
                                                            Metadata metadata, const std::string& generation);
/// Parses the `data` of state ConfigMaps into `state` (entries merged; `_metadata` from the base,
/// whose name `configmap` is, so the older numbered shard names can be derived). kInput naming the
/// ConfigMap and data key for an entry DecodeEntry rejects, a key that is not a state key or (when
/// `state.manifest` is set) belongs to another manifest, and a `_metadata` whose fields have the wrong type.
util::Status ParseData(const std::string& configmap, const nlohmann::json& data, ManifestState& state);

/// Reads and writes state ConfigMaps in namespace `tazuna`. Reads never need write permission. Different
/// manifests' states may be read and written from different threads at once (never one manifest's).
class StateStore {
 public:
  explicit StateStore(kube::Client& client) : client_(client) {}
  /// `tazuna/<version>`, written as the ApplySet tooling of every base ConfigMap.
  void set_tooling(std::string tooling) { tooling_ = std::move(tooling); }

  /// One GET for the base, then one per shard it names; a missing base is an empty state. A missing
  /// shard is never a smaller state: the base is read again (a writer may have switched sets in
  /// between), and a shard still missing is a kInput error naming it.
  util::Result<ManifestState> Read(const std::string& manifest);
  /// Names of every manifest with a `tazuna-state-*` ConfigMap (one LIST), spill shards excluded.
  util::Result<std::vector<std::string>> ListManifests();
  /// Creates namespace `tazuna` when absent (remembered after the first success).
  util::Status EnsureNamespace();
  /// Writes `state` so that a kill or a lost answer at any point leaves the old or the new state
  /// complete: spill shards are created under a new generation's names, then the base (one write
  /// conditional on the resourceVersion it was read with) switches to name them, then the shards it no
  /// longer names are deleted, with any a killed writer left behind (found once per store by one
  /// metadata-only LIST). Every write is settled by reading back when its answer is lost
  /// (kube::WriteSettled), never sent again blindly. kConflict when another writer changed the base first
  /// (the caller re-reads and merges; the new shards are deleted once a read of the base shows it does not
  /// name them). A failed write whose base may yet be stored keeps its shards. Updates `state.objects`
  /// and `state.metadata.shards` on success.
  util::Status Write(ManifestState& state);
  /// Deletes the state ConfigMaps of `state` (base first, so the record goes at once; then its spill
  /// shards), each conditional on the resourceVersion it was read with (kConflict when it changed).
  /// Touches nothing else in the cluster.
  util::Status Delete(const ManifestState& state);

 private:
  util::Status WriteOne(ShardObject& object, const std::map<std::string, std::string>& data,
                        const nlohmann::json& labels, const nlohmann::json& annotations, kube::WriteFate* fate);
  /// Deletes the spill shards a failed write made, after reading the base: none when it names any of
  /// them or cannot be read.
  void DropUnnamed(const std::string& manifest, const std::vector<std::string>& shards);
  /// Deletes shards of `manifest` that `keep` does not name: `old` and leftovers of killed writes.
  void CollectGarbage(const std::string& manifest, const std::vector<ShardObject>& old,
                      const std::vector<std::string>& keep);

  kube::Client& client_;
  /// Guards what follows: manifests' states are written in parallel (a pointer: the store stays movable).
  std::unique_ptr<std::mutex> mu_ = std::make_unique<std::mutex>();
  bool namespace_ready_ = false;
  std::string tooling_ = "tazuna/v0.0.0";
  std::optional<std::vector<std::string>> shard_names_;  ///< every shard that existed at the first write
  std::set<std::string> collected_;                      ///< manifests whose leftovers were collected
};

}  // namespace tazuna::state
