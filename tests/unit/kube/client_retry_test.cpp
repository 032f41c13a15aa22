// Which requests the client sends again, and when: never a POST or PUT that may have reached the server.
#include <doctest/doctest.h>

#include <sstream>

#include "fakes.hpp"
#include "kube/client.hpp"
#include "kube/delivery.hpp"
#include "kube/retry.hpp"

namespace tazuna::kube {
namespace {

constexpr char kCm[] = "/api/v1/namespaces/team-a/configmaps";

struct Fixture : testing::ClientParts {
  Fixture() { config.namespace_name = "team-a"; }
  void Fail(const std::string& key, const char* reason) { transport.routes[key].emplace_back(testing::TransportError(reason)); }
};

const nlohmann::json kObject = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "cm"}}}};

nlohmann::json WithVersion(const std::string& rv) {
  nlohmann::json o = kObject;
  o["metadata"]["resourceVersion"] = rv;
  return o;
}

template <class T>
util::Status StatusOf(const util::Result<T>& r) {
  if (r) return util::Ok();
  return r.error();
}

// Sends one request of `method` to ConfigMap cm (discovery first, so the server counts as reached).
util::Status SendOne(Client& c, const std::string& method) {
  if (method == "POST") return StatusOf(c.Create(kObject));
  if (method == "PUT") return StatusOf(c.Update(WithVersion("7")));
  if (method == "GET") return StatusOf(c.Get({"v1", "ConfigMap", "", "cm"}));
  if (method == "DELETE") return c.Delete({"v1", "ConfigMap", "", "cm"});
  return StatusOf(c.ApplyObject(kObject, ApplyOptions{}));
}

std::string KeyOf(const std::string& method) {
  return method == "POST" ? std::string("POST ") + kCm : method + " " + kCm + "/cm";
}

}  // namespace

TEST_CASE("client: a request that may have reached the server is sent again only when idempotent") {
  struct Case {
    std::string method;
    const char* reason;  // the first attempt's transport failure
    int want_sent;       // attempts of `method`
    bool want_ok;
  };
  const std::vector<Case> cases = {
      {"POST", kReasonConnectionReset, 1, false}, {"PUT", kReasonConnectionReset, 1, false},
      {"POST", kReasonStalled, 1, false},         {"PUT", kReasonTimeout, 1, false},
      {"GET", kReasonConnectionReset, 2, true},   {"DELETE", kReasonConnectionReset, 2, true},
      {"PATCH", kReasonConnectionReset, 2, true}, {"PATCH", kReasonStalled, 2, true},
      // A timeout is the user's --request-timeout (or a deadline): given up, as kubectl does.
      {"GET", kReasonTimeout, 1, false},
  };
  for (const auto& c : cases) {
    CAPTURE(c.method);
    CAPTURE(std::string(c.reason));
    Fixture f;
    f.Fail(KeyOf(c.method), c.reason);
    f.transport.Add(KeyOf(c.method), 200, kObject.dump());
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    const util::Status st = SendOne(client, c.method);
    CHECK(f.Sent(c.method) == c.want_sent);
    CHECK(static_cast<bool>(st) == c.want_ok);
    if (!st) CHECK(Unconfirmed(st.error()));  // only reading back could tell whether it was applied
  }
}

TEST_CASE("client: answers that are retried, by method") {
  struct Case {
    std::string method;
    int status;  // the first answer
    int want_sent;
  };
  const std::vector<Case> cases = {
      // 429: refused before any work, safe to send again whatever the method.
      {"POST", 429, 2}, {"PUT", 429, 2}, {"PATCH", 429, 2},
      // 5xx: a read always; an idempotent write when the server could not take it now; never POST or PUT
      // (an etcd timeout may have committed it).
      {"GET", 500, 2}, {"PATCH", 503, 2}, {"DELETE", 504, 2}, {"PATCH", 500, 1}, {"POST", 503, 1}, {"PUT", 504, 1},
  };
  for (const auto& c : cases) {
    CAPTURE(c.method);
    CAPTURE(c.status);
    Fixture f;
    f.transport.Add(KeyOf(c.method), c.status, "");
    f.transport.Add(KeyOf(c.method), 200, kObject.dump());
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    const util::Status st = SendOne(client, c.method);
    CHECK(f.Sent(c.method) == c.want_sent);
    CHECK(static_cast<bool>(st) == (c.want_sent == 2));
    if (!st) CHECK(Unconfirmed(st.error()) == (c.status >= 500));
  }
}

TEST_CASE("client: a server reached before and now refusing is waited for; a first contact fails at once") {
  Fixture f;
  f.Fail("GET /version", kReasonConnectionRefused);
  Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  auto first = client.GetPath("/version");
  REQUIRE(!first);
  CHECK(first.error().reason == kReasonConnectionRefused);
  CHECK(f.clock.sleeps.empty());

  // Discovery answered: the server exists. A refused POST was never sent, so it is sent again until the
  // server is back, at most 2 s apart.
  for (int i = 0; i < 8; ++i) f.Fail(KeyOf("POST"), i % 2 ? kReasonConnectFailed : kReasonConnectionRefused);
  f.transport.Add(KeyOf("POST"), 201, kObject.dump());
  REQUIRE(client.Create(kObject));
  CHECK(f.Sent("POST") == 9);
  for (const auto& d : f.clock.sleeps) CHECK(d <= std::chrono::seconds(2));

  // ... for a minute at most.
  f.transport.routes[KeyOf("POST")].clear();
  f.Fail(KeyOf("POST"), kReasonConnectionRefused);
  const auto before = f.clock.Steady();
  auto gone = client.Create(kObject);
  REQUIRE(!gone);
  CHECK(f.clock.Steady() - before >= std::chrono::seconds(60));
  CHECK(f.clock.Steady() - before <= std::chrono::seconds(62));
}

TEST_CASE("client: the write fence is asked before every attempt of a write, 429 waits included") {
  Fixture f;
  int asked = 0;
  bool open = true;
  f.transport.Add(KeyOf("PUT"), 429, "", {{"Retry-After", "1"}});
  f.transport.Add(KeyOf("PUT"), 429, "", {{"Retry-After", "1"}});
  f.transport.Add(KeyOf("PUT"), 200, kObject.dump());
  f.transport.Add(KeyOf("GET"), 200, kObject.dump());
  Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  client.set_write_fence([&]() -> util::Status {
    ++asked;
    if (open) return util::Ok();
    return util::MakeError(util::ErrorKind::kConflict, "lost the sync lock");
  });
  REQUIRE(client.Update(WithVersion("7")));
  CHECK(asked == 3);
  REQUIRE(client.Get({"v1", "ConfigMap", "", "cm"}));
  CHECK(asked == 3);  // reads are not fenced

  // The lock's own requests skip it; a closed fence stops a write unsent.
  open = false;
  f.transport.routes[KeyOf("PUT")].clear();
  f.transport.Add(KeyOf("PUT"), 200, kObject.dump());
  REQUIRE(client.Update(WithVersion("7"), RequestOptions{DryRun::kNone, Fence::kSkip, std::nullopt}));
  const int sent = f.Sent("PUT");
  auto fenced = client.Update(WithVersion("7"));
  REQUIRE(!fenced);
  CHECK(fenced.error().message == "lost the sync lock");
  CHECK(f.Sent("PUT") == sent);

  // After the 429 wait, the fence is asked again before the next attempt.
  int calls = 0;
  client.set_write_fence([&]() -> util::Status {
    if (++calls == 1) return util::Ok();
    return util::MakeError(util::ErrorKind::kConflict, "lost the sync lock");
  });
  f.transport.Add(KeyOf("POST"), 429, "");
  auto after_wait = client.Create(kObject);
  REQUIRE(!after_wait);
  CHECK(after_wait.error().message == "lost the sync lock");
  CHECK(f.Sent("POST") == 1);
  client.set_write_fence(nullptr);
}

TEST_CASE("client: the fence's guard has the last word right before a write goes out; then the fence decides") {
  Fixture f;
  bool held = true;  // what the lock's non-blocking test says on the transport's thread
  int fence_asked = 0;
  std::string fence_says = "";
  int sent = 0;
  f.transport.handlers[KeyOf("PUT")] = [&](const HttpRequest& req) -> util::Result<HttpResponse> {
    if (req.may_send && !req.may_send()) {  // as the curl transport's pre-request callback
      util::Error e = util::MakeError(util::ErrorKind::kTransport, "withheld");
      e.reason = kReasonWithheld;
      return e;
    }
    ++sent;
    return HttpResponse{200, {}, kObject.dump()};
  };
  f.transport.Add(KeyOf("GET"), 200, kObject.dump());
  Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  client.set_write_fence(
      [&]() -> util::Status {
        // Held when asked first; by the next attempt the renewal found the lease taken.
        if (++fence_asked == 1 || fence_says.empty()) return util::Ok();
        return util::MakeError(util::ErrorKind::kConflict, fence_says);
      },
      [&]() -> std::optional<WriteWindow> {
        if (!held) return std::nullopt;
        return WriteWindow{f.clock.Steady() + std::chrono::seconds(10), f.clock.Steady() + std::chrono::seconds(14)};
      });
  REQUIRE(client.Update(WithVersion("7")));
  CHECK(fence_asked == 1);
  REQUIRE(client.Get({"v1", "ConfigMap", "", "cm"}));
  CHECK_FALSE(f.transport.requests.back().may_send);  // reads carry no guard
  REQUIRE(client.Update(WithVersion("7"), RequestOptions{DryRun::kNone, Fence::kSkip, std::nullopt}));
  CHECK_FALSE(f.transport.requests.back().may_send);  // nor the lock's own requests

  CHECK(sent == 2);

  // Stopped between the fence and the wire past the lease: the write stays unsent, the fence says why.
  held = false;
  fence_says = "lost the sync lock";
  fence_asked = 0;
  auto lost = client.Update(WithVersion("7"));
  REQUIRE(!lost);
  CHECK(lost.error().message == "lost the sync lock");
  CHECK(fence_asked == 2);  // before the withheld attempt, and again after it
  CHECK(sent == 2);         // nothing went out
  client.set_write_fence(nullptr);
}

TEST_CASE("client: a write under the lock ends, on the server too, by the lock's bound (issue 47)") {
  Fixture f;
  f.transport.Add(KeyOf("PUT"), 200, kObject.dump());
  f.transport.Add(KeyOf("PUT"), 200, kObject.dump());
  f.transport.Add(KeyOf("PUT"), 200, kObject.dump());
  Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  // Renewed at 0: writes end by 12.5 s, a takeover could follow from 14 s.
  auto until = f.clock.Steady() + std::chrono::milliseconds(12500);
  client.set_write_fence([] { return util::Ok(); }, [&]() -> std::optional<WriteWindow> {
    return WriteWindow{until, until + std::chrono::milliseconds(1500)};
  });
  REQUIRE(client.Update(WithVersion("7")));
  const HttpRequest& sent = f.transport.requests.back();
  CHECK(sent.url.find("timeout=12s") != std::string::npos);  // 12.5 s less kWriteSlack
  CHECK(sent.timeout == std::chrono::seconds(12));
  REQUIRE(sent.may_send);
  CHECK(sent.may_send());
  f.clock.now += std::chrono::milliseconds(1900);  // a slow handshake: 1.9 + 12 s still ends before 14 s
  CHECK(sent.may_send());
  f.clock.now += std::chrono::milliseconds(200);  // 2.1 + 12 s would not: not sent so
  CHECK_FALSE(sent.may_send());
  // The lock's own requests have no bound.
  REQUIRE(client.Update(WithVersion("7"), RequestOptions{DryRun::kNone, Fence::kSkip, std::nullopt}));
  CHECK(f.transport.requests.back().url.find("timeout=") == std::string::npos);
  // A shorter --request-timeout stays.
  f.config.timeout = std::chrono::seconds(5);
  Client configured(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  until = f.clock.Steady() + std::chrono::seconds(12);
  configured.set_write_fence([] { return util::Ok(); }, [&]() -> std::optional<WriteWindow> {
    return WriteWindow{until, until + std::chrono::seconds(2)};
  });
  REQUIRE(configured.Update(WithVersion("7")));
  CHECK(f.transport.requests.back().url.find("timeout=5s") != std::string::npos);
  client.set_write_fence(nullptr);
  configured.set_write_fence(nullptr);
}

TEST_CASE("client: a deadline cuts each attempt and stops retries before it") {
  Fixture f;
  for (int i = 0; i < 5; ++i) f.transport.Add(KeyOf("PUT"), 429, "", {{"Retry-After", "2"}});
  Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
  REQUIRE(client.Get({"v1", "ConfigMap", "", "cm"}).error().reason == "NotFound");  // discovery done
  const auto start = f.clock.Steady();
  auto r = client.Update(WithVersion("7"), RequestOptions{DryRun::kNone, Fence::kCheck, start + std::chrono::seconds(5)});
  REQUIRE(!r);
  CHECK(r.error().reason == "TooManyRequests");
  CHECK(f.Sent("PUT") == 3);  // at 0 s, 2 s and 4 s; a wait to 6 s would pass the deadline
  for (const auto& req : f.transport.requests) {
    if (req.method == "PUT") CHECK(req.timeout <= std::chrono::seconds(5));
  }
  CHECK(f.transport.requests.back().timeout == std::chrono::seconds(1));
}

TEST_CASE("client: 429s are waited out for at least ten tries and two minutes, then the request fails") {
  {
    Fixture f;  // a busy small in-flight limit: refused 20 times in a row, then served
    for (int i = 0; i < 20; ++i) f.transport.Add(KeyOf("PUT"), 429, "", {{"Retry-After", "1"}});
    f.transport.Add(KeyOf("PUT"), 200, WithVersion("8").dump());
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    CHECK(client.Update(WithVersion("7")));
    CHECK(f.Sent("PUT") == 21);
  }
  {
    Fixture f;  // refused for ever (the last answer repeats): given up once both bounds are passed
    f.transport.Add(KeyOf("PUT"), 429, "", {{"Retry-After", "5"}});
    Client client(f.config, f.transport, f.procs, f.log, f.clock, f.env);
    const auto start = f.clock.Steady();
    auto r = client.Update(WithVersion("7"));
    REQUIRE(!r);
    CHECK(r.error().reason == "TooManyRequests");
    CHECK(f.Sent("PUT") == 25);  // 24 waits of 5 s: the first 429 past 120 s ends it
    CHECK(f.clock.Steady() - start >= kThrottledFor);
  }
}

}  // namespace tazuna::kube
