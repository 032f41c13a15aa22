// The readiness of every kind without a rule of its own (custom resources above all): kstatus's generic
// rules, made strict about generations. kstatus takes a Ready condition as current whatever generation
// it was written for, and a custom resource nobody has written status for yet as ready.
#include <algorithm>

#include "state/readiness/readiness_fields.hpp"
#include "state/readiness/readiness_rules.hpp"
#include "state/store/state_key.hpp"
#include "util/api_version.hpp"
#include "util/strings.hpp"

namespace tazuna::state::readiness {

using nlohmann::json;
using util::StrCat;

namespace {

// The newest observedGeneration among `conditions` (metav1.Condition), or `newest` when none is newer.
std::optional<int64_t> NewestObserved(const json& conditions, std::optional<int64_t> newest) {
  for (const auto& c : conditions.is_array() ? conditions : json::array()) {
    const json& g = Field(c, "observedGeneration");
    if (g.is_number_integer()) newest = std::max(newest.value_or(g.get<int64_t>()), g.get<int64_t>());
  }
  return newest;
}

// The generation a status says it was written for: status.observedGeneration, else the newest
// observedGeneration of its conditions, or of the conditions of the entries of its lists (Gateway API:
// status.parents[].conditions of a route, status.listeners[].conditions of a Gateway); nullopt when it
// names none.
std::optional<int64_t> StatusGeneration(const json& o) {
  const json& observed = Field(o, "status", "observedGeneration");
  if (observed.is_number_integer()) return observed.get<int64_t>();
  std::optional<int64_t> newest = NewestObserved(Field(o, "status", "conditions"), std::nullopt);
  const json& status = Field(o, "status");
  if (!status.is_object()) return newest;
  for (const auto& [key, list] : status.items()) {
    if (!list.is_array()) continue;
    for (const auto& entry : list) newest = NewestObserved(Field(entry, "conditions"), newest);
  }
  return newest;
}

bool EmptyStatus(const json& o) {
  const json& status = Field(o, "status");
  return status.is_null() || (status.is_object() && status.empty());
}

// With a status subresource only controllers write status (a create drops it, CRD defaults fill it
// without a write). nullopt once a controller wrote status for the current generation; else why the
// object still waits, or past the grace period, ready with a warning. A status that names no
// generation cannot be dated: any write through the subresource counts.
std::optional<Readiness> AwaitController(const json& o, const JudgeContext& context) {
  const auto generation = Generation(o);
  if (const auto written_for = StatusGeneration(o)) {
    if (!generation || *written_for >= *generation) return std::nullopt;
    return InProgress(StrCat("status is for generation ", *written_for, ", not ", *generation));
  }
  const bool tracked = Field(o, "metadata", "managedFields").is_array();
  if (!EmptyStatus(o) && (!tracked || StatusWrittenAt(o))) return std::nullopt;
  if (GracePassed(o, context)) {
    return ReadyWithWarning(StrCat("no controller wrote its status within ", SecondsText(*context.grace),
                                   "; counted as ready"));
  }
  return InProgress("waiting for a controller to write its status");
}

// kstatus's conditions: Stalled=True fails, Reconciling=True is in progress, Ready decides when present.
// A stale condition never decides: it describes a spec that is gone.
Readiness ByConditions(const json& o) {
  const json& stalled = Condition(o, "Stalled");
  if (Str(Field(stalled, "status")) == "True") {
    return Stale(o, stalled) ? InProgress(StaleText(o, stalled)) : Failed(DescribeCondition(stalled));
  }
  if (ConditionIs(o, "Reconciling", "True")) return InProgress(DescribeCondition(Condition(o, "Reconciling")));
  const json& ready = Condition(o, "Ready");
  if (ready.is_null()) return Ready();
  if (Stale(o, ready)) return InProgress(StaleText(o, ready));
  if (Str(Field(ready, "status")) == "True") return Ready();
  return InProgress(DescribeCondition(ready));
}

}  // namespace

Readiness JudgeGeneric(const json& o, const JudgeContext& context) {
  if (Unobserved(o, false)) return NotObserved(o);
  if (!BuiltinGroup(util::SplitApiVersion(Str(Field(o, "apiVersion"))).group)) {
    if (context.status_subresource == StatusSubresource::kUnknown) return InProgress("status not read yet");
    if (context.status_subresource == StatusSubresource::kYes) {
      if (auto waiting = AwaitController(o, context)) return *waiting;
    }
  }
  return ByConditions(o);
}

}  // namespace tazuna::state::readiness
