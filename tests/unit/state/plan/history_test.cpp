#include "state/plan/history.hpp"

#include <doctest/doctest.h>

#include "util/clock.hpp"

namespace tazuna::state {
namespace {

using nlohmann::json;

Revision Sample() {
  Revision r;
  r.id = "01JD3Q7ZK2M4X8N6P0R5S7T9V1";
  r.started_at = "2026-11-23T18:00:00.000000Z";
  r.finished_at = "2026-11-23T18:00:04.200000Z";
  r.status = RevisionStatus::kSucceeded;
  r.user = "admin";
  r.git_commit = "0123456789abcdef0123456789abcdef01234567";
  r.git_dirty = true;
  r.version = "0.1.0";
  r.selection = {"prod", {"net"}, {"web"}};
  r.manifests = {"web"};
  r.counts = {{"web", {{"created", 2}, {"deleted", 1}, {"unchanged", 5}}}};
  r.objects = {{"web", "web//v1/ConfigMap/default/a", "created", "", "aa", ""},
               {"web", "web//v1/ConfigMap/b", "created", "", "bb", "team-b"}};  // where a namespace-less key went
  r.plan_digest = "sha256:ff";
  r.lock_holder = "host-1-abc";
  return r;
}

SyncInput Input(const std::string& manifest, std::vector<DiffEntry> diff) {
  SyncInput in;
  in.desired.name = manifest;
  in.diff = std::move(diff);
  return in;
}

// A first sync of `n` ConfigMaps of manifest web: every row created.
SyncReport Created(int n) {
  SyncReport report;
  for (int i = 0; i < n; ++i) {
    report.results.push_back(MakeResult("web", "web//v1/ConfigMap/default/object-" + std::to_string(i), "",
                                        Verb::kCreated, std::string(64, 'a')));
  }
  return report;
}

TEST_CASE("history: a record survives JSON, and a bad one is a clear error") {
  const Revision r = Sample();
  auto back = RevisionFromJson(RevisionToJson(r));
  REQUIRE(back);
  CHECK(*back == r);
  struct Case {
    std::string name;
    json in;
    std::string want;
  };
  json bad_status = RevisionToJson(r);
  bad_status["status"] = "done";
  json bad_objects = RevisionToJson(r);
  bad_objects["objects"] = json::array({{{"manifest", 1}}});
  const std::vector<Case> cases = {
      {"not an object", json::array(), "revision record: not a JSON object"},
      {"unknown status", bad_status, "revision record: unknown status \"done\""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    auto got = RevisionFromJson(c.in);
    REQUIRE_FALSE(got);
    CHECK(got.error().message == c.want);
  }
  CHECK_FALSE(RevisionFromJson(bad_objects));
}

TEST_CASE("history: RecordOutcome counts every verb and lists changed objects with old and new hashes") {
  DiffEntry modified;
  modified.manifest = "web";
  modified.type = ChangeType::kModified;
  modified.key = "web//v1/ConfigMap/default/a";
  modified.old_hash = "old-a";
  DiffEntry removed = modified;
  removed.type = ChangeType::kRemoved;
  removed.key = "web//v1/ConfigMap/default/b";
  removed.old_hash = "old-b";
  SyncReport report;
  report.results.push_back(MakeResult("web", modified.key, "", Verb::kConfigured, "new-a"));
  report.results.push_back(MakeResult("web", removed.key, "", Verb::kDeleted, "old-b"));
  report.results.push_back(MakeResult("web", "web//v1/ConfigMap/default/c", "", Verb::kUnchanged, "c"));
  report.results.push_back(MakeResult("web", "web//v1/ConfigMap/default/d", "", Verb::kCreated, "new-d"));
  Revision r;
  RecordOutcome(r, report, {Input("web", {modified, removed}), Input("idle", {})});
  CHECK(r.counts == std::map<std::string, std::map<std::string, int>>{
                        {"web", {{"configured", 1}, {"deleted", 1}, {"unchanged", 1}, {"created", 1}}}, {"idle", {}}});
  CHECK(r.objects == std::vector<RevisionObject>{
                         {"web", modified.key, "configured", "old-a", "new-a", ""},
                         {"web", removed.key, "deleted", "old-b", "", ""},
                         {"web", "web//v1/ConfigMap/default/d", "created", "", "new-d", ""}});
  CHECK(r.objects_omitted == 0);
  CHECK(ChangeSummary(r) == "1 created, 1 configured, 1 deleted");
}

TEST_CASE("history: a very large sync records counts only, far below the ConfigMap limit") {
  Revision r = Sample();
  RecordOutcome(r, Created(5000), {Input("web", {})});
  CHECK(r.objects.empty());
  CHECK(r.objects_omitted == 5000);
  CHECK(r.counts["web"]["created"] == 5000);
  CHECK(RevisionToJson(r).dump().size() < 4096);
  CHECK(ChangeSummary(r) == "5000 created");
}

TEST_CASE("history: a sync of a couple of thousand objects still lists them, within the record bound") {
  Revision r = Sample();
  RecordOutcome(r, Created(2400), {Input("web", {})});
  CHECK(r.objects.size() == 2400);
  CHECK(r.objects_omitted == 0);
  CHECK(RevisionToJson(r).dump().size() <= kMaxRecordBytes);
}

TEST_CASE("history: ChangeSummary lists verbs in kubectl's order") {
  struct Case {
    std::string name;
    std::map<std::string, std::map<std::string, int>> counts;
    std::string want;
  };
  const std::vector<Case> cases = {
      {"nothing", {}, "none"},
      {"only unchanged", {{"a", {{"unchanged", 3}}}}, "none"},
      {"across manifests", {{"a", {{"deleted", 2}, {"created", 1}}}, {"b", {{"created", 2}, {"configured", 1}}}},
       "3 created, 1 configured, 2 deleted"},
      {"failures last", {{"a", {{"failed", 1}, {"kept", 1}, {"adopted", 1}}}}, "1 adopted, 1 kept, 1 failed"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Revision r;
    r.counts = c.counts;
    CHECK(ChangeSummary(r) == c.want);
  }
}

TEST_CASE("history: an in-progress record whose sync lost the lease reads as interrupted") {
  std::chrono::system_clock::time_point now;
  REQUIRE(util::ParseRfc3339("2026-11-23T18:01:00Z", &now));
  auto lease = [](const std::string& holder, const std::string& renewed) {
    return json{{"spec", {{"holderIdentity", holder}, {"renewTime", renewed}, {"leaseDurationSeconds", 15}}}};
  };
  struct Case {
    std::string name;
    RevisionStatus stored;
    json lease;
    RevisionStatus want;
  };
  const std::vector<Case> cases = {
      {"finished stays", RevisionStatus::kSucceeded, json(), RevisionStatus::kSucceeded},
      {"failed stays", RevisionStatus::kFailed, lease("other", "2026-11-23T18:00:59Z"), RevisionStatus::kFailed},
      {"held and renewed", RevisionStatus::kInProgress, lease("host-1-abc", "2026-11-23T18:00:50.5Z"),
       RevisionStatus::kInProgress},
      {"held but expired", RevisionStatus::kInProgress, lease("host-1-abc", "2026-11-23T18:00:40Z"),
       RevisionStatus::kInterrupted},
      {"taken by another", RevisionStatus::kInProgress, lease("other", "2026-11-23T18:00:59Z"),
       RevisionStatus::kInterrupted},
      {"released", RevisionStatus::kInProgress, lease("", "2026-11-23T18:00:59Z"), RevisionStatus::kInterrupted},
      {"no lease", RevisionStatus::kInProgress, json(), RevisionStatus::kInterrupted},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Revision r = Sample();
    r.status = c.stored;
    CHECK(EffectiveStatus(r, c.lease, now) == c.want);
  }
}

TEST_CASE("history: FindRevision takes a whole id or a unique prefix, in any case") {
  std::vector<Revision> revisions(3);
  revisions[0].id = "01JD3Q7ZK2M4X8N6P0R5S7T9V3";
  revisions[1].id = "01JD3Q7ZK2M4X8N6P0R5S7T9V2";
  revisions[2].id = "01JD2AAAAAAAAAAAAAAAAAAAAA";
  struct Case {
    std::string in;
    std::string want_id;
    std::string want_error;
  };
  const std::vector<Case> cases = {
      {"01JD3Q7ZK2M4X8N6P0R5S7T9V2", "01JD3Q7ZK2M4X8N6P0R5S7T9V2", ""},
      {"01jd2", "01JD2AAAAAAAAAAAAAAAAAAAAA", ""},
      {"01JD3", "", "revision prefix \"01JD3\" is ambiguous: it matches 2 revisions"},
      {"01JD4", "", "revision \"01JD4\" not found"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.in);
    auto got = FindRevision(revisions, c.in);
    if (c.want_error.empty()) {
      REQUIRE(got);
      CHECK(got->id == c.want_id);
    } else {
      REQUIRE_FALSE(got);
      CHECK(got.error().message == c.want_error);
    }
  }
}

TEST_CASE("history: -e/-t/-m given with a plan agree with its selection; -t and -m as sets") {
  const RevisionSelection planned{"prod", {"net", "dns"}, {"web", "api"}};
  struct Case {
    std::string name;
    RevisionSelection given;
    bool agrees;
  };
  const std::vector<Case> cases = {
      {"nothing given", {}, true},
      {"the same", planned, true},
      {"-m in another order", {"", {}, {"api", "web"}}, true},
      {"-m repeated", {"", {}, {"api", "web", "api"}}, true},
      {"-t in another order", {"", {"dns", "net"}, {}}, true},
      {"-m one of them", {"", {}, {"web"}}, false},
      {"-m another", {"", {}, {"web", "db"}}, false},
      {"-t another", {"", {"net"}, {}}, false},
      {"-e another", {"staging", {}, {}}, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    CHECK(SelectionAgrees(c.given, planned) == c.agrees);
  }
}

}  // namespace
}  // namespace tazuna::state
