#include "state/apply/field_takeover.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace tazuna::state {
namespace {

using nlohmann::json;

json Entry(const char* manager, const char* operation, const char* fields, const char* api_version = "v1",
           const char* subresource = "") {
  json e = {{"manager", manager},   {"operation", operation},       {"apiVersion", api_version},
            {"fieldsType", "FieldsV1"}, {"time", "2025-01-01T00:00:00Z"}, {"fieldsV1", json::parse(fields)}};
  if (*subresource != '\0') e["subresource"] = subresource;
  return e;
}

std::vector<std::string> Described(const FieldSet& s) {
  std::vector<std::string> out;
  for (const auto& p : s.TopPaths()) out.push_back(DescribeFieldPath(p));
  return out;
}

constexpr char kCsa[] =
    R"({"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:annotations":{".":{},)"
    R"("f:kubectl.kubernetes.io/last-applied-configuration":{}},"f:labels":{".":{},"f:old":{},"f:keep":{}}}})";
constexpr char kTazuna[] =
    R"({"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:annotations":{"f:tazuna.pepabo.com/manifest":{}},)"
    R"("f:labels":{"f:old":{},"f:keep":{},"f:app.kubernetes.io/managed-by":{}}}})";

TEST_CASE("takeover: the manager list takes names, default and none") {
  auto m = ParseTakeoverManagers(" default , argocd-controller", "--takeover-managers");
  REQUIRE(m);
  CHECK(m->names.count("argocd-controller") == 1);
  CHECK(m->names.count("kubectl-client-side-apply") == 1);
  CHECK(m->names.count("helm") == 1);
  CHECK(m->names.size() == std::size(kDefaultToolManagers) + 1);
  auto none = ParseTakeoverManagers("none", "--takeover-managers");
  REQUIRE(none);
  CHECK(none->names.empty());
  auto one = ParseTakeoverManagers("my-deployer", "X");
  REQUIRE(one);
  CHECK(one->names == std::set<std::string>{"my-deployer"});
  for (const char* bad : {"helm,,kubectl", "", "a b", "helm,"}) {
    CAPTURE(bad);
    auto r = ParseTakeoverManagers(bad, "--takeover-managers");
    REQUIRE_FALSE(r);
    CHECK(r.error().kind == util::ErrorKind::kUsage);
    CHECK(r.error().message == std::string("invalid --takeover-managers \"") + bad +
                                   "\": give field manager names separated by commas, default, or none");
  }
}

TEST_CASE("takeover: owners split into tazuna, the tools of its apiVersion, and everyone else") {
  const json fields = json::array({
      Entry("tazuna", "Apply", kTazuna),
      Entry("kubectl-client-side-apply", "Update", kCsa),
      Entry("kubectl-client-side-apply", "Update", R"({"f:data":{"f:z":{}}})", "v2"),  // another version
      Entry("helm", "Update", R"({"f:status":{"f:s":{}}})", "v1", "status"),          // a subresource
      Entry("my-controller", "Update", R"({"f:data":{"f:ctl":{}}})"),
      Entry("tazuna", "Update", R"({"f:data":{"f:go":{}}})"),  // the Go tool before server-side apply
  });
  const FieldOwners o = ReadFieldOwners(fields, DefaultTakeoverManagers());
  CHECK(o.has_tazuna);
  CHECK(o.tazuna_version == "v1");
  CHECK(o.tool_managers == std::vector<std::string>{"kubectl-client-side-apply", "tazuna"});
  CHECK(o.tools.Contains({"f:data", "f:b"}));
  CHECK(o.tools.Contains({"f:data", "f:go"}));
  CHECK_FALSE(o.tools.Contains({"f:data", "f:z"}));
  CHECK(o.others.Contains({"f:data", "f:z"}));
  CHECK(o.others.Contains({"f:status", "f:s"}));
  CHECK(o.others.Contains({"f:data", "f:ctl"}));
  const FieldOwners none = ReadFieldOwners(fields, TakeoverManagers{});
  CHECK(none.tools.empty());
  CHECK(none.others.Contains({"f:data", "f:b"}));
}

TEST_CASE("takeover: only objects whose tools share fields with tazuna, or are not applied yet, are kept") {
  const TakeoverManagers m = DefaultTakeoverManagers();
  const auto meta = [](json entries) { return json{{"resourceVersion", "7"}, {"managedFields", std::move(entries)}}; };
  CHECK(FindTakeover(json::object(), TakeoverManagers{{"helm"}}) == nullptr);
  const auto untracked = FindTakeover(json{{"resourceVersion", "3"}}, m);  // made before managedFields
  REQUIRE(untracked != nullptr);
  CHECK(untracked->adopting);
  CHECK(untracked->managed_fields == json::array());
  CHECK(FindTakeover(meta(json::array({Entry("tazuna", "Apply", kTazuna)})), m) == nullptr);
  CHECK(FindTakeover(meta(json::array({Entry("tazuna", "Apply", kTazuna), Entry("kubectl-create", "Update",
                                                                              R"({"f:data":{"f:other":{}}})")})),
                     m) == nullptr);  // nothing shared: nothing to take over, nothing kept
  CHECK(FindTakeover(meta(json::array({Entry("my-controller", "Update", kCsa)})), m) == nullptr);
  const auto adopting = FindTakeover(meta(json::array({Entry("kubectl-client-side-apply", "Update", kCsa)})), m);
  REQUIRE(adopting != nullptr);
  CHECK(adopting->adopting);
  const auto shared = FindTakeover(
      meta(json::array({Entry("tazuna", "Apply", kTazuna), Entry("kubectl-client-side-apply", "Update", kCsa)})), m);
  REQUIRE(shared != nullptr);
  CHECK_FALSE(shared->adopting);
  CHECK(shared->resource_version == "7");
  CHECK(shared->managed_fields.size() == 2);
}

TEST_CASE("takeover: stripping moves the shared fields and leaves every other entry as it was") {
  const json fields = json::array({
      Entry("kubectl-client-side-apply", "Update", kCsa),
      Entry("tazuna", "Apply", kTazuna),
      Entry("helm", "Update", R"({"f:data":{"f:a":{}}})"),
      Entry("my-controller", "Update", R"({"f:data":{"f:a":{}}})"),
      Entry("kubectl-client-side-apply", "Update", R"({"f:data":{"f:a":{}}})", "v2"),
  });
  FieldSet moved;
  const auto stripped = StripTakenOver(fields, DefaultTakeoverManagers(), &moved);
  REQUIRE(stripped);
  REQUIRE(stripped->size() == 4);  // helm's entry held only shared fields: it goes
  // The keyed maps tazuna sets keys in are no longer the tool's as nodes (emptied by the manifest, they go);
  // its own keys stay its own.
  CHECK((*stripped)[0]["fieldsV1"] ==
        json::parse(R"({"f:data":{},"f:metadata":{"f:annotations":{)"
                    R"("f:kubectl.kubernetes.io/last-applied-configuration":{}}}})"));
  CHECK((*stripped)[0]["time"] == fields[0]["time"]);
  CHECK((*stripped)[1] == fields[1]);
  CHECK((*stripped)[2] == fields[3]);
  CHECK((*stripped)[3] == fields[4]);
  CHECK(Described(moved) == std::vector<std::string>{"data.a", "data.b", "metadata.labels.keep", "metadata.labels.old"});
  CHECK_FALSE(StripTakenOver(*stripped, DefaultTakeoverManagers(), nullptr));  // nothing left to move
  CHECK_FALSE(StripTakenOver(fields, TakeoverManagers{}, nullptr));
  CHECK_FALSE(StripTakenOver(json::array({Entry("kubectl-create", "Update", kCsa)}), DefaultTakeoverManagers(), nullptr));
}

// A Deployment's container as `kubectl create` records it (the probe with the server's defaults) and as
// tazuna's apply does (the probe's two declared fields, no container node).
constexpr char kCreatedProbe[] =
    R"({"f:spec":{"f:template":{".":{},"f:spec":{".":{},"f:containers":{".":{},"k:{\"name\":\"app\"}":{".":{},)"
    R"("f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:readinessProbe":{".":{},"f:failureThreshold":{},)"
    R"("f:httpGet":{".":{},"f:path":{},"f:port":{},"f:scheme":{}},"f:periodSeconds":{}}}}}}}})";
constexpr char kAppliedProbe[] =
    R"({"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},)"
    R"("f:name":{},"f:readinessProbe":{"f:httpGet":{"f:path":{},"f:port":{}}}}}}}}})";

TEST_CASE("takeover: a container tazuna sets fields in is let go whole by the tool, defaults included") {
  const json fields = json::array({Entry("kubectl-create", "Update", kCreatedProbe, "apps/v1"),
                                   Entry("tazuna", "Apply", kAppliedProbe, "apps/v1")});
  FieldSet moved;
  const auto stripped = StripTakenOver(fields, DefaultTakeoverManagers(), &moved);
  REQUIRE(stripped);
  REQUIRE(stripped->size() == 2);
  // The tool keeps its own default of the container; the probe (node, defaults) and the struct and list nodes
  // above the container are let go: a manifest that drops the probe drops it whole.
  CHECK((*stripped)[0]["fieldsV1"] == json::parse(R"({"f:spec":{"f:template":{"f:spec":{"f:containers":{)"
                                                  R"("k:{\"name\":\"app\"}":{"f:imagePullPolicy":{}}}}}}})"));
  CHECK((*stripped)[1] == fields[1]);  // tazuna's entry gains nothing: what it does not set is not deleted
  CHECK(Described(moved) == std::vector<std::string>{"spec.template.spec.containers[name=app]"});
  CHECK_FALSE(StripTakenOver(*stripped, DefaultTakeoverManagers(), nullptr));  // stable: nothing left to move
}

TEST_CASE("takeover: a container is let go even when no field is shared (another probe handler)") {
  const char* exec_probe =
      R"({"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:image":{},)"
      R"("f:name":{},"f:readinessProbe":{"f:exec":{"f:command":{}}}}}}}}})";
  const json fields = json::array({Entry("kubectl-create", "Update", kCreatedProbe, "apps/v1"),
                                   Entry("tazuna", "Apply", exec_probe, "apps/v1")});
  const json meta = {{"resourceVersion", "5"}, {"managedFields", fields}};
  REQUIRE(FindTakeover(meta, DefaultTakeoverManagers()) != nullptr);  // kept, though nothing is shared
  const auto stripped = StripTakenOver(fields, DefaultTakeoverManagers(), nullptr);
  REQUIRE(stripped);
  const FieldSet tool = FieldSet::FromFieldsV1((*stripped)[0]["fieldsV1"]);
  const FieldPath app = {"f:spec", "f:template", "f:spec", "f:containers", R"(k:{"name":"app"})"};
  FieldPath probe = app;
  probe.push_back("f:readinessProbe");
  CHECK_FALSE(tool.Contains(probe));
  FieldPath pull = app;
  pull.push_back("f:imagePullPolicy");
  CHECK(tool.Contains(pull));  // a default outside the probe stays the tool's
}

TEST_CASE("takeover: a keyed map or a list the tool made is let go as a node, its other keys and items kept") {
  const char* tool = R"({"f:spec":{"f:extra":{".":{},"f:a":{},"f:b":{}},"f:config":{".":{},"f:tls":{},"f:mode":{}},)"
                     R"("f:ports":{".":{},"k:{\"name\":\"x\"}":{".":{},"f:port":{}},"k:{\"name\":\"y\"}":{".":{}}},)"
                     R"("f:selector":{".":{},"f:matchLabels":{".":{},"f:app":{},"f:tier":{}}}}})";
  const char* ours = R"({"f:spec":{"f:extra":{"f:a":{}},"f:config":{"f:tls":{}},)"
                     R"("f:ports":{"k:{\"name\":\"x\"}":{".":{},"f:port":{}}},)"
                     R"("f:selector":{"f:matchLabels":{"f:app":{}}}}})";
  const json fields = json::array({Entry("kubectl-create", "Update", tool, "ex.com/v1"),
                                   Entry("tazuna", "Apply", ours, "ex.com/v1")});
  const auto stripped = StripTakenOver(fields, DefaultTakeoverManagers(), nullptr);
  REQUIRE(stripped);
  // extra and config are one value each (a CR's own map or object: no schema here), let go whole (b and mode
  // stay live, owned by no one); the ports list and the selector (its matchLabels keyed) only as nodes.
  CHECK((*stripped)[0]["fieldsV1"] == json::parse(R"({"f:spec":{"f:ports":{"k:{\"name\":\"y\"}":{}},)"
                                                  R"("f:selector":{"f:matchLabels":{"f:tier":{}}}}})"));
  CHECK((*stripped)[1] == fields[1]);
}

TEST_CASE("takeover: released fields are those dropped from the manifest that nobody else owns") {
  FieldSet moved = FieldSet::FromFieldsV1(json::parse(
      R"({"f:data":{"f:a":{},"f:b":{},"f:ctl":{}},"f:metadata":{"f:labels":{"f:old":{}}},)"
      R"("f:spec":{"f:env":{"k:{\"name\":\"OLD\"}":{".":{},"f:name":{},"f:value":{}}}}})"));
  FieldOwners after;
  after.has_tazuna = true;
  after.tazuna = FieldSet::FromFieldsV1(json::parse(R"({"f:data":{"f:a":{}}})"));
  after.others = FieldSet::FromFieldsV1(json::parse(R"({"f:data":{"f:ctl":{}}})"));  // a controller's
  // In a dry run the tool still holds what is moved, and a field moved is not the tool's any more.
  after.tools = FieldSet::FromFieldsV1(json::parse(R"({"f:data":{".":{},"f:b":{}},"f:metadata":{"f:labels":{"f:old":{}}}})"));
  CHECK(Described(Released(moved, after)) ==
        std::vector<std::string>{"data.b", "metadata.labels.old", "spec.env[name=OLD]"});
  after.tools = after.tools.Union(FieldSet::FromFieldsV1(json::parse(R"({"f:spec":{"f:env":{"k:{\"name\":\"OLD\"}":{"f:x":{}}}}})")));
  CHECK(Described(Released(moved, after)) ==
        std::vector<std::string>{"data.b", "metadata.labels.old", "spec.env[name=OLD].name", "spec.env[name=OLD].value"});
}

TEST_CASE("takeover: leftovers are the tools' fields nobody else sets, bookkeeping aside") {
  FieldOwners o;
  o.has_tazuna = true;
  o.tazuna = FieldSet::FromFieldsV1(json::parse(kTazuna));
  o.tools = FieldSet::FromFieldsV1(json::parse(
      R"({"f:data":{".":{},"f:a":{},"f:gone":{}},"f:metadata":{"f:annotations":{".":{},)"
      R"("f:kubectl.kubernetes.io/last-applied-configuration":{},"f:meta.helm.sh/release-name":{},)"
      R"("f:meta.helm.sh/release-namespace":{},"f:note":{}},"f:labels":{".":{},"f:ctl":{}}},"f:binaryData":{".":{},"f:x":{}}})"));
  o.others = FieldSet::FromFieldsV1(json::parse(R"({"f:metadata":{"f:labels":{"f:ctl":{}}}})"));
  CHECK(Described(Leftovers(o)) == std::vector<std::string>{"binaryData", "data.gone", "metadata.annotations.note"});
}

TEST_CASE("takeover: a Secret's stringData keys are the data keys the manifest sets") {
  const json fields = json::array({
      Entry("tazuna", "Apply", R"({"f:stringData":{"f:user":{}}})"),
      Entry("kubectl-create", "Update", R"({"f:data":{".":{},"f:user":{},"f:password":{}},"f:type":{}})"),
  });
  const json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}};
  const FieldOwners read = ReadFieldOwners(fields, DefaultTakeoverManagers());
  CHECK(Described(Leftovers(WithWrittenFields(read, secret))) == std::vector<std::string>{"data.password", "type"});
  CHECK(Described(Leftovers(WithWrittenFields(read, {{"apiVersion", "v1"}, {"kind", "ConfigMap"}}))) ==
        std::vector<std::string>{"data", "type"});
  CHECK(StripTakenOver(fields, DefaultTakeoverManagers(), nullptr) == std::nullopt);  // nothing really shared
}

TEST_CASE("takeover: fields read as a short list") {
  std::vector<FieldPath> paths;
  for (const char* f : {"a", "b", "c"}) paths.push_back({"f:data", std::string("f:") + f});
  CHECK(DescribeFields(paths) == "data.a, data.b, data.c");
  CHECK(DescribeFields(paths, 2) == "data.a, data.b, and 1 more");
}

}  // namespace
}  // namespace tazuna::state
