#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "state/apply/field_set.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// The field manager tazuna applies with (server-side apply, operation Apply).
inline constexpr char kTazunaManager[] = "tazuna";

/// One field manager of a tool that applied objects before tazuna did.
struct ToolManager {
  const char* name;
  const char* written_by;
};

/// The manager the API server gives the fields of an object without managedFields on its first apply.
inline constexpr char kBeforeFirstApply[] = "before-first-apply";

/// The managers taken over by default (README "Objects made by other tools"). Their entries without a
/// subresource (Update or Apply) lose to tazuna the fields tazuna's own apply also sets; controllers,
/// subresources (status, scale) and every other manager keep theirs.
inline constexpr ToolManager kDefaultToolManagers[] = {
    {"kubectl-client-side-apply", "kubectl apply (client-side)"},
    {"kubectl-create", "kubectl create"},
    {"kubectl-edit", "kubectl edit"},
    {"kubectl-replace", "kubectl replace"},
    {"kubectl-run", "kubectl run"},
    {"kubectl-expose", "kubectl expose"},
    {"kubectl", "kubectl apply --server-side (its default manager); old kubectl versions, for every command"},
    {"helm", "helm install/upgrade"},
    {"tazuna", "the Go tazuna before it used server-side apply (Update)"},
    {kBeforeFirstApply, "the API server: the fields an object had before its managedFields were tracked"},
};

/// Names of the field managers whose fields tazuna takes over.
struct TakeoverManagers {
  std::set<std::string> names;
  bool operator==(const TakeoverManagers&) const = default;
};

/// kDefaultToolManagers.
TakeoverManagers DefaultTakeoverManagers();

/// `--takeover-managers` (or its variable, named by `source` in errors): names separated by commas;
/// `default` stands for the default table, `none` (alone) for no manager. kUsage error for an empty name
/// or one with blanks or control characters.
util::Result<TakeoverManagers> ParseTakeoverManagers(std::string_view text, std::string_view source);

/// Whose fields are whose on one object, read from its managedFields.
struct FieldOwners {
  bool has_tazuna = false;     ///< tazuna's Apply entry (without subresource) exists
  std::string tazuna_version;  ///< its apiVersion
  FieldSet tazuna;             ///< the fields of tazuna's last apply
  /// Entries of taken-over managers without subresource and in tazuna's apiVersion (field paths of
  /// another version may mean other fields: those entries are counted in `others` and left alone).
  FieldSet tools;
  FieldSet others;  ///< every other entry: controllers, subresources, other managers
  std::vector<std::string> tool_managers;  ///< managers of `tools`, without repeats
};
FieldOwners ReadFieldOwners(const nlohmann::json& managed_fields, const TakeoverManagers& takeover);
/// `owners` of `object` as seen for Leftovers: a Secret's `stringData` keys, which the server writes
/// to `data` and keeps no trace of, count as tazuna's `data` keys too.
FieldOwners WithWrittenFields(FieldOwners owners, const nlohmann::json& object);

/// What a metadata LIST saw of an object whose fields apply tools share with tazuna.
struct TakeoverState {
  std::string resource_version;
  nlohmann::json managed_fields;
  bool adopting = false;  ///< tazuna has not applied it yet: the tools' shares are moved after the apply
};

/// The state to keep for an object (`metadata` of a live object or PartialObjectMetadata), or null when
/// there is nothing to take over: no entry of a taken-over manager (an object without managedFields
/// counts as one of before-first-apply, when that is taken over), or (after tazuna applied it) none
/// that shares a field with tazuna's or holds a container tazuna sets fields in (StripTakenOver). Null for
/// nearly every object, so syncs keep no managedFields.
std::shared_ptr<const TakeoverState> FindTakeover(const nlohmann::json& metadata, const TakeoverManagers& takeover);

/// `managed_fields` with every entry of `tools` (FieldOwners) stripped of the fields tazuna's Apply entry
/// owns, and of the containers below the top-level fields that tazuna sets fields in without owning them
/// (an Apply entry owns no struct or map node): a one-value container (a probe, a CR's object field) with
/// all its fields, defaults included, which then belong to no one; a keyed map, a list, or a struct holding
/// them, only as a node (their other keys and items stay the tool's). So a container the manifest drops
/// goes whole. An entry left empty is dropped, every other entry is kept as it is. nullopt when no entry
/// changes. `moved` (when given) gets the shared fields (those a manifest that drops them removes).
std::optional<nlohmann::json> StripTakenOver(const nlohmann::json& managed_fields, const TakeoverManagers& takeover,
                                             FieldSet* moved);

/// The fields the server removes because `moved` was taken over, seen in `after` (the owners once the
/// manifest is applied): moved fields tazuna no longer sets and nobody else owns (a tool's remaining
/// fields count as owned), without those that still hold owned fields.
FieldSet Released(const FieldSet& moved, const FieldOwners& after);

/// Fields of taken-over tools that tazuna does not set and nobody else owns (leftovers of an earlier
/// tool, so the manifest does not say them), without those that still hold owned fields and without the
/// tools' own bookkeeping annotations (kubectl's last-applied-configuration, helm's release name and
/// namespace), which kubectl's own upgrade leaves in place too.
FieldSet Leftovers(const FieldOwners& owners);

/// "data.b, metadata.labels.old" for a row's note; after `limit` paths, "and N more".
std::string DescribeFields(const std::vector<FieldPath>& paths, size_t limit = 6);

}  // namespace tazuna::state
