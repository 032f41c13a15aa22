#include "state/plan/plan_file.hpp"

#include <algorithm>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include "util/sha256.hpp"

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

// The live Deployment web of Inputs(): manifest apps of this repository; managers as the server lists them.
LiveOwners Live() {
  LiveOwner web;
  web.uid = "uid-web";
  web.manifest = "apps";
  web.origin = "github.com/org/platform:tazuna.yaml";
  web.tazuna_manager = true;
  web.managers = {"tazuna", "kube-controller-manager"};
  return {{ObjectIdentity{"apps", "Deployment", "x", "web"}, web}};
}

void SetWebIdentity(std::vector<SyncInput>& inputs) {
  inputs[0].diff[0].identity = {"apps", "Deployment", "x", "web"};
  inputs[0].desired.objects[0].identity = {"apps", "Deployment", "x", "web"};
}

std::vector<SyncInput> InputsWithIdentity() {
  auto inputs = Inputs();
  SetWebIdentity(inputs);
  return inputs;
}

TEST_CASE("plan: holds selection, rows, hashes and resourceVersions, never a body, and reads back") {
  Plan plan = MakePlan({"prod", {"net"}, {"apps"}}, InputsWithIdentity(), "2026-11-23T18:00:00Z", Live());
  plan.target = {"https://127.0.0.1:6443", "uid-1", "sha256:ca", "team-a", true, false, true, {"helm", "kubectl"}, "example.com/platform:tazuna.yaml"};
  CHECK(plan.manifests == std::vector<std::string>{"apps"});
  const PlanLive web{true,  "uid-web", "apps", "github.com/org/platform:tazuna.yaml",
                     true, {"kube-controller-manager", "tazuna"}};
  CHECK(plan.changes ==
        std::vector<PlanRow>{{"apps", "modified", "apps/apps/v1/Deployment/x/web", "", "h-web-1", "h-web-2", web}});
  // Both bodies are Object()'s: one whole-object digest.
  const std::string digest = "sha256:" + util::Sha256Hex(Object("apps//v1/ConfigMap/x/cfg", "").object.dump());
  CHECK(plan.objects == std::vector<PlanObject>{{"apps", "apps/apps/v1/Deployment/x/web", "h-web-2", digest},
                                                {"apps", "apps//v1/ConfigMap/x/cfg", "h-cfg", digest}});
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

TEST_CASE("plan: a plan that does not pin the live objects (an older version's) is refused") {
  Plan plan = MakePlan({}, InputsWithIdentity(), "2026-11-23T18:00:00Z", Live());
  nlohmann::json j = nlohmann::json::parse(EncodePlan(plan));
  const std::string want =
      "invalid plan: it does not record the live objects it saw (made by an older version of tazuna); make it again "
      "with state diff --out";
  SUBCASE("a row without live") { j["changes"][0].erase("live"); }
  SUBCASE("flags without takeoverManagers") { j["target"]["flags"].erase("takeoverManagers"); }
  auto got = DecodePlan(j.dump());
  REQUIRE_FALSE(got);
  CHECK(got.error().kind == util::ErrorKind::kInput);
  CHECK(got.error().message == want);
}

TEST_CASE("plan: a plan that does not record its repository (an older version's) is refused") {
  Plan plan = MakePlan({}, InputsWithIdentity(), "2026-11-23T18:00:00Z", Live());
  plan.target.origin = "github.com/org/platform:tazuna.yaml";
  nlohmann::json j = nlohmann::json::parse(EncodePlan(plan));
  CHECK(j["target"]["origin"] == "github.com/org/platform:tazuna.yaml");
  auto back = DecodePlan(j.dump());
  REQUIRE(back);
  CHECK(back->target.origin == plan.target.origin);
  j["target"].erase("origin");
  auto got = DecodePlan(j.dump());
  REQUIRE_FALSE(got);
  CHECK(got.error().message ==
        "invalid plan: it does not record its repository (made by an older version of tazuna); make it again with "
        "state diff --out");
}

TEST_CASE("plan: whole-object digests are pinned, never of a Secret; a plan without them is refused") {
  auto inputs = InputsWithIdentity();
  inputs[0].desired.objects[1].object = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"data", {{"k", "czNjcmV0"}}}};
  Plan plan = MakePlan({}, inputs, "2026-11-23T18:00:00Z", Live());
  REQUIRE(plan.objects.size() == 2);
  CHECK(plan.objects[0].digest.rfind("sha256:", 0) == 0);
  CHECK(plan.objects[1].digest.empty());
  nlohmann::json j = nlohmann::json::parse(EncodePlan(plan));
  auto back = DecodePlan(j.dump());
  REQUIRE(back);
  CHECK(back->objects == plan.objects);
  j["objects"][0].erase("digest");
  auto got = DecodePlan(j.dump());
  REQUIRE_FALSE(got);
  CHECK(got.error().message ==
        "invalid plan: it pins only the state's hashes, which leave out status (made by an older version of tazuna); "
        "make it again with state diff --out");
}

TEST_CASE("plan: clusters compare by the first kind of id both sides have, else cannot be told") {
  CHECK(CompareClusters({"u1", "c1"}, {"u1", "c2"}) == Sameness::kSame);  // kube-system first
  CHECK(CompareClusters({"u1", ""}, {"u2", ""}) == Sameness::kOther);
  CHECK(CompareClusters({"", "c1"}, {"u1", "c1"}) == Sameness::kSame);
  CHECK(CompareClusters({"", "c1"}, {"u1", "c2"}) == Sameness::kOther);
  CHECK(CompareClusters({"u1", ""}, {"", "c1"}) == Sameness::kUnknown);
  CHECK(CompareClusters({"", ""}, {"", ""}) == Sameness::kUnknown);
  // A plan made where nothing could be read (--insecure-skip-cluster-identity) applies only where nothing can.
  Plan plan;
  plan.target.cluster_uid = "";
  PlanTarget now = plan.target;
  CHECK(CheckPlanTarget(plan, now));
  now.cluster_root_ca_uid = "c1";
  CHECK_FALSE(CheckPlanTarget(plan, now));
}

std::vector<std::string> Defaults() {
  const auto names = DefaultTakeoverManagers().names;
  return {names.begin(), names.end()};
}

TEST_CASE("plan: take-over managers compare as sets; the default table by its names") {
  Plan plan;
  plan.target.takeover_managers = {"kubectl", "helm"};
  PlanTarget now = plan.target;
  now.takeover_managers = {"helm", "kubectl", "helm"};
  CHECK(CheckPlanTarget(plan, now));
  plan.target.takeover_managers = Defaults();
  now.takeover_managers = Defaults();
  std::reverse(now.takeover_managers.begin(), now.takeover_managers.end());
  CHECK(CheckPlanTarget(plan, now));
  now.takeover_managers.pop_back();
  CHECK_FALSE(CheckPlanTarget(plan, now));
}

TEST_CASE("plan: a plan applies only on its server, cluster, context namespace, flags and repository") {
  Plan plan;
  plan.target = {"https://127.0.0.1:6443", "uid-1", "sha256:ca", "team-a", true, false, false, {},
                 "github.com/org/platform:tazuna.yaml"};
  struct Case {
    std::string name;
    std::function<void(PlanTarget&)> change;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"the same", [](auto&) {}, ""},
      {"cluster uid unreadable now", [](auto& t) { t.cluster_uid = ""; },
       "plan was made for the cluster whose kube-system namespace has uid uid-1, this sync is for the cluster whose "
       "identity could not be read"},
      {"only the root CA ConfigMap readable now", [](auto& t) { t.cluster_uid = "", t.cluster_root_ca_uid = "ca-1"; },
       "plan was made for the cluster whose kube-system namespace has uid uid-1, this sync is for the cluster whose "
       "ConfigMap tazuna/kube-root-ca.crt has uid ca-1"},
      {"another CA", [](auto& t) { t.ca_digest = "sha256:other"; },
       "plan was made for the certificate authority sha256:ca, this sync is for sha256:other"},
      {"another server", [](auto& t) { t.server = "https://localhost:6443"; },
       "plan was made for server https://127.0.0.1:6443, this sync is for https://localhost:6443"},
      {"another cluster at the same URL", [](auto& t) { t.cluster_uid = "uid-2"; },
       "plan was made for the cluster whose kube-system namespace has uid uid-1, this sync is for the cluster whose "
       "kube-system namespace has uid uid-2"},
      {"another context namespace", [](auto& t) { t.context_namespace = "team-b"; },
       "plan was made for context namespace \"team-a\", this sync is for \"team-b\""},
      {"without --prune", [](auto& t) { t.prune = false; }, "plan was made for a sync with --prune, this sync is for no flags"},
      {"more flags", [](auto& t) { t.allow_empty = t.take_ownership = true; },
       "plan was made for a sync with --prune, this sync is for --prune --allow-empty --take-ownership"},
      {"the default take-over managers", [](auto& t) { t.takeover_managers = Defaults(); },
       "plan was made for a sync with --takeover-managers=none, this sync is for --takeover-managers=default"},
      {"other take-over managers", [](auto& t) { t.takeover_managers = {"kubectl", "helm"}; },
       "plan was made for a sync with --takeover-managers=none, this sync is for --takeover-managers=helm,kubectl"},
      {"another repository", [](auto& t) { t.origin = "github.com/someone/fork:tazuna.yaml"; },
       "plan was made for repository github.com/org/platform (tazuna.yaml), this sync is for github.com/someone/fork "
       "(tazuna.yaml)"},
      {"another file of the repository", [](auto& t) { t.origin = "github.com/org/platform:staging/tazuna.yaml"; },
       "plan was made for repository github.com/org/platform (tazuna.yaml), this sync is for github.com/org/platform "
       "(staging/tazuna.yaml)"},
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

TEST_CASE("plan: a password in the server URL is never written, and a plan still matches its server") {
  Plan plan = MakePlan({}, Inputs(), "2026-11-23T18:00:00Z", {});
  plan.target = {"https://admin:s3cr3t-pw@127.0.0.1:6443", "uid-1", "", "team-a", false, false, false, {}, ""};
  const std::string text = EncodePlan(plan);
  CHECK(text.find("s3cr3t-pw") == std::string::npos);
  CHECK(text.find(R"("server": "https://admin:***@127.0.0.1:6443")") != std::string::npos);
  auto back = DecodePlan(text);
  REQUIRE(back);
  CHECK(CheckPlanTarget(*back, plan.target));
  CHECK(CheckPlanTarget(plan, plan.target));  // an older plan that holds the password in clear
  PlanTarget other = plan.target;
  other.server = "https://admin:s3cr3t-pw@127.0.0.2:6443";
  auto st = CheckPlanTarget(*back, other);
  REQUIRE_FALSE(st);
  CHECK(st.error().message ==
        "plan was made for server https://admin:***@127.0.0.1:6443, this sync is for https://admin:***@127.0.0.2:6443");
}

TEST_CASE("plan: CheckPlan passes only when nothing moved, and names what did") {
  const Plan plan = MakePlan({}, Inputs(), "2026-11-23T18:00:00Z", {});
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
      {"status only (the hash leaves it out)",
       [](auto& in) { in[0].desired.objects[0].object["status"] = {{"phase", "edited"}}; },
       "plan is stale: object deployment.apps/web -n x renders differently than planned (in a field the state's "
       "hash leaves out, such as status)"},
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
    auto st = CheckPlan(plan, inputs, {}, [](const std::string&) { return std::string("01JD3Q7ZK2M4X8N6P0R5S7T9V1"); });
    CHECK((st ? std::string() : st.error().message) == c.want);
  }
}

// A plan of InputsWithIdentity() plus a removed ConfigMap old (live uid-old, tazuna's) and an added
// ConfigMap new that did not exist.
struct LiveCase {
  std::vector<SyncInput> inputs = InputsWithIdentity();
  LiveRead live{Live(), {}};
  LiveCase() {
    DiffEntry removed;
    removed.manifest = "apps";
    removed.type = ChangeType::kRemoved;
    removed.key = "apps//v1/ConfigMap/x/old";
    removed.parsed = *ParseStateKey(removed.key);
    removed.old_hash = "h-old";
    removed.identity = {"", "ConfigMap", "x", "old"};
    DiffEntry added;
    added.manifest = "apps";
    added.type = ChangeType::kAdded;
    added.key = "apps//v1/ConfigMap/x/new";
    added.parsed = *ParseStateKey(added.key);
    added.new_hash = "h-new";
    added.object_index = 2;
    added.identity = {"", "ConfigMap", "x", "new"};
    inputs[0].desired.objects.push_back(Object(added.key, "h-new"));
    inputs[0].stored.entries[removed.key] = "h-old";
    inputs[0].diff = {added, inputs[0].diff[0], removed};
    LiveOwner old;
    old.uid = "uid-old";
    old.manifest = "apps";
    old.tazuna_manager = true;
    old.managers = {"tazuna"};
    live.owners[removed.identity] = old;
  }
};

TEST_CASE("plan: CheckPlan refuses when a row's live object appeared, disappeared, was made again or changed owner") {
  const LiveCase planned;
  Plan plan = MakePlan({}, planned.inputs, "2026-11-23T18:00:00Z", planned.live.owners);
  plan.target.takeover_managers = Defaults();  // the managers a sync takes over are those compared
  const ObjectIdentity added{"", "ConfigMap", "x", "new"}, web{"apps", "Deployment", "x", "web"},
      removed{"", "ConfigMap", "x", "old"};
  LiveOwner sibling;
  sibling.uid = "uid-new";
  sibling.manifest = "mb";
  sibling.origin = "github.com/org/other:tazuna.yaml";
  sibling.tazuna_manager = true;
  sibling.managers = {"tazuna"};
  LiveOwner created;
  created.uid = "uid-new";
  created.managers = {"kubectl-create"};
  struct Case {
    std::string name;
    std::function<void(LiveRead&)> change;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"unchanged", [](auto&) {}, ""},
      {"managers listed in another order",
       [&](auto& l) { l.owners[web].managers = {"kube-controller-manager", "tazuna"}; }, ""},
      {"a controller that no sync takes over writes the object (its status, a scale)",
       [&](auto& l) { l.owners[web].managers.push_back("horizontal-pod-autoscaler"); }, ""},
      {"another repository created the added object", [&](auto& l) { l.owners[added] = sibling; },
       "plan is stale: object configmap/new -n x was created since the plan (now manifest \"mb\" of repository "
       "github.com/org/other (tazuna.yaml), field managers tazuna)"},
      {"kubectl create made the added object", [&](auto& l) { l.owners[added] = created; },
       "plan is stale: object configmap/new -n x was created since the plan (now field managers kubectl-create)"},
      {"the modified object was deleted", [&](auto& l) { l.owners.erase(web); },
       "plan is stale: object deployment.apps/web -n x was deleted since the plan"},
      {"the modified object was made again", [&](auto& l) { l.owners[web].uid = "uid-web-2"; },
       "plan is stale: object deployment.apps/web -n x was deleted and created again since the plan (uid uid-web, now "
       "uid-web-2)"},
      {"the pruned object was made again", [&](auto& l) { l.owners[removed].uid = "uid-old-2"; },
       "plan is stale: object configmap/old -n x was deleted and created again since the plan (uid uid-old, now "
       "uid-old-2)"},
      {"the pruned object was taken by a sibling", [&](auto& l) { l.owners[removed].manifest = "mb"; },
       "plan is stale: object configmap/old -n x changed owner since the plan (was manifest \"apps\", field managers "
       "tazuna; now manifest \"mb\", field managers tazuna)"},
      {"kubectl edit wrote the modified object", [&](auto& l) { l.owners[web].managers.push_back("kubectl-edit"); },
       "plan is stale: object deployment.apps/web -n x changed owner since the plan (was manifest \"apps\" of "
       "repository github.com/org/platform (tazuna.yaml), field managers kube-controller-manager, tazuna; now manifest "
       "\"apps\" of repository github.com/org/platform (tazuna.yaml), field managers kube-controller-manager, "
       "kubectl-edit, tazuna)"},
      {"owner unreadable", [&](auto& l) { l.unknown.insert(removed); },
       "plan cannot be checked: who owns object configmap/old -n x cannot be read (see the warning above)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    LiveRead now = planned.live;
    c.change(now);
    auto st = CheckPlan(plan, planned.inputs, now, {});
    CHECK((st ? std::string() : st.error().message) == c.want);
    if (!st) CHECK(st.error().kind == util::ErrorKind::kConflict);
  }
}

TEST_CASE("plan: the live objects are checked after the rows (a changed row is named as such)") {
  const LiveCase planned;
  const Plan plan = MakePlan({}, planned.inputs, "2026-11-23T18:00:00Z", planned.live.owners);
  auto inputs = planned.inputs;
  inputs[0].diff[1].old_hash = "h-web-0";
  LiveRead now;  // every object gone
  auto st = CheckPlan(plan, inputs, now, {});
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "plan is stale: object deployment.apps/web -n x would change differently than planned");
}

TEST_CASE("plan: the prune deletes only the objects the plan pinned, by uid") {
  LiveCase c;
  auto uids = PlannedPruneUids(c.inputs, c.live.owners);
  CHECK(uids == std::map<ObjectIdentity, std::string>{{{"", "ConfigMap", "x", "old"}, "uid-old"}});  // removed rows only
  c.live.owners.erase(ObjectIdentity{"", "ConfigMap", "x", "old"});
  uids = PlannedPruneUids(c.inputs, c.live.owners);
  CHECK(uids.at({"", "ConfigMap", "x", "old"}).empty());  // absent when planned: no object may be deleted
  c.inputs[0].diff[2].valid_key = false;  // a key naming no object is never a request
  CHECK(PlannedPruneUids(c.inputs, c.live.owners).empty());
}

TEST_CASE("plan: the states record an applied plan only while they hold exactly its objects and repository") {
  Plan plan = MakePlan({}, Inputs(), "2026-11-23T18:00:00Z", {});
  plan.target.origin = "github.com/org/platform:tazuna.yaml";
  // After the plan applied: the Deployment's entry holds its new hash, the state is this repository's.
  const auto applied = [] {
    auto in = Inputs();
    in[0].stored.entries["apps/apps/v1/Deployment/x/web"] = "h-web-2";
    in[0].stored.metadata.origin = {"github.com/org/platform", "tazuna.yaml"};
    in[0].diff.clear();
    return in;
  };
  CHECK(StatesRecordPlan(plan, applied()));
  CHECK_FALSE(StatesRecordPlan(plan, Inputs()));  // not applied yet: the old hash
  auto forgotten = applied();
  forgotten[0].stored.entries.erase("apps//v1/ConfigMap/x/cfg");  // state forget
  CHECK_FALSE(StatesRecordPlan(plan, forgotten));
  auto extra = applied();
  extra[0].stored.entries["apps//v1/ConfigMap/x/other"] = "h";  // an entry the plan does not have
  CHECK_FALSE(StatesRecordPlan(plan, extra));
  auto taken = applied();
  taken[0].stored.metadata.origin = {"github.com/org/other", "tazuna.yaml"};  // state takeover
  CHECK_FALSE(StatesRecordPlan(plan, taken));
  auto gone = applied();
  gone[0].stored.objects.clear();  // uninstalled
  CHECK_FALSE(StatesRecordPlan(plan, gone));
  CHECK_FALSE(StatesRecordPlan(plan, {}));  // the manifest is not selected any more
}

}  // namespace
}  // namespace tazuna::state
