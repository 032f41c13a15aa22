#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "state/apply/field_takeover.hpp"
#include "util/logger.hpp"

namespace tazuna::state {

/// What the take-over steps work with: the client, a logger, the managers taken over, the dry-run mode.
struct TakeoverContext {
  kube::Client& client;
  util::Logger& log;
  const TakeoverManagers& managers;
  kube::DryRun dry_run = kube::DryRun::kNone;
};

/// The object `object` (an applied or rendered object) is: its apiVersion, kind, namespace and name.
kube::ObjectRef RefOf(const nlohmann::json& object);

/// Strips from the managedFields of the object `ref` names what taken-over entries share with tazuna's
/// Apply entry (StripTakenOver), by a JSON patch that replaces /metadata/managedFields and, as the
/// precondition, /metadata/resourceVersion with the one of `seen` (as kubectl's own migration does).
/// A Conflict (the object changed since) reads the object again and retries: five attempts in all.
/// Returns the fields moved: empty when nothing is shared, or the object is gone. API errors are returned.
util::Result<FieldSet> StripOnServer(const TakeoverContext& c, const kube::ObjectRef& ref, TakeoverState seen);

/// `merged` (a dry-run apply's answer) without `paths`, as the server would store it.
struct SimulatedRemoval {
  nlohmann::json object;           ///< the object as stored: removed fields with a default have it again
  std::vector<FieldPath> removed;  ///< outermost paths of `paths` that are gone or hold another value
};
/// A dry-run PUT of `merged` without `paths` (and without managedFields); kube errors are returned.
util::Result<SimulatedRemoval> SimulateRemoval(kube::Client& client, const nlohmann::json& merged,
                                               const FieldSet& paths);

/// The take-over around one apply of SyncEngine, for an object whose fields apply tools share with
/// tazuna (FindTakeover). Before: strips from the tools' entries the fields of tazuna's last apply, so
/// that this apply removes what the manifest no longer sets. After (given the apply's whole answer):
/// names what that removed; on an adoption, strips what the tools share with the fields just applied.
/// With --dry-run=server nothing is written: After works out what Before would let the apply remove (a
/// dry-run PUT). With a null state every step does nothing and costs nothing.
class ApplyTakeover {
 public:
  ApplyTakeover(const TakeoverContext& context, const TakeoverState* state) : c_(context), state_(state) {}
  /// The apply must answer with the whole object (for After).
  bool active() const { return state_ != nullptr; }
  /// Before applying `object`. An error means the apply must not be sent: without the take-over it
  /// would keep fields the manifest dropped, and record the object as synced.
  util::Status Before(const nlohmann::json& object);
  /// After the apply answered `applied`: a note for the row ("removed data.b, metadata.labels.old"), or
  /// "". A failed strip on adoption is only a warning: the next sync's Before does it.
  std::string After(const nlohmann::json& applied);

 private:
  TakeoverContext c_;  // a copy: callers pass a temporary
  const TakeoverState* state_;
  FieldSet moved_;  ///< what Before moved (or, in a dry run, would move)
};

/// What `state diff --show-changes` and `state drift` learn from the take-over.
struct TakeoverPreview {
  nlohmann::json merged;              ///< the dry-run apply's answer as the sync would leave the object
  std::vector<FieldPath> removed;     ///< fields the sync removes because of the take-over
  std::vector<FieldPath> leftovers;   ///< with kLeftovers: fields tools left that no sync removes
  std::string warning;                ///< why the server could not check the removal ("" when it did)
};
enum class PreviewScope { kSync, kLeftovers };

/// From `live` (GET) and `merged` (DryRunApply of the rendered object): with kSync, `merged` minus what
/// the sync's take-over removes, checked by a dry-run PUT; with kLeftovers also the fields of taken-over
/// tools that the manifest does not set and nobody else owns. Costs no request unless there is such a
/// field. A PUT the server refuses leaves `merged` as it is and says why in `warning`.
TakeoverPreview PreviewTakeover(const TakeoverContext& c, const nlohmann::json& live, nlohmann::json merged,
                                PreviewScope scope);

}  // namespace tazuna::state
