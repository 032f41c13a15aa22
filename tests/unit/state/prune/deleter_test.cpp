#include "state/prune/deleter.hpp"

#include <doctest/doctest.h>

#include "../../kube/fakes.hpp"

namespace tazuna::state {
namespace {

using Verdict = DeleteOutcome::Verdict;

constexpr char kPath[] = "/api/v1/namespaces/a/configmaps/c";

// A ConfigMap a/c with uid u1, written by `manager`, marked with the manifest `marked` (none when empty).
std::string ConfigMap(const std::string& manager, const std::string& marked = "") {
  nlohmann::json meta = {{"name", "c"}, {"namespace", "a"}, {"uid", "u1"}, {"resourceVersion", "7"},
                         {"managedFields", {{{"manager", manager}, {"operation", "Apply"}}}}};
  if (!marked.empty()) meta["annotations"] = {{"tazuna.pepabo.com/manifest", marked}};
  return nlohmann::json({{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", meta}}).dump();
}

DeleteTarget Target(const Metadata& state) {
  return {"m", StateKey{"m", "", "v1", "ConfigMap", "a", "c"}, ObjectIdentity{"", "ConfigMap", "a", "c"}, &state};
}

struct Harness : kube::testing::FakeClient {
  Metadata state;
  int Deletes() {
    int n = 0;
    for (const auto& r : transport.requests) n += r.method == "DELETE" ? 1 : 0;
    return n;
  }
  const kube::HttpRequest* LastDelete() {
    for (auto it = transport.requests.rbegin(); it != transport.requests.rend(); ++it) {
      if (it->method == "DELETE") return &*it;
    }
    return nullptr;
  }
};

}  // namespace

TEST_CASE("deleter: tazuna's object is deleted with uid and resourceVersion preconditions") {
  Harness h;
  h.transport.Add(std::string("GET ") + kPath, 200, ConfigMap("tazuna", "m"));
  h.transport.Add(std::string("DELETE ") + kPath, 200, R"({"kind":"Status","status":"Success"})");
  Deleter deleter(*h.client, {}, nullptr, nullptr);
  const DeleteOutcome out = deleter.Delete(Target(h.state), Phase::kRest);
  CHECK(out.verdict == Verdict::kDeleted);
  REQUIRE(h.LastDelete() != nullptr);
  CHECK(h.LastDelete()->body.find(R"("uid":"u1")") != std::string::npos);
  CHECK(h.LastDelete()->body.find(R"("resourceVersion":"7")") != std::string::npos);
}

TEST_CASE("deleter: what tazuna does not own is kept, and says why; nothing is deleted") {
  struct Case {
    const char* name;
    std::string live;
    DeleteScope scope;
    std::string note;
    bool forget;
  };
  const std::vector<Case> cases = {
      {"another tool's", ConfigMap("kubectl-client-side-apply"), {}, "not managed by tazuna", false},
      {"another manifest's", ConfigMap("tazuna", "other"), {}, "owned by manifest \"other\"", true},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Harness h;
    h.transport.Add(std::string("GET ") + kPath, 200, c.live);
    Deleter deleter(*h.client, c.scope, nullptr, nullptr);
    const DeleteOutcome out = deleter.Delete(Target(h.state), Phase::kRest);
    CHECK(out.verdict == Verdict::kKept);
    CHECK(out.note == c.note);
    CHECK(out.forget == c.forget);
    CHECK(h.Deletes() == 0);
  }
}

TEST_CASE("deleter: gone already; a plan's object made again is refused; a stopping run deletes nothing") {
  Harness gone;
  const DeleteOutcome out = Deleter(*gone.client, {}, nullptr, nullptr).Delete(Target(gone.state), Phase::kRest);
  CHECK(out.verdict == Verdict::kGone);  // the fake answers 404 for what it was not given
  CHECK(out.note == "already gone");

  Harness planned;
  planned.transport.Add(std::string("GET ") + kPath, 200, ConfigMap("tazuna", "m"));
  DeleteScope scope;
  scope.planned_uids = std::map<ObjectIdentity, std::string>{{ObjectIdentity{"", "ConfigMap", "a", "c"}, "u0"}};
  const DeleteOutcome again = Deleter(*planned.client, scope, nullptr, nullptr).Delete(Target(planned.state), Phase::kRest);
  CHECK(again.verdict == Verdict::kKept);
  CHECK(again.refused);
  CHECK(again.note == "not pruned: created again since the plan (uid u0, now u1)");
  CHECK(planned.Deletes() == 0);

  // The fence (the lock, the revision record) is asked right before the DELETE, never for a row that deletes
  // nothing: a stopping run reads, keeps, and deletes nothing.
  Harness stopping;
  stopping.transport.Add(std::string("GET ") + kPath, 200, ConfigMap("tazuna", "m"));
  int asked = 0;
  const DeleteOutcome stopped = Deleter(*stopping.client, {}, nullptr, [&] {
                                  ++asked;
                                  return false;
                                }).Delete(Target(stopping.state), Phase::kRest);
  CHECK(stopped.verdict == Verdict::kKept);
  CHECK(stopped.note == "sync stopped");
  CHECK(stopping.Deletes() == 0);
  CHECK(asked == 1);
  Harness gone_again;
  asked = 0;
  const DeleteOutcome nothing = Deleter(*gone_again.client, {}, nullptr, [&] {
                                  ++asked;
                                  return true;
                                }).Delete(Target(gone_again.state), Phase::kRest);
  CHECK(nothing.verdict == Verdict::kGone);
  CHECK(asked == 0);  // no write: no revision record is made for it
}

TEST_CASE("deleter: a Namespace holding an object something renders is kept without a request for its contents") {
  Harness h;
  h.transport.Add("GET /api/v1/namespaces/a", 200,
                  R"({"apiVersion":"v1","kind":"Namespace","metadata":{"name":"a","uid":"n1","resourceVersion":"3",)"
                  R"("managedFields":[{"manager":"tazuna","operation":"Apply"}]}})");
  DeleteScope scope;
  scope.rendered[ObjectIdentity{"", "ConfigMap", "a", "kept"}] = "other";
  Deleter deleter(*h.client, scope, nullptr, nullptr);
  const DeleteTarget ns{"m", StateKey{"m", "", "v1", "Namespace", "", "a"}, ObjectIdentity{"", "Namespace", "", "a"}, &h.state};
  const DeleteOutcome out = deleter.Delete(ns, Phase::kNamespace);
  CHECK(out.verdict == Verdict::kKept);
  CHECK(out.note == "1 rendered objects live in it");
  CHECK(h.Deletes() == 0);
  REQUIRE(deleter.RenderedBy(ObjectIdentity{"", "ConfigMap", "a", "kept"}) != nullptr);
  CHECK(*deleter.RenderedBy(ObjectIdentity{"", "ConfigMap", "a", "kept"}) == "other");
}

TEST_CASE("deleter: whether another group renders the object, when it cannot be read, keeps it and fails the run") {
  // Group other.example serves ConfigMap too; the same name there is rendered by this run.
  const char* groups =
      R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"other.example"},"versions":[{"version":"v1",)"
      R"("resources":[{"resource":"configmaps","responseKind":{"kind":"ConfigMap"},"scope":"Namespaced",)"
      R"("verbs":["get","list","delete"]}]}]}]})";
  const std::string other = "GET /apis/other.example/v1/namespaces/a/configmaps/c";
  struct Case {
    const char* name;
    int status;
    std::string body;
    Verdict verdict;
    bool refused;
  };
  const std::vector<Case> cases = {
      {"forbidden", 403, R"({"kind":"Status","reason":"Forbidden","message":"no","code":403})", Verdict::kKept, true},
      {"a server error", 500, R"({"kind":"Status","reason":"InternalError","message":"boom","code":500})", Verdict::kKept, true},
      {"not there", 404, R"({"kind":"Status","reason":"NotFound","message":"gone","code":404})", Verdict::kDeleted, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Harness h;
    h.transport.routes.clear();
    h.transport.Add("GET /api", 200, kube::testing::kCoreDiscovery, {{"Content-Type", kube::testing::kAggregatedDiscovery}});
    h.transport.Add("GET /apis", 200, groups, {{"Content-Type", kube::testing::kAggregatedDiscovery}});
    h.transport.Add(std::string("GET ") + kPath, 200, ConfigMap("tazuna", "m"));
    h.transport.Add(other, c.status, c.body);
    h.transport.Add(std::string("DELETE ") + kPath, 200, R"({"kind":"Status","status":"Success"})");
    DeleteScope scope;
    scope.rendered[ObjectIdentity{"other.example", "ConfigMap", "a", "c"}] = "m2";
    Deleter deleter(*h.client, scope, nullptr, nullptr);
    const DeleteOutcome out = deleter.Delete(Target(h.state), Phase::kRest);
    CHECK(out.verdict == c.verdict);
    CHECK(out.refused == c.refused);
    CHECK(h.Deletes() == (c.verdict == Verdict::kDeleted ? 1 : 0));
    if (c.refused) CHECK(out.note.rfind("cannot tell whether it is still rendered under another group: ", 0) == 0);
  }
}

}  // namespace tazuna::state
