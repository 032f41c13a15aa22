// StateStore::Write when answers are lost: settled by reading back, and a shard generation is deleted only
// after a read of the base shows it does not name it.
#include <doctest/doctest.h>

#include <set>
#include <sstream>

#include "../../kube/fakes.hpp"
#include "kube/delivery.hpp"
#include "state/store/store.hpp"
#include "util/strings.hpp"

namespace tazuna::state {
namespace {

using kube::HttpRequest;
using kube::HttpResponse;
using nlohmann::json;

constexpr char kBase[] = "/api/v1/namespaces/tazuna/configmaps/tazuna-state-m";
constexpr char kOldShard[] = "tazuna-state-m.0000aaaa.1";

util::Error Reset() { return kube::testing::TransportError(kube::kReasonConnectionReset); }

std::string Name(const HttpRequest& r) { return r.url.substr(r.url.rfind('/') + 1); }

// A state big enough to spill into a shard (about 1.4 MB of entries).
ManifestState BigState() {
  ManifestState s;
  s.manifest = "m";
  for (int i = 0; i < 6000; ++i) {
    s.entries[util::StrCat("m//v1/ConfigMap/ns/object-", i, "-", std::string(120, 'x'))] = std::string(64, 'a');
  }
  s.objects = {{"tazuna-state-m", "10"}, {kOldShard, "9"}};
  s.metadata.shards = {kOldShard};
  return s;
}

struct Fixture : kube::testing::ClientParts {
  std::set<std::string> created;  // shards the write made
  json last_base;                 // the base as our PUT sent it
  Fixture() {
    transport.Add("GET /api/v1/namespaces/tazuna", 200, R"({"kind":"Namespace","metadata":{"name":"tazuna"}})");
    transport.Add("GET /api/v1/namespaces/tazuna/configmaps", 200, R"({"kind":"List","metadata":{},"items":[]})");
    transport.handlers["POST /api/v1/namespaces/tazuna/configmaps"] = [this](const HttpRequest& r) {
      json cm = json::parse(r.body);
      created.insert(cm["metadata"]["name"].get<std::string>());
      cm["metadata"]["resourceVersion"] = "20";
      return util::Result<HttpResponse>(HttpResponse{201, {}, cm.dump()});
    };
    transport.handlers[std::string("PUT ") + kBase] = [this](const HttpRequest& r) {
      last_base = json::parse(r.body);
      return util::Result<HttpResponse>(Reset());  // applied, but the answer is lost
    };
  }
  std::vector<std::string> Deleted() {
    std::vector<std::string> out;
    for (const auto& r : transport.requests) {
      if (r.method == "DELETE") out.push_back(Name(r));
    }
    return out;
  }
  // The base as another writer left it: naming the old shard only.
  static std::string Theirs() {
    return json({{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                 {"metadata", {{"name", "tazuna-state-m"}, {"namespace", "tazuna"}, {"resourceVersion", "12"}}},
                 {"data", {{"_metadata", R"({"gitCommitHash":"","lastSyncedAt":"","shards":["tazuna-state-m.0000aaaa.1"]})"}}}})
        .dump();
  }
};

}  // namespace

TEST_CASE("store write: a base applied whose answer was lost is settled by reading it back; its shards stay") {
  Fixture f;
  f.transport.handlers[std::string("GET ") + kBase] = [&f](const HttpRequest&) {
    json stored = f.last_base;
    stored["metadata"]["resourceVersion"] = "11";
    return util::Result<HttpResponse>(HttpResponse{200, {}, stored.dump()});
  };
  kube::Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  StateStore store(client);
  ManifestState state = BigState();
  REQUIRE(store.Write(state));
  REQUIRE(f.created.size() == 1);
  CHECK(state.objects[0].resource_version == "11");
  CHECK(state.metadata.shards == std::vector<std::string>(f.created.begin(), f.created.end()));
  CHECK(f.Deleted() == std::vector<std::string>{kOldShard});  // the old generation, which the base no longer names
  int puts = 0;
  for (const auto& r : f.transport.requests) puts += r.method == "PUT";
  CHECK(puts == 1);  // never sent again blindly
}

TEST_CASE("store write: a base lost to another writer deletes its new shards after reading the base") {
  Fixture f;
  f.transport.Add(std::string("GET ") + kBase, 200, Fixture::Theirs());
  kube::Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  StateStore store(client);
  ManifestState state = BigState();
  auto st = store.Write(state);
  REQUIRE(!st);
  CHECK(st.error().kind == util::ErrorKind::kConflict);
  CHECK(st.error().message == "configmap tazuna/tazuna-state-m was changed by another writer");
  CHECK(f.Deleted() == std::vector<std::string>(f.created.begin(), f.created.end()));
  CHECK(state.objects[0].resource_version == "10");  // unchanged: the caller re-reads and merges
}

TEST_CASE("store write: shards stay when what the base names cannot be known") {
  const std::string forbidden = R"({"kind":"Status","reason":"Forbidden","message":"no","code":403})";
  struct Case {
    const char* name;
    std::vector<std::pair<int, std::string>> base_reads;  // in order; the last repeats
  };
  const std::vector<Case> cases = {
      {"the base's fate is unknown: its read-back failed", {{403, forbidden}}},
      {"lost to another writer, but the base cannot be read again before deleting",
       {{200, Fixture::Theirs()}, {403, forbidden}}},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Fixture f;
    for (const auto& [status, body] : c.base_reads) f.transport.Add(std::string("GET ") + kBase, status, body);
    kube::Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    StateStore store(client);
    ManifestState state = BigState();
    REQUIRE(!store.Write(state));
    CHECK(f.Deleted().empty());
    CHECK(state.objects[0].resource_version == "10");
  }
}

}  // namespace tazuna::state
