#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "state/store/desired.hpp"
#include "state/store/identity.hpp"
#include "state/apply/sync_engine.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

/// One object may be rendered once per run: an identity rendered by two manifests, or twice by one,
/// is a kInput error before any request, naming both files:
/// `ConfigMap default/x is rendered by manifests "a" (a/objs/x.yaml) and "b" (b/x.yaml)`.
util::Status CheckRenderedOnce(const std::vector<DesiredManifest>& manifests);

/// tazuna's own objects in namespace `tazuna` (state ConfigMaps and their shards, revisions, the sync
/// Lease, the Secret hash key) are not for manifests to render: a render that names one, where the
/// object really is, is a kInput error before any request (pruning it would delete states).
util::Status CheckNotReserved(const std::vector<DesiredManifest>& manifests);
/// Whether `id` is one of tazuna's own objects in namespace `tazuna` (see CheckNotReserved).
bool IsReserved(const ObjectIdentity& id);

/// Which rows ReadLiveOwners looks at: none, added rows, every apply row (added, modified, always-sync,
/// missing), or those and the removed rows whose stored key names an object (what a plan pins, plan_file.hpp).
enum class OwnerRows { kNone, kAdded, kApplies, kChanges };

/// Whether ReadLiveOwners also lists the rendered objects no diff row names (unchanged ones), so that
/// AddMissingRows can tell which of them are gone (--repair=missing).
enum class UnchangedObjects { kSkip, kList };

/// Which live objects' field owners ReadLiveOwners keeps (OwnerQuery::fields).
enum class LiveFieldsOf { kNone, kShared, kEvery };

/// What ReadLiveOwners reads.
struct OwnerQuery {
  OwnerRows rows = OwnerRows::kApplies;
  /// When set, an object whose fields these managers share with tazuna keeps what the take-over of
  /// them needs (LiveOwner::takeover, from the same LIST).
  const TakeoverManagers* takeover = nullptr;
  /// When set, receives the objects of `rows` whose owner no LIST could read (see ReadLiveOwners).
  std::set<ObjectIdentity>* unknown = nullptr;
  UnchangedObjects unchanged = UnchangedObjects::kSkip;
  /// With UnchangedObjects::kList, when set: receives the unchanged objects whose existence no LIST could
  /// tell (the LIST failed, or no version of the kind is served); they are neither seen nor known absent.
  std::set<ObjectIdentity>* unchecked = nullptr;
  /// Which owners keep who owns which fields (LiveOwner::fields): none, those whose fields others than tazuna
  /// own (AddDriftedRows, StripYielded), or every one (state drift's UnownedFields).
  LiveFieldsOf fields = LiveFieldsOf::kNone;
};

/// Reads who owns the live objects of the rows of `inputs` the query names: one metadata-only LIST per
/// kind and namespace (through the version the server serves, when the rendered one is not), never a
/// GET per object. Objects that do not exist are absent from the result. A kind no version of which is
/// served yet (its CRD comes in this run) has no live objects. A LIST that fails otherwise (RBAC without
/// list, a failing server) is logged once, and its objects go to `query.unknown`: their owner must be
/// read before they are written (SyncEngine reads each one with a GET). With UnchangedObjects::kList the
/// same LISTs (one more per kind and namespace only unchanged objects have) also cover the unchanged
/// objects: those that exist are in the result, those no LIST could answer for go to `query.unchecked`.
LiveOwners ReadLiveOwners(kube::Client& client, const std::vector<SyncInput>& inputs, const OwnerQuery& query,
                          util::Logger& log);

/// For tables: the owning manifest, or the field managers of an unmarked object ("kubectl-create").
std::string DescribeOwner(const LiveOwner& owner);

/// Who owns `live` (a live object or its PartialObjectMetadata); with `takeover`, also what taking over
/// those managers' fields needs (LiveOwner::takeover).
/// Also who owns which of its fields (LiveOwner::fields), as `fields` says.
LiveOwner OwnerOf(const nlohmann::json& live, const TakeoverManagers* takeover = nullptr,
                  LiveFieldsOf fields = LiveFieldsOf::kNone);

/// The origin mark of `live` when it belongs to another repository than `ours`: set, and neither ours
/// nor one `state` was taken over from (Metadata::taken_from). Empty otherwise (an unmarked object is
/// judged by its manifest annotation alone).
std::string ForeignOrigin(const LiveOwner& live, const Origin& ours, const Metadata& state);

/// After a sync that took objects over (SyncResult::taken_from), removes them from the states of the
/// manifests they were taken from, so those manifests see them as no longer theirs (their next diff
/// shows the object as added, their next sync as a conflict) and never prune them. One read and one
/// conditional write per such manifest. A state is changed only when it is the one that marked the
/// object: never the syncing manifest's own, never one of another origin than the object's mark.
util::Status ReleaseTaken(StateStore& store, IdentityResolver& ids, const SyncReport& report);

/// A git remote URL as host/path, so that ssh and https clones, with or without credentials, port or
/// `.git`, agree: `git@github.com:org/platform.git` and `https://user:token@github.com/org/platform`
/// are both `github.com/org/platform`. Never keeps credentials.
std::string NormalizeRepository(const std::string& url);

/// A state recorded from another origin is not ours to change: kConflict naming the recorded origin,
/// with the hint to take it over explicitly (`state takeover`). States without an origin (the Go tool's,
/// older ones) are claimed by the first sync that writes them (see SyncEngine).
util::Status CheckOrigin(const ManifestState& stored, const Origin& ours);

/// A state that exists without an origin: the sync that writes it now claims it, and prunes nothing
/// from it in that run.
inline bool ClaimedByThisRun(const ManifestState& stored) { return stored.exists() && stored.metadata.origin.empty(); }

}  // namespace tazuna::state
