#include "state/apply/drift_fields.hpp"
#include "util/strings.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace tazuna::state {
namespace {

using nlohmann::json;

// managedFields of a Deployment tazuna applied, then: kubectl set image, kubectl label (one label of
// tazuna's, one new), kubectl rollout restart, an HPA's scale, and the controller's status.
const char* kDeploymentMeta = R"({"managedFields": [
  {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:metadata": {"f:labels": {"f:app": {}}},
    "f:spec": {"f:selector": {}, "f:template": {"f:metadata": {"f:labels": {"f:app": {}}},
      "f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:name": {}}}}}}}},
  {"manager": "kubectl-set", "operation": "Update", "fieldsV1": {"f:spec": {"f:template": {"f:spec":
    {"f:containers": {"k:{\"name\":\"app\"}": {"f:image": {}}}}}}}},
  {"manager": "kubectl-label", "operation": "Update", "fieldsV1": {"f:metadata": {"f:labels": {"f:team": {}, "f:extra": {}}}}},
  {"manager": "kubectl-rollout", "operation": "Update", "fieldsV1": {"f:spec": {"f:template": {"f:metadata":
    {"f:annotations": {".": {}, "f:kubectl.kubernetes.io/restartedAt": {}}}}}}},
  {"manager": "kube-controller-manager", "operation": "Update", "subresource": "scale", "fieldsV1": {"f:spec": {"f:replicas": {}}}},
  {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status", "fieldsV1": {"f:status": {"f:replicas": {}}}}
]})";

const char* kDeployment = R"({"apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": {"name": "web", "namespace": "n", "labels": {"app": "web", "team": "a"}},
  "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}}, "template": {
    "metadata": {"labels": {"app": "web"}}, "spec": {"containers": [{"name": "app", "image": "web:1"}]}}},
  "status": {"replicas": 0}})";

const ObjectIdentity kWeb{"apps", "Deployment", "n", "web"};

std::vector<std::string> Described(const std::vector<TakenField>& taken) {
  std::vector<std::string> out;
  for (const auto& t : taken) out.push_back(t.manager + " " + DescribeFieldPath(t.path));
  return out;
}

TEST_CASE("drift fields: what others took of the fields tazuna applies, not what they added or are yielded") {
  const auto live = ReadLiveFields(json::parse(kDeploymentMeta));
  REQUIRE(live != nullptr);
  const json desired = json::parse(kDeployment);
  CHECK(Described(TakenFields(&desired, kWeb, *live, {})) ==
        std::vector<std::string>{"kubectl-set spec.template.spec.containers[name=app].image",
                                 "kubectl-label metadata.labels.team"});
  CHECK(DescribeTaken(TakenFields(&desired, kWeb, *live, {})) ==
        "kubectl-label (metadata.labels.team), kubectl-set (spec.template.spec.containers[name=app].image)");
  // Not rendered: every field of theirs no rule yields (the render tells which are tazuna's).
  CHECK(Described(TakenFields(nullptr, kWeb, *live, {})).size() == 4);
  // A manifest's rules: by manager, by path (list items by name, any item, or bare), by kind and name.
  const std::vector<std::vector<manifest::YieldRule>> yielding = {
      {{"", "", "", "", {}, {"kubectl-set"}}},
      {{"", "", "", "", {"spec.template.spec.containers.image"}, {}}},
      {{"", "", "", "", {"spec.template.spec.containers[*].image"}, {}}},
      {{"", "", "", "", {"spec.template.spec.containers[name=app]"}, {}}},
      {{"apps", "Deployment", "web", "n", {"spec.template"}, {}}},
  };
  for (const auto& rules : yielding) {
    CHECK(Described(TakenFields(&desired, kWeb, *live, rules)) ==
          std::vector<std::string>{"kubectl-label metadata.labels.team"});
  }
  const std::vector<std::vector<manifest::YieldRule>> not_yielding = {
      {{"", "", "", "", {"spec.template.spec.containers[name=other]"}, {}}},
      {{"", "", "", "", {"spec.template.spec.containers.name"}, {}}},
      {{"core", "", "", "", {}, {"kubectl-set"}}},
      {{"", "Deployment", "other", "", {}, {}}},
      {{"", "", "", "", {"spec.template.spec.containers.image"}, {"someone-else"}}},
  };
  for (const auto& rules : not_yielding) CHECK(TakenFields(&desired, kWeb, *live, rules).size() == 2);
}

TEST_CASE("drift fields: an object only tazuna and the status subresource own has nothing to read") {
  CHECK(ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:data": {"f:a": {}}}},
    {"manager": "kube-apiserver", "operation": "Update", "subresource": "status", "fieldsV1": {"f:status": {}}}]})")) == nullptr);
  CHECK(ReadLiveFields(json::parse(R"({"name": "x"})")) == nullptr);
}

TEST_CASE("drift fields: fields shared with another applier, and CA bundles an injector writes, are not taken") {
  const auto live = ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:webhooks": {"k:{\"name\":\"v.example.com\"}": {
      ".": {}, "f:name": {}, "f:clientConfig": {"f:service": {"f:name": {}}}}}}},
    {"manager": "other-applier", "operation": "Apply", "fieldsV1": {"f:webhooks": {"k:{\"name\":\"v.example.com\"}": {
      ".": {}, "f:name": {}}}}},
    {"manager": "cainjector", "operation": "Update", "fieldsV1": {"f:webhooks": {"k:{\"name\":\"v.example.com\"}": {
      "f:clientConfig": {"f:caBundle": {}}}}}}]})"));
  REQUIRE(live != nullptr);
  const json desired = json::parse(R"({"webhooks": [{"name": "v.example.com",
    "clientConfig": {"service": {"name": "svc"}, "caBundle": "Cg=="}}]})");
  const ObjectIdentity id{"admissionregistration.k8s.io", "ValidatingWebhookConfiguration", "", "v"};
  CHECK(TakenFields(&desired, id, *live, {}).empty());
  // The same bundle in a kind no default names is taken.
  const ObjectIdentity other{"example.com", "Gadget", "", "v"};
  CHECK(Described(TakenFields(&desired, other, *live, {})) ==
        std::vector<std::string>{"cainjector webhooks[name=v.example.com].clientConfig.caBundle"});
}

TEST_CASE("drift fields: an apply leaves out the yielded fields others own now, and only those") {
  const auto live = ReadLiveFields(json::parse(kDeploymentMeta));
  REQUIRE(live != nullptr);
  json object = json::parse(kDeployment);
  CHECK(StripYielded(object, kWeb, *live, {}) == std::vector<std::string>{"spec.replicas"});
  CHECK(!object["spec"].contains("replicas"));
  CHECK(object["spec"]["template"]["spec"]["containers"][0]["image"] == "web:1");
  json again = json::parse(kDeployment);
  const std::vector<manifest::YieldRule> rules = {{"", "", "", "", {"metadata.labels.team"}, {"kubectl-label"}}};
  CHECK(StripYielded(again, kWeb, *live, rules) == std::vector<std::string>{"metadata.labels.team", "spec.replicas"});
  CHECK(again["metadata"]["labels"] == json{{"app", "web"}});
}

TEST_CASE("drift fields: a map or list item whose fields tazuna sets one by one is not taken by owning the node") {
  // kubectl create made the map; tazuna took its values over; kubectl-create keeps the map's "." entry.
  const auto live = ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:data": {"f:a": {}}, "f:spec": {"f:selector": {}}}},
    {"manager": "kubectl-create", "operation": "Update", "fieldsV1": {"f:data": {".": {}}}},
    {"manager": "kubectl-edit", "operation": "Update", "fieldsV1": {"f:spec": {"f:template": {}}}}]})"));
  REQUIRE(live != nullptr);
  const json desired = json::parse(R"({"data": {"a": "1"}, "spec": {"selector": {"x": "y"}, "template": {"k": "v"}}})");
  // An atomic map (owned as one leaf) that another writer took is taken.
  CHECK(Described(TakenFields(&desired, kWeb, *live, {})) == std::vector<std::string>{"kubectl-edit spec.template"});
}

TEST_CASE("drift fields: what a writer changed inside a map whose node it holds is taken; the node is not stripped") {
  // kubectl apply (client-side) made the ConfigMap and is run again after tazuna adopted it.
  const auto live = ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:data": {"f:mode": {}}}},
    {"manager": "kubectl-client-side-apply", "operation": "Update", "fieldsV1": {"f:data": {".": {}, "f:other": {}}}}]})"));
  REQUIRE(live != nullptr);
  const json desired = json::parse(R"({"data": {"mode": "blue", "other": "x"}})");
  const ObjectIdentity cm{"", "ConfigMap", "n", "c"};
  CHECK(Described(TakenFields(&desired, cm, *live, {})) == std::vector<std::string>{"kubectl-client-side-apply data.other"});
  // A rule yielding everything that writer owns strips its value, never the map holding tazuna's.
  json object = desired;
  const std::vector<manifest::YieldRule> rules = {{"", "", "", "", {}, {"kubectl-client-side-apply"}}};
  CHECK(StripYielded(object, cm, *live, rules) == std::vector<std::string>{"data.other"});
  CHECK(object["data"] == json{{"mode", "blue"}});
}

TEST_CASE("drift fields: an item found by the keys it has when the server defaulted another (a port's protocol)") {
  const auto live = ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:spec": {"f:ports": {"k:{\"port\":80,\"protocol\":\"TCP\"}": {".": {}, "f:port": {}}}}}},
    {"manager": "kubectl-patch", "operation": "Update", "fieldsV1": {"f:spec": {"f:ports": {"k:{\"port\":80,\"protocol\":\"TCP\"}": {"f:targetPort": {}}}}}}]})"));
  REQUIRE(live != nullptr);
  const ObjectIdentity svc{"", "Service", "n", "s"};
  const json one = json::parse(R"({"spec": {"ports": [{"port": 80, "targetPort": 80}]}})");
  CHECK(Described(TakenFields(&one, svc, *live, {})) ==
        std::vector<std::string>{"kubectl-patch spec.ports[port=80,protocol=TCP].targetPort"});
  // Two items the present keys cannot tell apart: neither is taken for that one.
  const json two = json::parse(R"({"spec": {"ports": [{"port": 80, "name": "a"}, {"port": 80, "name": "b", "targetPort": 80}]}})");
  CHECK(TakenFields(&two, svc, *live, {}).empty());
}

TEST_CASE("drift fields: a status is not taken; a Secret's data is not what its stringData sets") {
  const auto live = ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:type": {}}},
    {"manager": "my-operator", "operation": "Update", "fieldsV1": {"f:status": {"f:phase": {}}, "f:data": {"f:pw": {}}}}]})"));
  REQUIRE(live != nullptr);
  const json secret = json::parse(R"({"kind": "Secret", "type": "Opaque", "stringData": {"pw": "x"}, "status": {"phase": "P"}})");
  // The server writes stringData into data but leaves data's owner as it was: after a repair that writer
  // would still own it, so a changed value there is not told from a repaired one (state drift tells).
  CHECK(TakenFields(&secret, {"", "Secret", "n", "s"}, *live, {}).empty());
}

TEST_CASE("drift fields: rule paths name map keys in brackets or with dots") {
  const FieldPath label = {"f:metadata", "f:labels", "f:team"};
  const FieldPath note = {"f:metadata", "f:annotations", "f:example.com/note"};
  for (const char* p : {"metadata.labels.team", "metadata.labels[team]", "metadata.labels", "metadata"}) {
    CHECK_MESSAGE(Yields({"", "", "", "", {p}, {}}, kWeb, "m", label), p);
  }
  CHECK(Yields({"", "", "", "", {"metadata.annotations[example.com/note]"}, {}}, kWeb, "m", note));
  CHECK(!Yields({"", "", "", "", {"metadata.labels[other]"}, {}}, kWeb, "m", label));
}

TEST_CASE("drift fields: fields the render sets that nobody owns (removed by hand), not what no apply owns") {
  // tazuna's apply owned data.a, data.b, labels.team and the atomic selector; someone removed data.b and the
  // label; kubectl-patch owns data.c it changed.
  const auto live = ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {"f:data": {"f:a": {}}, "f:spec": {"f:selector": {}},
      "f:metadata": {"f:labels": {"f:app": {}}}}},
    {"manager": "kubectl-patch", "operation": "Update", "fieldsV1": {"f:data": {"f:c": {}}}}]})"), true);
  REQUIRE(live != nullptr);
  const json desired = json::parse(R"({"apiVersion": "v1", "kind": "Secret",
    "metadata": {"name": "x", "namespace": "n", "creationTimestamp": null, "labels": {"app": "a", "team": "t"},
                 "annotations": {}},
    "data": {"a": "1", "b": "2", "c": "3"}, "stringData": {"s": "x"}, "status": {"phase": "P"},
    "spec": {"selector": {"matchLabels": {"k": "v"}}, "list": [], "gone": {"deep": {"x": 1}}}})");
  std::vector<std::string> unowned;
  for (const auto& p : UnownedFields(desired, kWeb, *live, {})) unowned.push_back(DescribeFieldPath(p));
  CHECK(unowned == std::vector<std::string>{"data.b", "metadata.labels.team", "spec.gone.deep.x"});
  // A rule yielding a path (any writer) leaves its removal alone: a writer that removes a yielded field may.
  CHECK(UnownedFields(desired, kWeb, *live, {{"", "", "", "", {"data.b", "metadata.labels"}, {}}}).size() == 1);
  // An object only tazuna owns is read too when asked for.
  CHECK(ReadLiveFields(json::parse(R"({"managedFields": [{"manager": "tazuna", "operation": "Apply",
    "fieldsV1": {"f:data": {"f:a": {}}}}]})"), true) != nullptr);
}

TEST_CASE("drift fields: list items nobody owns (an env var, a port, a finalizer removed), and fields inside items") {
  const auto live = ReadLiveFields(json::parse(R"({"managedFields": [
    {"manager": "tazuna", "operation": "Apply", "fieldsV1": {
      "f:metadata": {"f:finalizers": {"v:\"a\"": {}}},
      "f:spec": {"f:ports": {"k:{\"port\":80,\"protocol\":\"TCP\"}": {".": {}, "f:port": {}}},
        "f:containers": {"k:{\"name\":\"app\"}": {".": {}, "f:name": {}, "f:env": {"k:{\"name\":\"A\"}": {".": {}, "f:name": {}, "f:value": {}}}}}}}}]})"),
                                 true);
  REQUIRE(live != nullptr);
  const json desired = json::parse(R"({"metadata": {"finalizers": ["a", "b"]},
    "spec": {"ports": [{"port": 80}, {"port": 81}],
             "containers": [{"name": "app", "image": "x", "env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}]}]}})");
  std::vector<std::string> unowned;
  for (const auto& p : UnownedFields(desired, kWeb, *live, {})) unowned.push_back(DescribeFieldPath(p));
  INFO(util::Join(unowned, " | "));
  CHECK(unowned == std::vector<std::string>{"metadata.finalizers[b]", "spec.containers[name=app].env[name=B]",
                                            "spec.containers[name=app].image", "spec.ports[port=81]"});
}

}  // namespace
}  // namespace tazuna::state
