#include "state/apply/field_set.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace tazuna::state {
namespace {

using nlohmann::json;

FieldSet Set(const char* fields_v1) { return FieldSet::FromFieldsV1(json::parse(fields_v1)); }
std::string Dump(const FieldSet& s) { return s.ToFieldsV1().dump(); }

std::vector<std::string> Described(const FieldSet& s) {
  std::vector<std::string> out;
  for (const auto& p : s.TopPaths()) out.push_back(DescribeFieldPath(p));
  return out;
}

TEST_CASE("field set: FieldsV1 reads and writes back the server's form") {
  const char* cases[] = {
      R"({})",
      R"({"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:old":{}}}})",
      R"({"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{"k:{\"name\":\"X\"}":{".":{},"f:name":{}}}}}}})",
      R"({"f:metadata":{"f:finalizers":{"v:\"a/b\"":{}}}})",
  };
  for (const char* c : cases) {
    CAPTURE(c);
    CHECK(Dump(Set(c)) == json::parse(c).dump());
  }
  CHECK(Dump(Set(R"({"f:a":{".":{}}, "f:b":"junk"})")) == R"({"f:a":{}})");
  CHECK(Set(R"({"f:b":"junk"})").empty());
}

TEST_CASE("field set: intersect, subtract, union") {
  const FieldSet csa = Set(R"({"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:old":{}}}})");
  const FieldSet ssa = Set(R"({"f:data":{"f:a":{},"f:c":{}},"f:metadata":{"f:labels":{"f:old":{},"f:new":{}}}})");
  CHECK(Dump(csa.Intersect(ssa)) == R"({"f:data":{"f:a":{}},"f:metadata":{"f:labels":{"f:old":{}}}})");
  // A member without children is written `{}`, as the server writes it.
  CHECK(Dump(csa.Subtract(ssa)) == R"({"f:data":{".":{},"f:b":{}},"f:metadata":{"f:labels":{}}})");
  CHECK(Dump(csa.Union(ssa)) ==
        R"({"f:data":{".":{},"f:a":{},"f:b":{},"f:c":{}},"f:metadata":{"f:labels":{".":{},"f:new":{},"f:old":{}}}})");
  CHECK(csa.Subtract(csa).empty());
  CHECK(csa.Intersect(FieldSet()).empty());
  CHECK(Dump(FieldSet().Union(ssa)) == Dump(ssa));
}

TEST_CASE("field set: a node that still holds owned fields is not free") {
  const FieldSet free = Set(R"({"f:data":{".":{},"f:b":{}},"f:spec":{".":{},"f:x":{}}})");
  const FieldSet owned = Set(R"({"f:data":{"f:a":{}}})");
  CHECK(Described(free.WithoutAncestorsOf(owned)) == std::vector<std::string>{"data.b", "spec"});
  CHECK(Dump(free.WithoutAncestorsOf(FieldSet())) == Dump(free));
}

TEST_CASE("field set: outermost paths, contains, and how paths read") {
  const FieldSet s = Set(
      R"({"f:metadata":{"f:annotations":{"f:example.com/note":{}},"f:labels":{"f:old":{}}},)"
      R"("f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{"f:env":{)"
      R"("k:{\"name\":\"OLD\"}":{".":{},"f:name":{},"f:value":{}}},)"
      R"("f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{}}}}},)"
      R"("f:finalizers":{"v:\"x/y\"":{}},"f:args":{"i:0":{}}}}}})");
  CHECK(Described(s) == std::vector<std::string>{
                            "metadata.annotations[example.com/note]",
                            "metadata.labels.old",
                            "spec.template.spec.args[0]",
                            "spec.template.spec.containers[name=app].env[name=OLD]",
                            "spec.template.spec.containers[name=app].ports[containerPort=80,protocol=TCP]",
                            "spec.template.spec.finalizers[x/y]",
                        });
  CHECK(s.Contains({"f:metadata", "f:labels", "f:old"}));
  CHECK_FALSE(s.Contains({"f:metadata", "f:labels"}));
  CHECK_FALSE(s.Contains({}));
}

TEST_CASE("field set: find and remove fields and list items in an object") {
  json object = json::parse(R"({"data":{"a":"1","b":"2"},"spec":{"containers":[
      {"name":"side","env":[{"name":"OLD","value":"1"}]},
      {"name":"app","env":[{"name":"KEEP","value":"1"},{"name":"OLD","value":"2"}],
       "ports":[{"containerPort":80,"protocol":"TCP"},{"containerPort":80,"protocol":"UDP"}]}],
      "finalizers":["x/y","z"],"args":["a","b"]}})");
  const FieldPath old_env = {"f:spec", "f:containers", R"(k:{"name":"app"})", "f:env", R"(k:{"name":"OLD"})"};
  REQUIRE(FindField(object, old_env) != nullptr);
  CHECK((*FindField(object, old_env))["value"] == "2");
  CHECK(RemoveField(object, old_env));
  CHECK(FindField(object, old_env) == nullptr);
  CHECK(object["spec"]["containers"][0]["env"].size() == 1);  // the other container's OLD stays
  CHECK(RemoveField(object, {"f:spec", "f:containers", R"(k:{"name":"app"})", "f:ports",
                             R"(k:{"containerPort":80,"protocol":"UDP"})"}));
  CHECK(object["spec"]["containers"][1]["ports"].size() == 1);
  CHECK(RemoveField(object, {"f:spec", "f:finalizers", R"(v:"x/y")"}));
  CHECK(object["spec"]["finalizers"] == json::array({"z"}));
  CHECK(RemoveField(object, {"f:spec", "f:args", "i:1"}));
  CHECK(object["spec"]["args"] == json::array({"a"}));
  CHECK(RemoveField(object, {"f:data", "f:b"}));
  CHECK(object["data"] == json({{"a", "1"}}));
  CHECK_FALSE(RemoveField(object, {"f:data", "f:b"}));
  CHECK_FALSE(RemoveField(object, {"f:spec", "f:args", "i:7"}));
  CHECK_FALSE(RemoveField(object, {"f:nothing", "f:here"}));
  CHECK(FindField(object, {"f:spec", "f:args", "i:x"}) == nullptr);
}

}  // namespace
TEST_CASE("field set: an object projected to the fields a set holds, in the object's list order") {
  const json live = json::parse(R"({
    "apiVersion": "apps/v1", "kind": "Deployment",
    "metadata": {"name": "w", "labels": {"a": "1", "b": "2"}, "finalizers": ["x/y", "z/w"]},
    "spec": {"replicas": 3, "template": {"spec": {"containers": [
      {"name": "side", "image": "s:1", "terminationMessagePath": "/dev/termination-log"},
      {"name": "app", "image": "a:1", "ports": [{"containerPort": 80, "protocol": "TCP"}],
       "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "1"}]}]},
      "metadata": {"labels": {"app": "w"}}},
      "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%"}}},
    "status": {"replicas": 3}})");
  const FieldSet owned = Set(R"({"f:metadata":{"f:labels":{"f:a":{}},"f:finalizers":{"v:\"z/w\"":{}}},
    "f:spec":{"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},"f:spec":{"f:containers":{
      "k:{\"name\":\"app\"}":{".":{},"f:name":{},"f:image":{},"f:ports":{"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}},
        "f:env":{"k:{\"name\":\"A\"}":{".":{},"f:name":{},"f:value":{}},"k:{\"name\":\"B\"}":{".":{},"f:name":{},"f:value":{}}}},
      "k:{\"name\":\"side\"}":{".":{},"f:name":{},"f:image":{}}}}},"f:strategy":{}},"f:missing":{}})");
  const json want = json::parse(R"({
    "metadata": {"labels": {"a": "1"}, "finalizers": ["z/w"]},
    "spec": {"template": {"metadata": {"labels": {"app": "w"}}, "spec": {"containers": [
      {"name": "side", "image": "s:1"},
      {"name": "app", "image": "a:1", "ports": [{"containerPort": 80}], "env": [{"name": "B", "value": "2"}, {"name": "A", "value": "1"}]}]}},
      "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%"}}}})");
  CHECK(owned.Project(live) == want);
  CHECK(FieldSet().Project(live).is_null());
}

}  // namespace tazuna::state
