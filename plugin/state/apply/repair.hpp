#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "manifest/model.hpp"
#include "state/apply/result.hpp"
#include "state/apply/sync_engine.hpp"
#include "state/store/identity.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// Parses --repair: "all" (the default), "missing" or "none"; kUsage naming the allowed values otherwise.
util::Result<Repair> ParseRepair(const std::string& text);

/// For --repair=missing: adds to `inputs` a `missing` row (ChangeType::kMissing; the key its state records,
/// old and new hash the recorded one) for every rendered object no diff row names, which its state records
/// as applied with this content, whose live object is gone: absent from `live` (ReadLiveOwners with
/// UnchangedObjects::kList) and not in `unchecked` (no LIST could tell; never taken as gone). An object
/// that runs once (a Job, a Pod with restartPolicy Never or OnFailure) is done for its content once it
/// ran and is gone (as the readiness wait counts it): never missing. Each manifest's rows are sorted again
/// (SortDiff). Returns how many rows were added.
size_t AddMissingRows(std::vector<SyncInput>& inputs, const LiveOwners& live, const std::set<ObjectIdentity>& unchecked);

/// For --repair=all: adds a `drifted` row (ChangeType::kDrifted; key and hashes as for missing, `note`
/// DescribeTaken) for every rendered object no diff row names, recorded as applied with this content and
/// marked as this manifest's live, whose fields tazuna applied other writers have taken since (TakenFields
/// of LiveOwner::fields, read with OwnerQuery::fields; `yields` holds each manifest's yieldFields). A manifest
/// not rendered (from its state) gets no such row: when another writer owns fields of one of its objects that no
/// rule yields, its name goes to `needs_render` (rendering it tells whether they are fields it sets). Returns how
/// many rows were added.
size_t AddDriftedRows(std::vector<SyncInput>& inputs, const LiveOwners& live,
                      const std::map<std::string, std::vector<manifest::YieldRule>>& yields,
                      std::set<std::string>* needs_render);

/// For --repair=all, after AddDriftedRows: the rendered objects no diff row names, recorded as applied with
/// this content, that set fields nobody owns live (UnownedFields: removed by hand, as an update that removes a
/// field takes it from every manager; or dropped by the server, as an unknown field of a custom resource) are
/// read and dry-run applied as a sync applies them (yielded fields left out): where that would change the live
/// object, a `drifted` row noting "fields removed (PATHS)". Two requests per such object, none for the others
/// (`live` read with LiveFieldsOf::kEvery); up to `concurrency` in flight. A check that fails is a warning and
/// its object stays unchanged. Manifests not rendered (from their state) are not checked: state diff looks only
/// when it writes a plan (every manifest rendered). Returns the rows added.
size_t AddRemovedRows(kube::Client& client, std::vector<SyncInput>& inputs, const LiveOwners& live,
                      const std::map<std::string, std::vector<manifest::YieldRule>>& yields, int concurrency,
                      util::Logger& log);

/// The warning for unchanged objects whose existence could not be checked ("" when there are none):
/// how many, the first of them, and that they stay unchanged (not repaired if missing).
std::string UncheckedWarning(const std::set<ObjectIdentity>& unchecked);

}  // namespace tazuna::state
