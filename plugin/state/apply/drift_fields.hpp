#pragma once

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/model.hpp"
#include "state/apply/field_set.hpp"
#include "state/store/identity.hpp"

namespace tazuna::state {

/// Who owns the fields of a live object, read from its managedFields where managers other than tazuna
/// own any (LiveOwner::fields): tazuna's fields and each other entry's, those of the status subresource
/// left out (a status is never applied, so never taken from tazuna).
struct LiveFields {
  struct Entry {
    std::string manager;
    std::string subresource;  ///< "" or e.g. "scale"
    FieldSet fields;
  };
  FieldSet tazuna;              ///< every entry of manager tazuna (Apply; the Go tazuna's Update)
  bool tazuna_update = false;   ///< one of them is an Update (the Go tazuna's, before server-side apply)
  std::vector<Entry> others;
};

/// The LiveFields of `metadata` (a live object's), or null when only tazuna and the status subresource own
/// fields of it (nearly every object: nothing is parsed then) unless `always`.
std::shared_ptr<const LiveFields> ReadLiveFields(const nlohmann::json& metadata, bool always = false);

/// The fields every manifest yields (README "Fields other writers took"): `spec.replicas` to
/// kube-controller-manager (a HorizontalPodAutoscaler scales through it), the CA bundles CA injectors
/// (cert-manager's cainjector, OpenShift's service-ca) write into webhook configurations, APIServices and
/// CRD conversion webhooks, and an aggregated ClusterRole's rules to the aggregation controller.
const std::vector<manifest::YieldRule>& BuiltinYieldRules();

/// Whether `rule` yields the field at `path` of object `id` owned by `manager`.
bool Yields(const manifest::YieldRule& rule, const ObjectIdentity& id, const std::string& manager, const FieldPath& path);

/// One field tazuna applied that another writer has taken since.
struct TakenField {
  FieldPath path;
  std::string manager;
};

/// The fields of object `id` that other writers own and tazuna does not, that `desired` (the object as
/// rendered) sets, and that neither BuiltinYieldRules nor `rules` yield: what re-applying it takes back.
/// With `desired` null (a render not made), every such field of theirs that no rule yields, whether
/// rendered or not (the caller renders to tell).
std::vector<TakenField> TakenFields(const nlohmann::json* desired, const ObjectIdentity& id, const LiveFields& live,
                                    const std::vector<manifest::YieldRule>& rules);

/// Removes from `object` (to be applied) the fields other writers own now, tazuna does not, and a rule
/// (BuiltinYieldRules or `rules`) yields, so that applying it leaves them to their writers (an
/// autoscaler's replicas). Returns them, as DescribeFieldPath writes them.
std::vector<std::string> StripYielded(nlohmann::json& object, const ObjectIdentity& id, const LiveFields& live,
                                      const std::vector<manifest::YieldRule>& rules);

/// The fields `desired` (object `id` as rendered) sets that nobody owns live: removed by someone since tazuna
/// applied them (an update that removes a field takes it from every manager), or dropped by the server (an
/// unknown field of a custom resource). Maps are looked into field by field, lists item by item where their
/// items are keyed (an item found by the keys it has, as FindField finds it). Not the metadata the server
/// writes, a status, a Secret's write-only stringData, nulls or empty maps and lists, nor a path a rule
/// without managers (BuiltinYieldRules or `rules`) yields: a writer that removes a yielded field may. A hint
/// that only a dry run can confirm.
std::vector<FieldPath> UnownedFields(const nlohmann::json& desired, const ObjectIdentity& id, const LiveFields& live,
                                     const std::vector<manifest::YieldRule>& rules);

/// For a row's note: "kubectl-edit (spec.template.spec.containers[name=app].image)", managers in name
/// order, at most three fields each ("and N more").
std::string DescribeTaken(const std::vector<TakenField>& taken);

}  // namespace tazuna::state
