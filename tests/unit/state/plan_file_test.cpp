#include "state/plan_file.hpp"

#include <doctest/doctest.h>

namespace tazuna::state {
namespace {

DesiredObject Object(const std::string& key, const std::string& hash) {
  DesiredObject d;
  d.key = *ParseStateKey(key);
  d.key_string = key;
  d.hash = hash;
  d.object = {{"kind", "ConfigMap"}, {"data", {{"password", "s3cret-value"}}}};
  return d;
}

// One manifest "apps": a Deployment to modify and a ConfigMap unchanged, state at resourceVersion 41.
std::vector<SyncInput> Inputs() {
  SyncInput in;
  in.desired.name = "apps";
  in.desired.objects = {Object("apps/apps/v1/Deployment/x/web", "h-web-2"), Object("apps//v1/ConfigMap/x/cfg", "h-cfg")};
  in.stored.manifest = "apps";
  in.stored.entries = {{"apps/apps/v1/Deployment/x/web", "h-web-1"}, {"apps//v1/ConfigMap/x/cfg", "h-cfg"}};
  in.stored.objects = {{"tazuna-state-apps", "41"}};
  DiffEntry e;
  e.manifest = "apps";
  e.type = ChangeType::kModified;
  e.key = "apps/apps/v1/Deployment/x/web";
  e.old_hash = "h-web-1";
  e.new_hash = "h-web-2";
  e.object_index = 0;
  in.diff = {e};
  return {in};
}

TEST_CASE("plan: holds selection, rows, hashes and resourceVersions, never a body, and reads back") {
  Plan plan = MakePlan({"prod", {"net"}, {"apps"}}, Inputs(), "2026-11-23T18:00:00Z");
  plan.target = {"https://127.0.0.1:6443", "uid-1", "sha256:ca", "team-a", true, false, true};
  CHECK(plan.manifests == std::vector<std::string>{"apps"});
  CHECK(plan.changes == std::vector<PlanRow>{{"apps", "modified", "apps/apps/v1/Deployment/x/web", "", "h-web-1", "h-web-2"}});
  CHECK(plan.objects == std::vector<PlanObject>{{"apps", "apps/apps/v1/Deployment/x/web", "h-web-2"},
                                                {"apps", "apps//v1/ConfigMap/x/cfg", "h-cfg"}});
  CHECK(plan.states == std::vector<PlanState>{{"apps", "tazuna-state-apps", "41"}});
  const std::string text = EncodePlan(plan);
  CHECK(text.find("s3cret-value") == std::string::npos);
  auto back = DecodePlan(text);
  REQUIRE(back);
  CHECK(*back == plan);
  CHECK(PlanDigest(*back) == PlanDigest(plan));
  CHECK(PlanDigest(plan).rfind("sha256:", 0) == 0);
}

TEST_CASE("plan: DecodePlan rejects what is not a plan") {
  struct Case {
    std::string name, text, want;
  };
  const std::vector<Case> cases = {
      {"not JSON", "apiVersion: v1", "invalid plan: not a JSON object"},
      {"another kind", R"({"apiVersion":"v1","kind":"ConfigMap"})", "invalid plan: not a tazuna.pepabo.com/v1 Plan"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    auto got = DecodePlan(c.text);
    REQUIRE_FALSE(got);
    CHECK(got.error().message == c.want);
  }
  auto old = DecodePlan(R"({"apiVersion":"tazuna.pepabo.com/v1","kind":"Plan","createdAt":"t"})");
  REQUIRE_FALSE(old);
  CHECK(old.error().message ==
        "invalid plan: it names no target (server, namespace, flags); make it again with state diff --out");
}

TEST_CASE("plan: a plan applies only on its server, cluster, context namespace and flags") {
  Plan plan;
  plan.target = {"https://127.0.0.1:6443", "uid-1", "sha256:ca", "team-a", true, false, false};
  struct Case {
    std::string name;
    std::function<void(PlanTarget&)> change;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"the same", [](auto&) {}, ""},
      {"cluster uid unreadable now", [](auto& t) { t.cluster_uid = ""; },
       "plan was made for the cluster whose kube-system namespace has uid uid-1, this sync is for (kube-system not "
       "readable)"},
      {"another CA", [](auto& t) { t.ca_digest = "sha256:other"; },
       "plan was made for the certificate authority sha256:ca, this sync is for sha256:other"},
      {"another server", [](auto& t) { t.server = "https://localhost:6443"; },
       "plan was made for server https://127.0.0.1:6443, this sync is for https://localhost:6443"},
      {"another cluster at the same URL", [](auto& t) { t.cluster_uid = "uid-2"; },
       "plan was made for the cluster whose kube-system namespace has uid uid-1, this sync is for uid-2"},
      {"another context namespace", [](auto& t) { t.context_namespace = "team-b"; },
       "plan was made for context namespace \"team-a\", this sync is for \"team-b\""},
      {"without --prune", [](auto& t) { t.prune = false; }, "plan was made for a sync with --prune, this sync is for no flags"},
      {"more flags", [](auto& t) { t.allow_empty = t.take_ownership = true; },
       "plan was made for a sync with --prune, this sync is for --prune --allow-empty --take-ownership"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    PlanTarget now = plan.target;
    c.change(now);
    auto st = CheckPlanTarget(plan, now);
    CHECK((st ? std::string() : st.error().message) == c.want);
    if (!st) CHECK(st.error().kind == util::ErrorKind::kConflict);
  }
}

TEST_CASE("plan: CheckPlan passes only when nothing moved, and names what did") {
  const Plan plan = MakePlan({}, Inputs(), "2026-11-23T18:00:00Z");
  struct Case {
    std::string name;
    std::function<void(std::vector<SyncInput>&)> change;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"unchanged", [](auto&) {}, ""},
      {"state written since", [](auto& in) { in[0].stored.objects[0].resource_version = "57"; },
       "plan is stale: manifest \"apps\" state changed since the plan (revision 01JD3Q7ZK2M4X8N6P0R5S7T9V1)"},
      {"state spilled since", [](auto& in) { in[0].stored.objects.push_back({"tazuna-state-apps.g.1", "58"}); },
       "plan is stale: manifest \"apps\" state changed since the plan (revision 01JD3Q7ZK2M4X8N6P0R5S7T9V1)"},
      {"object renders differently", [](auto& in) { in[0].desired.objects[0].hash = "h-web-3"; },
       "plan is stale: object deployment.apps/web -n x renders differently than planned"},
      {"object gone", [](auto& in) { in[0].desired.objects.pop_back(); },
       "plan is stale: object configmap/cfg -n x is no longer rendered"},
      {"object added", [](auto& in) { in[0].desired.objects.push_back(Object("apps//v1/Namespace/x", "h-ns")); },
       "plan is stale: object namespace/x is rendered but was not planned"},
      {"hash unknown", [](auto& in) { in[0].desired.objects[1].hash_state = HashState::kUnreadable; },
       "a plan cannot vouch for object configmap/cfg -n x: its hash is unknown (the Secret hash key was missing or "
       "unreadable)"},
      {"another manifest", [](auto& in) { in[0].desired.name = "web"; },
       "plan is stale: it was made for manifests apps, this sync selects web"},
      {"rows differ", [](auto& in) { in[0].diff[0].old_hash = "h-web-0"; },
       "plan is stale: object deployment.apps/web -n x would change differently than planned"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    auto inputs = Inputs();
    c.change(inputs);
    auto st = CheckPlan(plan, inputs, [](const std::string&) { return std::string("01JD3Q7ZK2M4X8N6P0R5S7T9V1"); });
    CHECK((st ? std::string() : st.error().message) == c.want);
  }
}

}  // namespace
}  // namespace tazuna::state
