#pragma once

#include <set>
#include <string>
#include <vector>

#include "manifest/model.hpp"
#include "state/apply/sync_engine.hpp"
#include "kube/client.hpp"
#include "state/store/desired.hpp"
#include "state/apply/field_takeover.hpp"
#include "state/store/identity.hpp"
#include "state/store/store.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

/// How a recorded object differs from the cluster. kLeftover: fields an earlier tool set live that the
/// manifest does not set and nobody else owns, which no sync removes (field_takeover.hpp).
enum class DriftType { kDrifted = 0, kMissing = 1, kLeftover = 2 };
/// "live-drifted", "live-missing", "live-leftover".
const char* DriftTypeName(DriftType type);

struct DriftEntry {
  std::string manifest;
  DriftType type = DriftType::kDrifted;
  std::string key;
  StateKey parsed;
  std::string namespace_name;  ///< where the object is (the key's, the recorded or the context's); empty: cluster-scoped
  std::string stored_hash;
  /// The fields of the take-over: those a sync removes (live-drifted) or an earlier tool left
  /// (live-leftover), as DescribeFieldPath writes them. Empty for other drift.
  std::vector<std::string> fields;
};

struct DriftOptions {
  int concurrency = 16;  ///< requests in flight
  /// Managers whose leftover fields are drift (null: none are looked for).
  const TakeoverManagers* takeover = nullptr;
  util::Logger* log = nullptr;  ///< for warnings (a check the server refused); required with takeover
  /// When set: the objects metadata-only LISTs found, with every owner's fields (ReadLiveOwners with
  /// LiveFieldsOf::kEvery). An object found is checked with requests of its own only when its ownership shows
  /// a change (NeedsDryRun); one not found is read (a GET tells gone from a kind no longer served).
  const LiveOwners* listed = nullptr;
  /// The manifest's yieldFields: fields they yield that others own are left out of the dry run, as a sync
  /// leaves them out of its apply.
  const std::vector<manifest::YieldRule>* yields = nullptr;
};

/// Whether `rendered` (the object rendered now, with `hash`) may differ from its live object, whose owners
/// `live` are, so that only a dry-run apply can tell: its content changed since `stored_hash` was recorded;
/// another writer owns fields tazuna applied (TakenFields); fields it sets are owned by nobody (UnownedFields:
/// removed by hand, or dropped by the server); or a manager of `takeover` owns fields of it. Sets `fields` to
/// what its ownership names. Otherwise applying it changes nothing: no drift.
bool NeedsDryRun(const nlohmann::json& rendered, const std::string& hash, const std::string& stored_hash,
                 const ObjectIdentity& id, const LiveOwner& live, const DriftOptions& options,
                 std::vector<std::string>* fields);

/// Checks every object recorded in `stored` against the cluster: missing when GET finds nothing
/// (or its kind is gone: neither served nor defined by a CRD, ReadLive); drifted when applying the
/// rendered object (server-side dry run, field manager tazuna) would change the live object — so server
/// defaults and fields owned by others are not drift, unlike the Go tool's hash of the live object. Objects no longer rendered are only
/// checked for presence. A stored key is matched to the rendered object by identity (so the Go tool's
/// 6-part keys of cluster-scoped objects and context-namespace keys find their object) and read where
/// the identity says the object is. With `options.takeover`, an object where a sync would remove fields
/// an earlier tool shared with tazuna's last apply is drifted, and one holding fields such a tool left
/// that the manifest does not set (and no controller owns) has a leftover; server defaults are neither
/// (a dry-run PUT checks which fields would come back), nor are the tools' bookkeeping annotations.
/// With `options.listed`, only objects NeedsDryRun names (and those no LIST answered for) are read and
/// dry-run: with nothing drifted, no request per object. Up to `options.concurrency` requests in flight;
/// sorted by type, then key.
util::Result<std::vector<DriftEntry>> Drift(kube::Client& client, const DesiredManifest& desired,
                                            const ManifestState& stored, IdentityResolver& ids,
                                            const DriftOptions& options);

}  // namespace tazuna::state
