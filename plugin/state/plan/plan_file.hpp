#pragma once

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "state/plan/history.hpp"
#include "state/apply/sync_engine.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// The resourceVersion a state ConfigMap had when the plan read it ("" when it did not exist).
struct PlanState {
  std::string manifest;
  std::string config_map;
  std::string resource_version;
  bool operator==(const PlanState&) const = default;
};

/// What the diff saw of a row's live object, as ReadLiveOwners (OwnerRows::kChanges) read it: whether
/// it existed, its uid and its owner as the tables show it (LiveOwner). All empty when it did not exist.
struct PlanLive {
  bool exists = false;
  std::string uid;
  std::string manifest;                ///< LiveOwner::manifest, the manifest mark
  std::string origin;                  ///< LiveOwner::origin, the origin mark
  bool tazuna_manager = false;         ///< LiveOwner::tazuna_manager
  std::vector<std::string> managers;   ///< LiveOwner::managers, sorted (the server reorders managedFields)
  bool operator==(const PlanLive&) const = default;
};

/// One diff row of the plan.
struct PlanRow {
  std::string manifest;
  std::string change;  ///< ChangeTypeName
  std::string key;
  std::string old_key;
  std::string old_hash;
  std::string new_hash;
  PlanLive live;
  bool operator==(const PlanRow&) const = default;
};

/// The rendered hash of one selected object ("" when it could not be known: a Secret without the key).
struct PlanObject {
  std::string manifest;
  std::string key;
  std::string hash;
  /// sha256 of the whole object as rendered, status included (a plan's own pin: the state's hash is the Go
  /// tool's, which drops status, an ordinary field of a custom resource whose CRD has no status
  /// subresource); "" for Secrets, whose keyed hash already covers all they hold.
  std::string digest = {};
  bool operator==(const PlanObject&) const = default;
};

/// Where and how a plan is to be applied: a sync with another target refuses the plan.
struct PlanTarget {
  std::string server;             ///< the API server URL of the kubeconfig context
  std::string cluster_uid;        ///< uid of namespace kube-system, the cluster's identity ("" when unreadable)
  std::string ca_digest;          ///< sha256 of the CA the kubeconfig trusts for it ("" for the system store)
  std::string context_namespace;  ///< where objects that name no namespace go (-n or the kubeconfig's)
  bool prune = false;             ///< the flags that change what a sync does
  bool allow_empty = false;
  bool take_ownership = false;
  std::vector<std::string> takeover_managers;  ///< the resolved --takeover-managers, sorted
  std::string origin;  ///< the repository the sync marks states and objects with (Origin::Mark)
  /// --repair (RepairName: all, missing, none); "" in a plan from before it was recorded (not compared)
  std::string repair = {};
  /// uid of ConfigMap tazuna/kube-root-ca.crt (the cluster's identity when kube-system cannot be read; ""
  /// when it cannot be read either, or is not there)
  std::string cluster_root_ca_uid = {};
  bool operator==(const PlanTarget&) const = default;
};

/// What tells one cluster from another: the uid of namespace kube-system and, for users who may not read
/// it, the uid of the ConfigMap kube-root-ca.crt the control plane publishes into namespace tazuna ("" for
/// either that could not be read).
struct ClusterIds {
  std::string kube_system_uid;
  std::string root_ca_uid;
  bool Known() const { return !kube_system_uid.empty() || !root_ca_uid.empty(); }
};

enum class Sameness { kSame, kOther, kUnknown };
/// Whether `a` and `b` are one cluster, by the first kind of id both have: kUnknown when they have none in
/// common (one of them unknown included), even if both are entirely unknown.
Sameness CompareClusters(const ClusterIds& a, const ClusterIds& b);

/// What `state diff --out` saw: hashes and resourceVersions only, never an object's body, so no Secret
/// value can be in a plan.
struct Plan {
  std::string created_at;  ///< RFC 3339
  PlanTarget target;
  RevisionSelection selection;
  std::vector<std::string> manifests;  ///< the selected manifests, in order
  std::vector<PlanRow> changes;
  std::vector<PlanObject> objects;
  std::vector<PlanState> states;
  bool operator==(const Plan&) const = default;
};

/// The plan of `inputs` (as PlanSync made them) for `selection`, each row with what `live` (ReadLiveOwners
/// with OwnerRows::kChanges) says of its object; its target is left empty for the caller.
Plan MakePlan(const RevisionSelection& selection, const std::vector<SyncInput>& inputs, std::string created_at,
              const LiveOwners& live);
/// The plan file: JSON (apiVersion tazuna.pepabo.com/v1, kind Plan), 2-space indent, sorted keys.
std::string EncodePlan(const Plan& plan);
/// Parses EncodePlan's output; kInput ("invalid plan: ...") for anything else, a plan without a target
/// (made before plans had one) or without what it saw live (made before plans pinned it) included.
util::Result<Plan> DecodePlan(const std::string& text);
/// PlanObject::digest of the rendered object `d`: "sha256:<hex>" of the whole object, "" for a Secret.
std::string PlanObjectDigest(const DesiredObject& d);
/// "sha256:<hex>" of EncodePlan(plan): the same plan always has the same digest.
std::string PlanDigest(const Plan& plan);

/// Whether a sync with target `now` may apply `plan`: the same server, trusted CA and cluster (both uids
/// known and equal, or, for a user who cannot read namespace kube-system, both unknown), context namespace,
/// flags, take-over managers (as sets) and repository (origin). kConflict "plan was made for ..." naming the first difference.
util::Status CheckPlanTarget(const Plan& plan, const PlanTarget& now);

/// The newest revision that synced `manifest`, for messages ("" when unknown).
using RevisionOfManifest = std::function<std::string(const std::string& manifest)>;

/// What a sync read, under its lock, of the live objects of its rows (ReadLiveOwners, OwnerRows::kChanges).
struct LiveRead {
  LiveOwners owners;                 ///< the objects that exist
  std::set<ObjectIdentity> unknown;  ///< the objects whose LIST failed: neither seen nor known to be absent
};

/// Whether `inputs` (rendered and read again, under the sync lock) and the live objects of their rows
/// (`live`, read under the lock too) are exactly what `plan` saw: the same manifests, every state
/// ConfigMap at the plan's resourceVersion, every object rendering to the plan's hash, the same diff
/// rows, and each row's object still absent, or present with the same uid and owner. kConflict "plan is
/// stale: ..." naming the first difference (a manifest whose state changed, with the revision that
/// changed it; an object that renders differently, is no longer rendered, or was not planned; an object
/// that appeared, disappeared, was made again or changed owner; a `missing` row the plan does not show:
/// "object ... was deleted since the plan"), kConflict "plan cannot be checked: ..."
/// when an object's owner could not be read, or kInput when an object's hash cannot vouch for it.
util::Status CheckPlan(const Plan& plan, const std::vector<SyncInput>& inputs, const LiveRead& live,
                       const RevisionOfManifest& revision_of);

/// Whether the states of `inputs` (read under the sync lock) record exactly what applying `plan` leaves: each
/// of the plan's manifests has a state, marked with the plan's repository, whose entries are the plan's
/// objects with their hashes (an object whose hash the plan could not know only has to be there). A state
/// forgotten, taken over or synced otherwise since is not: the plan is then stale, not "already applied".
bool StatesRecordPlan(const Plan& plan, const std::vector<SyncInput>& inputs);

/// After CheckPlan passed: the uid of the object each removed row with a valid key names, as `live` read it
/// ("" when it did not exist). The prune deletes only those objects (PruneScope::planned_uids).
std::map<ObjectIdentity, std::string> PlannedPruneUids(const std::vector<SyncInput>& inputs, const LiveOwners& live);

}  // namespace tazuna::state
