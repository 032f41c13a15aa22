#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "state/desired.hpp"
#include "state/identity.hpp"
#include "state/sync_engine.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

/// One object may be rendered once per run: an identity rendered by two manifests, or twice by one,
/// is a kInput error before any request, naming both files:
/// `ConfigMap default/x is rendered by manifests "a" (a/objs/x.yaml) and "b" (b/x.yaml)`.
util::Status CheckRenderedOnce(const std::vector<DesiredManifest>& manifests);

/// Which apply rows ReadLiveOwners looks at.
enum class OwnerRows { kAdded, kApplies };

/// What ReadLiveOwners reads.
struct OwnerQuery {
  OwnerRows rows = OwnerRows::kApplies;
  /// When set, an object whose fields these managers share with tazuna keeps what the take-over of
  /// them needs (LiveOwner::takeover, from the same LIST).
  const TakeoverManagers* takeover = nullptr;
};

/// Reads who owns the live objects of the rows of `inputs` the query names: one metadata-only LIST per
/// kind and namespace, never a GET per object. Objects that do not exist are absent from the result. A
/// kind that is not served yet (its CRD comes in this run) has no live objects; a LIST that fails
/// otherwise (RBAC) is logged once and its objects are treated as unknown (absent).
LiveOwners ReadLiveOwners(kube::Client& client, const std::vector<SyncInput>& inputs, const OwnerQuery& query,
                          util::Logger& log);

/// For tables: the owning manifest, or the field managers of an unmarked object ("kubectl-create").
std::string DescribeOwner(const LiveOwner& owner);

/// Who owns `live` (a live object or its PartialObjectMetadata); with `takeover`, also what taking over
/// those managers' fields needs (LiveOwner::takeover).
LiveOwner OwnerOf(const nlohmann::json& live, const TakeoverManagers* takeover = nullptr);

/// After a sync that took objects over (SyncResult::taken_from), removes them from the states of the
/// manifests they were taken from, so those manifests see them as no longer theirs (their next diff
/// shows the object as added, their next sync as a conflict) and never prune them. One read and one
/// conditional write per such manifest.
util::Status ReleaseTaken(StateStore& store, IdentityResolver& ids, const SyncReport& report);

/// A git remote URL as host/path, so that ssh and https clones, with or without credentials, port or
/// `.git`, agree: `git@github.com:org/platform.git` and `https://user:token@github.com/org/platform`
/// are both `github.com/org/platform`. Never keeps credentials.
std::string NormalizeRepository(const std::string& url);

/// A state recorded from another origin is not ours to change: kConflict naming the recorded origin,
/// unless `take_ownership`. States without an origin (the Go tool's, older ones) are adopted silently.
util::Status CheckOrigin(const ManifestState& stored, const Origin& ours, bool take_ownership);

}  // namespace tazuna::state
