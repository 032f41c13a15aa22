#include "kube/settled_write.hpp"

#include <doctest/doctest.h>

#include <sstream>

#include "fakes.hpp"
#include "kube/delivery.hpp"

namespace tazuna::kube {
namespace {

constexpr char kPath[] = "/api/v1/namespaces/ns/configmaps/cm";

nlohmann::json Cm(const std::string& rv, const std::string& value) {
  nlohmann::json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                       {"metadata", {{"name", "cm"}, {"namespace", "ns"}}}, {"data", {{"k", value}}}};
  if (!rv.empty()) cm["metadata"]["resourceVersion"] = rv;
  return cm;
}

util::Error Reset() { return testing::TransportError(kReasonConnectionReset); }

using Fixture = testing::ClientParts;

}  // namespace

TEST_CASE("settled write: a lost answer is settled by reading back, never by sending blindly") {
  struct Case {
    const char* name;
    std::string rv;          // of the object written ("" creates)
    int first_status;        // the write's first answer; 0: the connection broke
    std::string first_body;
    std::vector<std::pair<int, nlohmann::json>> reads;  // read-backs, in order
    int want_writes;
    WriteFate want_fate;
    std::string want_error;  // "" when written
  };
  const std::string conflict = R"({"kind":"Status","reason":"Conflict","code":409})";
  const std::string exists = R"({"kind":"Status","reason":"AlreadyExists","code":409})";
  const nlohmann::json gone = nlohmann::json::parse(R"({"kind":"Status","reason":"NotFound","code":404})");
  const std::vector<Case> cases = {
      {"replace applied, answer lost: ours is there", "5", 0, "", {{200, Cm("6", "new")}}, 1, WriteFate::kWritten, ""},
      {"replace not applied: sent again, once", "5", 0, "", {{200, Cm("5", "old")}}, 2, WriteFate::kWritten, ""},
      {"replace lost to another writer", "5", 0, "", {{200, Cm("6", "theirs")}}, 1, WriteFate::kNotWritten,
       "configmap ns/cm was changed by another writer"},
      {"a Conflict that is our own earlier write", "5", 409, conflict, {{200, Cm("6", "new")}}, 1, WriteFate::kWritten, ""},
      {"create applied, answer lost", "", 0, "", {{200, Cm("1", "new")}}, 1, WriteFate::kWritten, ""},
      {"create not applied: sent again", "", 0, "", {{404, gone}}, 2, WriteFate::kWritten, ""},
      {"create lost to another writer", "", 409, exists, {{200, Cm("1", "theirs")}}, 1, WriteFate::kNotWritten,
       "configmap ns/cm was created by another writer"},
      {"a 500 from an etcd timeout that committed", "5", 500, "etcdserver: request timed out", {{200, Cm("6", "new")}},
       1, WriteFate::kWritten, ""},
      {"an answer that is not JSON: read back, ours is there", "5", 200, "{\"kind\":", {{200, Cm("6", "new")}}, 1,
       WriteFate::kWritten, ""},
      {"a create answered with text that is not JSON, not applied: sent again", "", 201, "<html>", {{404, gone}}, 2,
       WriteFate::kWritten, ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Fixture f;
    const std::string key = c.rv.empty() ? "POST /api/v1/namespaces/ns/configmaps" : std::string("PUT ") + kPath;
    if (c.first_status == 0) {
      f.transport.routes[key].emplace_back(Reset());
    } else {
      f.transport.Add(key, c.first_status, c.first_body);
    }
    f.transport.Add(key, c.rv.empty() ? 201 : 200, Cm("9", "new").dump());
    for (const auto& [status, body] : c.reads) f.transport.Add(std::string("GET ") + kPath, status, body.dump());
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    const nlohmann::json object = Cm(c.rv, "new");
    WriteFate fate = WriteFate::kUnknown;
    auto written = WriteSettled(client, object, SameData(object), {}, &fate);
    CHECK(f.Sent(c.rv.empty() ? "POST" : "PUT") == c.want_writes);
    CHECK(fate == c.want_fate);
    if (c.want_error.empty()) {
      REQUIRE(written);
      CHECK((*written)["data"]["k"] == "new");
    } else {
      REQUIRE(!written);
      CHECK(written.error().kind == util::ErrorKind::kConflict);
      CHECK(written.error().message == c.want_error);
    }
  }
}

TEST_CASE("settled write: a refusal is not written; an answer nothing can settle leaves the fate unknown") {
  const std::string forbidden = R"({"kind":"Status","reason":"Forbidden","message":"no","code":403})";
  struct Case {
    const char* name;
    int put_status;  // 0: the connection broke
    WriteFate want_fate;
    int want_reads;
    std::string want_error;
  };
  const std::vector<Case> cases = {
      {"refused: final, nothing to read back", 422, WriteFate::kNotWritten, 0, "bad"},
      {"the answer is lost and the read-back fails", 0, WriteFate::kUnknown, 1,
       "Unable to connect to the server: ConnectionReset (and reading it back to see whether it was applied failed: no)"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    Fixture f;
    if (c.put_status == 0) {
      f.transport.routes[std::string("PUT ") + kPath].emplace_back(Reset());
    } else {
      f.transport.Add(std::string("PUT ") + kPath, c.put_status,
                      R"({"kind":"Status","reason":"Invalid","message":"bad","code":422})");
    }
    f.transport.Add(std::string("GET ") + kPath, 403, forbidden);
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    WriteFate fate = WriteFate::kWritten;
    const nlohmann::json object = Cm("5", "new");
    auto written = WriteSettled(client, object, SameData(object), {}, &fate);
    REQUIRE(!written);
    CHECK(fate == c.want_fate);
    CHECK(f.Sent("PUT") == 1);
    CHECK(f.Sent("GET") == c.want_reads);
    CHECK(written.error().message == c.want_error);
  }
}

TEST_CASE("settled write: a read-back answer of any shape is compared, never trusted to be an object") {
  for (const char* body : {"[]", "null", "\"x\"", "7", R"({"data":[1]})", R"({"metadata":"m","data":{"k":"new"}})"}) {
    CAPTURE(body);
    Fixture f;
    f.transport.routes[std::string("PUT ") + kPath].emplace_back(Reset());
    f.transport.Add(std::string("GET ") + kPath, 200, body);
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    const nlohmann::json object = Cm("5", "new");
    WriteFate fate = WriteFate::kUnknown;
    auto written = WriteSettled(client, object, SameData(object), {}, &fate);
    CHECK(f.Sent("PUT") <= 2);
    if (!written) CHECK(fate != WriteFate::kWritten);
  }
}

TEST_CASE("delivery: an answer that cannot be read leaves a write unconfirmed") {
  CHECK(Unconfirmed(ResponseTooLarge("PUT", "/api/v1/namespaces/ns/configmaps/cm")));
  util::Error unknown = testing::TransportError(kReasonAnswerUnreadable);
  CHECK(Unconfirmed(unknown));
  CHECK_FALSE(NotSent(unknown));
  CHECK_FALSE(Unconfirmed(util::MakeError(util::ErrorKind::kApi, "refused")));
}

}  // namespace tazuna::kube
