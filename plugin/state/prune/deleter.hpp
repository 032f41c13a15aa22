#pragma once

#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

#include "kube/client.hpp"
#include "state/apply/adaptive_limit.hpp"
#include "state/apply/apply_order.hpp"
#include "state/diff/live_compare.hpp"
#include "state/store/identity.hpp"
#include "state/store/state_key.hpp"
#include "state/store/store.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// What every delete of one run may not take, whoever asks (sync's prune, an uninstall).
struct DeleteScope {
  Origin origin;  ///< this repository: objects another one marked are never deleted
  kube::DryRun dry_run = kube::DryRun::kNone;
  /// Objects something still renders -> the manifest rendering them (this run's manifests and those -m/-t
  /// left out). Never deleted under any group that serves them; a Namespace holding any of them is kept.
  std::map<ObjectIdentity, std::string> rendered;
  /// With a plan: the uid each row's object had when the plan was checked ("" when none existed). Only
  /// that very object is deleted; one made again since (another uid) is kept, refused.
  std::optional<std::map<ObjectIdentity, std::string>> planned_uids;
};

/// One recorded object to delete: the row naming it and the state it is recorded in.
struct DeleteTarget {
  std::string manifest;       ///< the manifest whose state records it
  StateKey key;               ///< its state key, parsed
  ObjectIdentity identity;    ///< where it really is
  const Metadata* state = nullptr;  ///< `_metadata` of that state, as read (its origin)
};

/// What came of one delete.
struct DeleteOutcome {
  enum class Verdict { kDeleted, kGone, kKept, kFailed };
  Verdict verdict = Verdict::kKept;
  std::string note;          ///< why it was kept ("not managed by tazuna", "3 custom resources of it exist")
  bool forget = false;       ///< kept, but no longer this state's to record (another owner, still rendered)
  bool refused = false;      ///< kept for a reason that fails the run (a plan's object made again)
  bool forgettable = false;  ///< kept while its entry stays; `state forget` is the way out
  util::Error error;         ///< for kFailed
};

/// The one delete path: reads the object where it is served now (any version of its group), deletes it
/// only when tazuna's field manager owns fields of it, neither another manifest nor another repository
/// marked it, nothing renders it under another group, a plan (if any) pinned this very object, and the
/// delete takes nothing else along (a CRD with custom resources left, a Namespace holding objects this
/// run does not delete). The DELETE carries uid and resourceVersion preconditions; an object that
/// changes in between is read again. Thread-safe: one Deleter serves a run's parallel deletes, which
/// go a Phase at a time in reverse (objects, then CRDs, then Namespaces) so that the cascade guards see
/// what the run already removed.
class Deleter {
 public:
  /// `limit` (may be null) bounds requests in flight; `may_write` is asked before each delete (false:
  /// the run is stopping, the row is kept "sync stopped").
  Deleter(kube::Client& client, DeleteScope scope, AdaptiveLimit* limit, std::function<bool()> may_write);

  /// The manifest that still renders `id`, or null.
  const std::string* RenderedBy(const ObjectIdentity& id) const;
  /// Deletes `target` when every guard passes; `phase` is the target key's PhaseOf.
  DeleteOutcome Delete(const DeleteTarget& target, Phase phase);

 private:
  template <class F>
  auto Limited(F&& request) -> decltype(request());
  std::string NotOurs(const DeleteTarget& t, const nlohmann::json& live, DeleteOutcome& out) const;
  util::Result<std::optional<std::string>> RenderedInOtherGroup(const ObjectIdentity& id, const nlohmann::json& live);
  bool AsPlanned(const DeleteTarget& t, const nlohmann::json& live, DeleteOutcome& out) const;
  std::string CascadeGuard(Phase phase, const ObjectIdentity& id, const nlohmann::json& live);
  std::string NamespaceGuard(const std::string& ns);
  util::Result<int> RemainingCustomResources(const nlohmann::json& crd);

  kube::Client& client_;
  const DeleteScope scope_;
  AdaptiveLimit* limit_;
  std::function<bool()> may_write_;
  std::multimap<std::string, ObjectIdentity> by_kind_name_;  // kind/namespace/name -> rendered identities
  std::map<std::string, int> in_namespace_;                  // namespace -> rendered objects in it
  std::mutex mu_;
  std::set<std::string> deleted_uids_;  // guarded by mu_
  CrdIndex crds_;                       // for objects of a kind nothing serves: listed once per run
};

}  // namespace tazuna::state
