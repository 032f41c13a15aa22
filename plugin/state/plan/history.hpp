#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "state/apply/sync_engine.hpp"
#include "util/clock.hpp"
#include "util/logger.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// Revision records are ConfigMaps kRevisionPrefix + `<ulid in lowercase>` in namespace `tazuna` (store.hpp),
/// labelled kRevisionLabel, with the record as JSON under data key `revision`.
inline constexpr char kRevisionLabel[] = "tazuna.pepabo.com/revision";
/// A sync that changes more objects than this records only per-manifest counts.
inline constexpr size_t kMaxRecordedObjects = 3000;
/// ... as does one whose record would pass this many bytes (a ConfigMap holds at most 1 MiB).
inline constexpr size_t kMaxRecordBytes = 384 * 1024;
/// `--history-limit` default: revisions kept.
inline constexpr int kDefaultHistoryLimit = 20;

enum class RevisionStatus { kInProgress, kSucceeded, kFailed, kInterrupted };
/// "in-progress", "succeeded", "failed", "interrupted".
const char* RevisionStatusName(RevisionStatus status);

/// What -m, -t and -e picked.
struct RevisionSelection {
  std::string environment;
  std::vector<std::string> tags;
  std::vector<std::string> manifests;  ///< -m as given (empty: all)
  bool operator==(const RevisionSelection&) const = default;
};

/// The flags that make `selection`: "-e prod -t net,dns -m cni"; "" when it is every manifest.
std::string SelectionFlags(const RevisionSelection& selection);

/// Whether -e/-t/-m as `given` agree with `planned` (a plan's selection): each one given is the same,
/// -t and -m as sets (`-m web -m api` is `-m api -m web`); one not given agrees with any.
bool SelectionAgrees(const RevisionSelection& given, const RevisionSelection& planned);

/// One changed object of a revision: never its values, only hashes.
struct RevisionObject {
  std::string manifest;
  std::string key;
  std::string verb;      ///< VerbName
  std::string old_hash;  ///< recorded before the sync (empty for added objects)
  std::string new_hash;  ///< applied (empty for deletes and objects not applied)
  std::string namespace_name;  ///< where the object is, when its key names no namespace (SyncResult::namespace_name)
  bool operator==(const RevisionObject&) const = default;
};

/// One sync that writes.
struct Revision {
  std::string id;           ///< ULID
  std::string started_at;   ///< RFC 3339 with microseconds
  std::string finished_at;  ///< empty while in progress
  RevisionStatus status = RevisionStatus::kInProgress;
  std::string user;  ///< as the apiserver sees it (WhoAmI)
  std::string git_commit;
  bool git_dirty = false;
  std::string version;  ///< tazuna's
  RevisionSelection selection;
  std::vector<std::string> manifests;                        ///< synced, in order
  std::map<std::string, std::map<std::string, int>> counts;  ///< manifest -> verb -> objects
  std::vector<RevisionObject> objects;                       ///< every row but unchanged, in sync order
  size_t objects_omitted = 0;  ///< > 0: that many rows were left out to bound the record (counts only)
  std::string plan_digest;     ///< `state sync --plan`: the plan's Digest
  std::string lock_holder;     ///< the Lease holder identity of the sync, to tell a dead one
  /// The repository and file of the syncing tazuna.yaml (Origin::Mark), also the record's annotation
  /// tazuna.pepabo.com/origin; "" in a record of an older version, which no trim counts or deletes.
  std::string origin = {};
  std::string resource_version;  ///< of its ConfigMap (not serialised)
  std::string created_at;        ///< its ConfigMap's creationTimestamp, the server's clock (not serialised)
  bool operator==(const Revision&) const = default;
};

/// The record's JSON (keys: id, startedAt, finishedAt, status, user, gitCommit, gitDirty, version,
/// selection, manifests, counts, objects, objectsOmitted, planDigest, lockHolder, origin). An object's empty
/// oldHash or newHash is left out, to keep large records small.
nlohmann::json RevisionToJson(const Revision& revision);
/// Parses RevisionToJson's output; kInput naming the field for a wrong type or an unknown status.
util::Result<Revision> RevisionFromJson(const nlohmann::json& json);

/// Fills counts and objects from a finished sync: old hashes from the diff rows of `inputs`, new hashes
/// of applied rows from the report. Rows beyond kMaxRecordedObjects (or kMaxRecordBytes) are not kept;
/// objects_omitted then says how many were changed.
void RecordOutcome(Revision& revision, const SyncReport& report, const std::vector<SyncInput>& inputs);

/// "3 created, 1 configured, 2 deleted" (verbs in kubectl's order, unchanged left out), or "none".
std::string ChangeSummary(const Revision& revision);

/// The status to show: an in-progress record whose sync no longer holds the Lease `lease` (another
/// holder, a released lease, or one not renewed within its leaseDurationSeconds before `now`) is
/// kInterrupted. `lease` is null when there is none.
RevisionStatus EffectiveStatus(const Revision& revision, const nlohmann::json& lease,
                               std::chrono::system_clock::time_point now);

/// The revision `id_or_prefix` names (a whole ULID or a unique prefix, any case), from `revisions`.
/// kNotFound when none matches, kUsage when the prefix matches several (naming how many).
util::Result<Revision> FindRevision(const std::vector<Revision>& revisions, const std::string& id_or_prefix);

/// Reads and writes revision records.
class HistoryStore {
 public:
  explicit HistoryStore(kube::Client& client) : client_(client) {}
  /// Creates the record's ConfigMap; sets revision.resource_version. A lost answer is settled by reading back.
  util::Status Create(Revision& revision);
  /// Replaces it (conditional on resource_version); sets the new one. A lost answer is settled by reading back.
  util::Status Update(Revision& revision);
  /// Every record, newest first by the server's creationTimestamp, then by id (one LIST). A record that does
  /// not parse is skipped with a warning on `log`.
  util::Result<std::vector<Revision>> List(util::Logger& log);
  /// Deletes all but the newest `limit` records of `origin` (annotation tazuna.pepabo.com/origin) by the
  /// server's creationTimestamp (then id), never the record `keep_id` (the trimming sync's own, which
  /// counts towards the limit); another repository's records, and those of no origin, are neither counted
  /// nor deleted (an empty `origin` trims nothing). NotFound ignored. Returns how many went.
  util::Result<int> Trim(int limit, const std::string& keep_id, const std::string& origin);
  /// The sync Lease as stored, or null when there is none.
  util::Result<nlohmann::json> ReadLease();

 private:
  kube::Client& client_;
};

/// The user the apiserver authenticates (SelfSubjectReview, authentication.k8s.io/v1); when that API is
/// refused or absent, the kubeconfig's user name (or "unknown").
std::string WhoAmI(kube::Client& client);

}  // namespace tazuna::state
