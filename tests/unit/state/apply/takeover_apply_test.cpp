#include "state/apply/takeover_apply.hpp"

#include <doctest/doctest.h>

#include "../../kube/fakes.hpp"

namespace tazuna::state {
namespace {

using nlohmann::json;

constexpr char kPath[] = "/api/v1/namespaces/a/configmaps/x";

json Entry(const char* manager, const char* operation, const char* fields) {
  return {{"manager", manager}, {"operation", operation}, {"apiVersion", "v1"}, {"fieldsType", "FieldsV1"},
          {"time", "2025-01-01T00:00:00Z"}, {"fieldsV1", json::parse(fields)}};
}

constexpr char kCsa[] = R"({"f:data":{".":{},"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{".":{},"f:old":{}}}})";
constexpr char kTazunaOld[] = R"({"f:data":{"f:a":{},"f:b":{}},"f:metadata":{"f:labels":{"f:old":{}}}})";
constexpr char kTazunaNew[] = R"({"f:data":{"f:a":{}}})";

json Object(const char* rv, json managed, json data) {
  return {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
          {"metadata", {{"name", "x"}, {"namespace", "a"}, {"resourceVersion", rv}, {"managedFields", std::move(managed)}}},
          {"data", std::move(data)}};
}

std::string Status(int code, const char* reason) {
  return json({{"kind", "Status"}, {"apiVersion", "v1"}, {"status", "Failure"}, {"reason", reason}, {"code", code},
               {"message", std::string("the object says ") + reason}})
      .dump();
}

struct Harness : kube::testing::FakeClient {
  TakeoverManagers managers = DefaultTakeoverManagers();
  TakeoverContext Context(kube::DryRun dry_run = kube::DryRun::kNone) { return {*client, log, managers, dry_run}; }
  std::vector<const kube::HttpRequest*> Sent(const std::string& method) {
    std::vector<const kube::HttpRequest*> out;
    for (const auto& r : transport.requests) {
      if (r.method == method && r.url.find(kPath) != std::string::npos) out.push_back(&r);
    }
    return out;
  }
};

TakeoverState Shared(const char* rv) {
  return {rv, json::array({Entry("kubectl-client-side-apply", "Update", kCsa), Entry("tazuna", "Apply", kTazunaOld)}),
          false};
}

TEST_CASE("takeover apply: before the apply, a conditional JSON patch strips what kubectl shares with tazuna") {
  Harness h;
  h.transport.Add(std::string("PATCH ") + kPath, 200, "{}");
  const TakeoverState state = Shared("5");
  const TakeoverContext c = h.Context();
  ApplyTakeover takeover(c, &state);
  CHECK(takeover.active());
  REQUIRE(takeover.Before(Object("", json::array(), {})));
  const auto patches = h.Sent("PATCH");
  REQUIRE(patches.size() == 1);
  const json body = json::parse(patches[0]->body);
  CHECK(body[0]["op"] == "replace");
  CHECK(body[0]["path"] == "/metadata/managedFields");
  CHECK(body[0]["value"][0]["manager"] == "kubectl-client-side-apply");
  CHECK(body[0]["value"][0]["fieldsV1"] == json::parse(R"({"f:data":{}})"));
  CHECK(body[0]["value"][1] == state.managed_fields[1]);
  CHECK(body[1] == json({{"op", "replace"}, {"path", "/metadata/resourceVersion"}, {"value", "5"}}));
  bool json_patch = false;
  for (const auto& [k, v] : patches[0]->headers) json_patch |= k == "Content-Type" && v == "application/json-patch+json";
  CHECK(json_patch);
  // The apply that follows removed data.b and the label; the row says so.
  const json applied = Object("6", json::array({Entry("kubectl-client-side-apply", "Update", R"({"f:data":{}})"),
                                                Entry("tazuna", "Apply", kTazunaNew)}),
                              {{"a", "1"}});
  CHECK(takeover.After(applied) == "removed data.b, metadata.labels.old");
  CHECK(h.Sent("PATCH").size() == 1);  // not an adoption: nothing more to strip
}

TEST_CASE("takeover apply: a changed object is read again and the patch retried with its resourceVersion") {
  Harness h;
  h.transport.Add(std::string("PATCH ") + kPath, 409, Status(409, "Conflict"));
  h.transport.Add(std::string("PATCH ") + kPath, 200, "{}");
  const TakeoverState fresh = Shared("9");
  h.transport.Add(std::string("GET ") + kPath, 200, Object("9", fresh.managed_fields, {}).dump());
  const TakeoverState state = Shared("5");
  const TakeoverContext c = h.Context();
  ApplyTakeover takeover(c, &state);
  REQUIRE(takeover.Before(Object("", json::array(), {})));
  const auto patches = h.Sent("PATCH");
  REQUIRE(patches.size() == 2);
  CHECK(json::parse(patches[1]->body)[1]["value"] == "9");
  CHECK(h.Sent("GET").size() == 1);
}

TEST_CASE("takeover apply: a patch the server refuses stops the apply, naming the tools") {
  Harness h;
  for (int i = 0; i < 5; ++i) h.transport.Add(std::string("PATCH ") + kPath, 409, Status(409, "Conflict"));
  h.transport.Add(std::string("GET ") + kPath, 200, Object("7", Shared("7").managed_fields, {}).dump());
  const TakeoverState state = Shared("5");
  const TakeoverContext c = h.Context();
  ApplyTakeover takeover(c, &state);
  const auto st = takeover.Before(Object("", json::array(), {}));
  REQUIRE_FALSE(st);
  CHECK(st.error().message == "take over the fields of kubectl-client-side-apply: the object says Conflict");
  CHECK(h.Sent("PATCH").size() == 5);  // kubectl's migration gives up after as many
}

TEST_CASE("takeover apply: an adoption strips after the apply; a failure there is only a warning") {
  Harness h;
  h.transport.Add(std::string("PATCH ") + kPath, 403, Status(403, "Forbidden"));
  const TakeoverState state{"5", json::array({Entry("helm", "Update", kCsa)}), true};
  const TakeoverContext c = h.Context();
  ApplyTakeover takeover(c, &state);
  REQUIRE(takeover.Before(Object("", json::array(), {})));
  CHECK(h.Sent("PATCH").empty());
  const json applied = Object("6", json::array({Entry("helm", "Update", kCsa), Entry("tazuna", "Apply", kTazunaOld)}),
                              {{"a", "1"}, {"b", "2"}});
  CHECK(takeover.After(applied).empty());
  const auto patches = h.Sent("PATCH");
  REQUIRE(patches.size() == 1);
  CHECK(json::parse(patches[0]->body)[1]["value"] == "6");
  CHECK(h.err.str() ==
        "Warning: ConfigMap a/x: cannot take over the fields of earlier tools yet (the next sync that changes it "
        "does): the object says Forbidden\n");
}

TEST_CASE("takeover apply: a dry run writes nothing and asks the server what the take-over removes") {
  Harness h;
  // The dry-run PUT answers the object without data.b, with the label back (as a default would come back).
  json stored = Object("6", json::array(), {{"a", "1"}});
  stored["metadata"]["labels"] = {{"old", "1"}};
  h.transport.Add(std::string("PUT ") + kPath, 200, stored.dump());
  const TakeoverState state = Shared("5");
  const TakeoverContext c = h.Context(kube::DryRun::kAll);
  ApplyTakeover takeover(c, &state);
  REQUIRE(takeover.Before(Object("", json::array(), {})));
  CHECK(h.Sent("PATCH").empty());
  json applied = Object("6", json::array({Entry("kubectl-client-side-apply", "Update", kCsa),
                                          Entry("tazuna", "Apply", kTazunaNew)}),
                        {{"a", "1"}, {"b", "2"}});
  applied["metadata"]["labels"] = {{"old", "1"}};
  CHECK(takeover.After(applied) == "removed data.b");
  const auto puts = h.Sent("PUT");
  REQUIRE(puts.size() == 1);
  CHECK(puts[0]->url.find("dryRun=All") != std::string::npos);
  const json body = json::parse(puts[0]->body);
  CHECK(body["data"] == json({{"a", "1"}}));
  CHECK(body["metadata"]["labels"] == json::object());
  CHECK(body["metadata"].contains("managedFields") == false);
  CHECK(body["metadata"]["resourceVersion"] == "6");
}

TEST_CASE("takeover apply: objects without a take-over cost nothing") {
  Harness h;
  const TakeoverContext c = h.Context();
  ApplyTakeover takeover(c, nullptr);
  CHECK_FALSE(takeover.active());
  REQUIRE(takeover.Before(Object("", json::array(), {})));
  CHECK(takeover.After(Object("1", json::array(), {})).empty());
  CHECK(h.client->requests_sent() == 0);
}

TEST_CASE("takeover preview: the diff's merged side loses what the sync removes; drift also finds leftovers") {
  Harness h;
  const json live = Object("5", Shared("5").managed_fields, {{"a", "1"}, {"b", "2"}, {"extra", "x"}});
  json merged = Object("5", json::array({Entry("kubectl-client-side-apply", "Update",
                                               R"({"f:data":{".":{},"f:a":{},"f:b":{},"f:extra":{}}})"),
                                         Entry("tazuna", "Apply", kTazunaNew)}),
                       {{"a", "1"}, {"b", "2"}, {"extra", "x"}});
  // The dry-run PUTs answer in turn: the sync's removal, drift's, and a refusal.
  h.transport.Add(std::string("PUT ") + kPath, 200, Object("5", json::array(), {{"a", "1"}, {"extra", "x"}}).dump());
  h.transport.Add(std::string("PUT ") + kPath, 200, Object("5", json::array(), {{"a", "1"}}).dump());
  h.transport.Add(std::string("PUT ") + kPath, 422, Status(422, "Invalid"));
  const TakeoverPreview sync = PreviewTakeover(h.Context(), live, merged, PreviewScope::kSync);
  CHECK(sync.warning.empty());
  CHECK(sync.merged["data"] == json({{"a", "1"}, {"extra", "x"}}));
  REQUIRE(sync.removed.size() == 1);
  CHECK(DescribeFieldPath(sync.removed[0]) == "data.b");
  CHECK(sync.leftovers.empty());
  const TakeoverPreview drift = PreviewTakeover(h.Context(), live, merged, PreviewScope::kLeftovers);
  CHECK(DescribeFields(drift.removed) == "data.b");
  CHECK(DescribeFields(drift.leftovers) == "data.extra");
  CHECK(drift.merged == merged);
  const TakeoverPreview refused = PreviewTakeover(h.Context(), live, merged, PreviewScope::kLeftovers);
  CHECK(refused.warning == "ConfigMap a/x: cannot check the fields earlier tools left (the object says Invalid)");
  CHECK(refused.removed.empty());
  CHECK(refused.merged == merged);
}

}  // namespace
}  // namespace tazuna::state
