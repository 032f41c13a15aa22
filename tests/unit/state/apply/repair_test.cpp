#include "state/apply/repair.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "state/diff/diff.hpp"
#include "state/plan/plan_file.hpp"

namespace tazuna::state {
namespace {

DesiredObject Object(const std::string& key, const ObjectIdentity& id, const std::string& hash,
                     nlohmann::json body = nlohmann::json::object()) {
  DesiredObject d;
  d.key = *ParseStateKey(key);
  d.key_string = key;
  d.identity = id;
  d.hash = hash;
  d.object = std::move(body);
  return d;
}

const ObjectIdentity kCfg{"", "ConfigMap", "x", "cfg"};
const ObjectIdentity kRole{"rbac.authorization.k8s.io", "ClusterRole", "", "reader"};
const ObjectIdentity kWeb{"apps", "Deployment", "x", "web"};
const ObjectIdentity kJob{"batch", "Job", "x", "migrate"};
const ObjectIdentity kPod{"", "Pod", "x", "once"};
const ObjectIdentity kWidget{"example.com", "Widget", "x", "w"};

// One manifest "apps": a Deployment modified, the rest unchanged; the ClusterRole recorded under the Go
// tool's 6-part key (a namespace segment on a cluster-scoped kind).
SyncInput Input() {
  SyncInput in;
  in.desired.name = "apps";
  in.desired.objects = {
      Object("apps/apps/v1/Deployment/x/web", kWeb, "h-web-2"),
      Object("apps//v1/ConfigMap/x/cfg", kCfg, "h-cfg"),
      Object("apps/rbac.authorization.k8s.io/v1/ClusterRole/reader", kRole, "h-role"),
      Object("apps/batch/v1/Job/x/migrate", kJob, "h-job"),
      Object("apps//v1/Pod/x/once", kPod, "h-pod", {{"spec", {{"restartPolicy", "Never"}}}}),
      Object("apps/example.com/v1/Widget/x/w", kWidget, "h-w"),
  };
  in.stored.manifest = "apps";
  in.stored.entries = {{"apps/apps/v1/Deployment/x/web", "h-web-1"},
                       {"apps//v1/ConfigMap/x/cfg", "h-cfg"},
                       {"apps/rbac.authorization.k8s.io/v1/ClusterRole/default/reader", "h-role"},
                       {"apps/batch/v1/Job/x/migrate", "h-job"},
                       {"apps//v1/Pod/x/once", "h-pod"},
                       {"apps/example.com/v1/Widget/x/w", "h-w"}};
  in.stored.objects = {{"tazuna-state-apps", "41"}};
  const std::string web = "apps/apps/v1/Deployment/x/web";
  in.diff = {{"apps", ChangeType::kModified, web, *ParseStateKey(web), "", "h-web-1", "h-web-2", 0, kWeb, true}};
  return in;
}

}  // namespace

TEST_CASE("repair: an unchanged object gone live is a missing row under its stored key; unknowns are not") {
  struct Case {
    const char* name;
    LiveOwners live;
    std::set<ObjectIdentity> unchecked;
    std::vector<std::string> missing;  // keys of the missing rows, in order
  };
  const LiveOwner here{"uid-1", "apps", "", true, {"tazuna"}, nullptr, nullptr};
  const Case cases[] = {
      {"everything exists", {{kCfg, here}, {kRole, here}, {kWidget, here}}, {}, {}},
      {"the ConfigMap and the ClusterRole are gone",
       {{kWidget, here}},
       {},
       {"apps//v1/ConfigMap/x/cfg", "apps/rbac.authorization.k8s.io/v1/ClusterRole/default/reader"}},
      // RBAC forbids listing ClusterRoles, Widgets are not served: neither seen nor known absent.
      {"a kind that cannot be listed is not missing", {}, {kRole, kWidget}, {"apps//v1/ConfigMap/x/cfg"}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    std::vector<SyncInput> inputs = {Input()};
    const size_t added = AddMissingRows(inputs, c.live, c.unchecked);
    CHECK(added == c.missing.size());
    std::vector<std::string> keys;
    for (const auto& e : inputs[0].diff) {
      if (e.type != ChangeType::kMissing) continue;
      keys.push_back(e.key);
      CHECK(e.old_hash == e.new_hash);
      CHECK(e.valid_key);
      CHECK(inputs[0].desired.objects[static_cast<size_t>(e.object_index)].identity == e.identity);
    }
    CHECK(keys == c.missing);
    CHECK(inputs[0].diff.front().type == ChangeType::kModified);  // sorted by type: missing rows come last
  }
}

TEST_CASE("repair: a missing row carries the stored key, the recorded hash and the parsed stored key") {
  std::vector<SyncInput> inputs = {Input()};
  REQUIRE(AddMissingRows(inputs, {}, {kCfg, kWidget}) == 1);
  const DiffEntry& e = inputs[0].diff.back();
  CHECK(e.manifest == "apps");
  CHECK(ChangeTypeName(e.type) == std::string("missing"));
  CHECK(e.key == "apps/rbac.authorization.k8s.io/v1/ClusterRole/default/reader");
  CHECK(e.parsed.namespace_name == "default");
  CHECK(e.old_hash == "h-role");
  CHECK(e.new_hash == "h-role");
  CHECK(e.object_index == 2);
  CHECK(e.old_key.empty());
}

TEST_CASE("repair: objects that run once, unrecorded objects and unknown hashes are never missing") {
  std::vector<SyncInput> inputs = {Input()};
  inputs[0].stored.entries.erase("apps//v1/ConfigMap/x/cfg");  // rendered but never recorded (e.g. forgotten)
  inputs[0].desired.objects[2].hash_state = HashState::kUnreadable;
  CHECK(AddMissingRows(inputs, {}, {kWidget}) == 0);  // Job, Pod (restartPolicy Never): ran, done
  // A Pod of a manifest not rendered has no spec to tell: it counts as run once (the sync renders it).
  inputs = {Input()};
  inputs[0].desired.from_state = true;
  inputs[0].desired.objects[4].object = {{"kind", "Pod"}};
  CHECK(AddMissingRows(inputs, {}, {kCfg, kRole, kWidget}) == 0);
  inputs = {Input()};
  inputs[0].desired.objects[4].object = {{"spec", {{"restartPolicy", "Always"}}}};
  CHECK(AddMissingRows(inputs, {}, {kCfg, kRole, kWidget}) == 1);
}

TEST_CASE("repair: --repair takes all, missing or none") {
  CHECK(*ParseRepair("all") == Repair::kAll);
  CHECK(*ParseRepair("missing") == Repair::kMissing);
  CHECK(*ParseRepair("none") == Repair::kNone);
  const auto bad = ParseRepair("fields");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().kind == util::ErrorKind::kUsage);
  CHECK(bad.error().message == "invalid --repair \"fields\": must be \"all\", \"missing\" or \"none\"");
  CHECK(std::string(RepairName(Repair::kMissing)) == "missing");
  CHECK(std::string(RepairName(Repair::kNone)) == "none");
}

TEST_CASE("repair: the warning for objects whose existence could not be checked") {
  CHECK(UncheckedWarning({}) == "");
  CHECK(UncheckedWarning({kRole}) ==
        "cannot check that unchanged object ClusterRole.rbac.authorization.k8s.io reader still exists: it is reported "
        "unchanged and not recreated if missing (grant list on its kind to check it)");
  CHECK(UncheckedWarning({kRole, kCfg}) ==
        "cannot check that 2 unchanged objects still exist (first: ConfigMap x/cfg): they are reported unchanged and "
        "not recreated if missing (grant list on their kinds to check them)");
}

TEST_CASE("repair: a plan recreates the missing objects it shows, and refuses one that went missing since") {
  std::vector<SyncInput> planned = {Input()};
  REQUIRE(AddMissingRows(planned, {}, {kRole, kWidget}) == 1);  // the ConfigMap was missing when planned
  const Plan plan = MakePlan({}, planned, "2026-12-02T18:00:00Z", {});
  REQUIRE(plan.changes.size() == 2);
  CHECK(plan.changes[1].change == "missing");
  CHECK(plan.changes[1].key == "apps//v1/ConfigMap/x/cfg");
  CHECK_FALSE(plan.changes[1].live.exists);
  CHECK(CheckPlan(plan, planned, {}, nullptr));
  // Since the plan, the ClusterRole went missing too: reported, not recreated.
  std::vector<SyncInput> now = {Input()};
  REQUIRE(AddMissingRows(now, {}, {kWidget}) == 2);
  const auto st = CheckPlan(plan, now, {}, nullptr);
  REQUIRE_FALSE(st);
  CHECK(st.error().message ==
        "plan is stale: object clusterrole.rbac.authorization.k8s.io/reader -n default was deleted since the plan (the "
        "plan does not recreate it)");
  // The planned missing ConfigMap exists again: the rows differ.
  std::vector<SyncInput> back = {Input()};
  const auto again = CheckPlan(plan, back, {}, nullptr);
  REQUIRE_FALSE(again);
  CHECK(again.error().message == "plan is stale: object configmap/cfg -n x would change differently than planned");
}

}  // namespace tazuna::state
