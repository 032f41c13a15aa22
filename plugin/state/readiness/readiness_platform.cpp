// Readiness rules of the cluster's own plumbing: CustomResourceDefinition, APIService,
// PersistentVolumeClaim, Namespace, PodDisruptionBudget and Service.
#include "state/readiness/readiness_fields.hpp"
#include "state/readiness/readiness_rules.hpp"
#include "util/strings.hpp"

namespace tazuna::state::readiness {

using nlohmann::json;
using util::StrCat;

Readiness JudgeCrd(const json& c, const JudgeContext&) {
  if (ConditionIs(c, "Established", "True")) return Ready();
  if (ConditionIs(c, "NamesAccepted", "False")) return Failed(DescribeCondition(Condition(c, "NamesAccepted")));
  // As kstatus: Established=False for any reason but Installing will not resolve itself.
  const json& established = Condition(c, "Established");
  if (Str(Field(established, "status")) == "False" && Str(Field(established, "reason")) != "Installing") {
    return Failed(DescribeCondition(established));
  }
  const std::string lacking = LackingCondition(c);
  return InProgress(lacking.empty() ? "not established" : lacking);
}

Readiness JudgeApiService(const json& a, const JudgeContext&) {
  if (ConditionIs(a, "Available", "True")) return Ready();
  const json& available = Condition(a, "Available");
  return InProgress(available.is_null() ? "not available" : DescribeCondition(available));
}

Readiness JudgePvc(const json& p, const JudgeContext&) {
  const std::string phase = Str(Field(p, "status", "phase"));
  if (phase == "Bound") return Ready();
  if (phase == "Lost") return Failed("phase Lost: its PersistentVolume is gone");
  return InProgress(StrCat("phase ", phase.empty() ? "Pending" : phase));
}

Readiness JudgeNamespace(const json& n, const JudgeContext&) {
  const std::string phase = Str(Field(n, "status", "phase"));
  if (phase == "Active") return Ready();
  return InProgress(StrCat("phase ", phase.empty() ? "unknown" : phase));
}

// kstatus counts a PodDisruptionBudget current at once; until the disruption controller has computed
// it for this generation (status.observedGeneration), evictions do not honour it yet.
// A controller that cannot compute it says SyncFailed (without an observedGeneration): in progress, for
// as long as that lasts.
Readiness JudgePodDisruptionBudget(const json& p, const JudgeContext& context) {
  const json& allowed = Condition(p, "DisruptionAllowed");
  if (Str(Field(allowed, "reason")) == "SyncFailed") return InProgress(DescribeCondition(allowed));
  if (!Field(p, "status", "observedGeneration").is_number_integer()) {
    if (allowed.is_null() && GracePassed(p, context)) {
      return ReadyWithWarning(StrCat("no disruption controller wrote its status within ", SecondsText(*context.grace),
                                     "; counted as ready"));
    }
    return InProgress("waiting for the disruption controller to compute it");
  }
  if (Unobserved(p, true)) return NotObserved(p);
  return Ready();
}

// A LoadBalancer Service is ready once it has an address (kstatus only asks for a cluster IP, helm
// for an ingress). With no load-balancer controller at all, nothing ever writes one: when nothing shows
// that a controller took it (a finalizer, a status condition) within the grace period, it counts as
// ready with a warning.
Readiness JudgeService(const json& s, const JudgeContext& context) {
  if (Str(Field(s, "spec", "type")) != "LoadBalancer") return Ready();
  const json& ingress = Field(Field(s, "status", "loadBalancer"), "ingress");
  if (ingress.is_array() && !ingress.empty()) return Ready();
  if (Str(Field(s, "spec", "clusterIP")).empty()) return InProgress("no cluster IP yet");
  const json& finalizers = Field(s, "metadata", "finalizers");
  const json& conditions = Field(s, "status", "conditions");
  const bool taken = (finalizers.is_array() && !finalizers.empty()) || (conditions.is_array() && !conditions.empty());
  if (!taken && GracePassed(s, context)) {
    return ReadyWithWarning(StrCat("no load balancer controller gave it an address within ",
                                   SecondsText(*context.grace), "; counted as ready"));
  }
  const std::string lacking = LackingCondition(s);
  return InProgress(StrCat("waiting for a load balancer address", lacking.empty() ? "" : " (" + lacking + ")"));
}

}  // namespace tazuna::state::readiness
