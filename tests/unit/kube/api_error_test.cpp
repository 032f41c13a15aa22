#include "kube/api_error.hpp"

#include <doctest/doctest.h>

#include "kube/redact.hpp"
#include "kube/retry.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

std::string Render(const util::Error& e) {
  std::string out = util::StrCat(static_cast<int>(e.kind), " ", e.http_code, " ", e.reason, " ", e.message);
  for (const auto& line : e.detail_lines) out += "|" + line;
  return out;
}

TEST_CASE("api error: Status and non-Status responses") {
  struct {
    int status;
    const char* body;
    const char* want;
  } const cases[] = {
      {404,
       R"({"kind":"Status","apiVersion":"v1","status":"Failure","message":"configmaps \"x\" not found",)"
       R"("reason":"NotFound","details":{"name":"x","kind":"configmaps"},"code":404})",
       "5 404 NotFound configmaps \"x\" not found"},
      {409, R"({"kind":"Status","message":"Operation cannot be fulfilled on configmaps \"c\": the object has been modified","reason":"Conflict","code":409})",
       "5 409 Conflict Operation cannot be fulfilled on configmaps \"c\": the object has been modified"},
      {422,
       R"({"kind":"Status","reason":"Invalid","code":422,"message":"long","details":{"kind":"ConfigMap","name":"bad",)"
       R"("causes":[{"field":"data[a b]","message":"Invalid value: \"a b\": bad key"}]}})",
       "5 422 Invalid The ConfigMap \"bad\" is invalid: data[a b]: Invalid value: \"a b\": bad key"},
      {422,
       R"({"kind":"Status","reason":"Invalid","code":422,"details":{"kind":"ConfigMap","name":"bad",)"
       R"("causes":[{"field":"a","message":"m1"},{"field":"b","message":"m2"}]}})",
       "5 422 Invalid The ConfigMap \"bad\" is invalid: |* a: m1|* b: m2"},
      {401, R"({"kind":"Status","message":"Unauthorized","reason":"Unauthorized","code":401})",
       "6 401 Unauthorized Unauthorized"},
      {404, "404 page not found", "5 404 NotFound the server could not find the requested resource"},
      {500, "boom", "5 500 InternalError an error on the server (\"boom\") has prevented the request from succeeding"},
      {503, "", "5 503 ServiceUnavailable the server is currently unable to handle the request"},
      {418, "teapot", "5 418  an error on the server (\"teapot\") has prevented the request from succeeding"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.body);
    CHECK(Render(ErrorFromResponse(HttpResponse{c.status, {}, c.body})) == c.want);
  }
}

TEST_CASE("api error: long non-Status bodies are cut at 2048 bytes") {
  const std::string body(5000, 'x');
  const util::Error e = ErrorFromResponse(HttpResponse{500, {}, body});
  CHECK(e.message == "an error on the server (\"" + std::string(2048, 'x') +
                         "\") has prevented the request from succeeding");
}

TEST_CASE("api error: IsReason") {
  util::Error e = util::MakeError(util::ErrorKind::kApi, "x");
  e.reason = "NotFound";
  CHECK(IsReason(e, "NotFound"));
  CHECK_FALSE(IsReason(e, "Conflict"));
  e.kind = util::ErrorKind::kInput;
  CHECK_FALSE(IsReason(e, "NotFound"));
}

TEST_CASE("retry: Retry-After parsing") {
  const auto now = std::chrono::system_clock::from_time_t(1445412480);  // Wed, 21 Oct 2015 07:28:00 GMT
  struct {
    const char* in;
    long long ms;  // -1 = nullopt
  } const cases[] = {{"3", 3000}, {"0", 0}, {"", -1}, {"soon", -1}, {"-1", -1},
                     {"Wed, 21 Oct 2015 07:28:05 GMT", 5000}, {"Wed, 21 Oct 2015 07:27:00 GMT", 0},
                     {"Wed, 21 Oct 2015 07:28:05", -1}, {"999999999", 999999999000}, {"9999999999", -1},
                     {"99999999999999999999", -1}};
  for (const auto& c : cases) {
    CAPTURE(c.in);
    const auto got = ParseRetryAfter(c.in, now);
    CHECK((got ? got->count() : -1) == c.ms);
  }
  CHECK(Backoff(0).count() == 200);
  CHECK(Backoff(1).count() == 400);
  CHECK(Backoff(10).count() == 5000);
}

TEST_CASE("redact: headers and bodies") {
  CHECK(RedactHeader("Authorization", "Bearer sekrit") == "Bearer <masked>");
  CHECK(RedactHeader("authorization", "sekrit") == "<masked>");
  CHECK(RedactHeader("Accept", "application/json") == "application/json");
  CHECK(RedactBody("", R"({"kind":"Secret","data":{"a":"c2Vj"},"stringData":{"b":"sec"}})") ==
        R"({"data":{"a":"***"},"kind":"Secret","stringData":{"b":"***"}})");
  CHECK(RedactBody("", R"({"kind":"SecretList","items":[{"kind":"Secret","data":{"a":"x"}}]})") ==
        R"({"items":[{"data":{"a":"***"},"kind":"Secret"}],"kind":"SecretList"})");
  // A real SecretList: its items have no kind of their own.
  CHECK(RedactBody("", R"({"apiVersion":"v1","kind":"SecretList","items":[{"metadata":{"name":"s"},"data":{"a":"x"}}]})") ==
        R"({"apiVersion":"v1","items":[{"data":{"a":"***"},"metadata":{"name":"s"}}],"kind":"SecretList"})");
  CHECK(RedactBody("", R"({"kind":"ConfigMap","data":{"a":"x"}})") == R"({"kind":"ConfigMap","data":{"a":"x"}})");
  CHECK(RedactBody("", R"({"kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"z"}})") ==
        R"({"kind":"ExecCredential","status":{"expirationTimestamp":"z","token":"***"}})");
  CHECK(RedactBody("", "not json") == "not json");
}


TEST_CASE("api error: a Status of any shape gives one line, never a throw (issue 25)") {
  struct Case {
    std::string name;
    int status;
    std::string body;
    std::string want_reason, want_message;
  };
  const std::vector<Case> cases = {
      {"kind a number", 500, R"({"kind":5})", "InternalError",
       R"(an error on the server ("{\"kind\":5}") has prevented the request from succeeding)"},
      {"reason and message numbers", 409, R"({"kind":"Status","reason":1,"message":2,"code":"x"})", "",
       "the server reported a conflict"},
      {"code out of range", 404, R"({"kind":"Status","reason":"NotFound","message":"m","code":99999999999})",
       "NotFound", "m"},
      {"details a string", 422, R"({"kind":"Status","reason":"Invalid","message":"m","details":"x"})", "Invalid", "m"},
      {"causes not objects", 422,
       R"({"kind":"Status","reason":"Invalid","details":{"kind":3,"name":"n","causes":[1,{"field":2,"message":"bad"}]}})",
       "Invalid", "The  \"n\" is invalid: "},
      {"a message with newlines", 500, R"({"kind":"Status","reason":"InternalError","message":"a\nb"})",
       "InternalError", R"("a\nb")"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const util::Error e = ErrorFromResponse({c.status, {}, c.body});
    CHECK(e.reason == c.want_reason);
    CHECK(e.message == c.want_message);
    CHECK(e.message.find('\n') == std::string::npos);
    for (const auto& line : e.detail_lines) CHECK(line.find('\n') == std::string::npos);
  }
}

TEST_CASE("redact: Secret paths, by path and not by kind (issue 25)") {
  CHECK(IsSecretPath("/api/v1/secrets"));
  CHECK(IsSecretPath("/api/v1/namespaces/x/secrets"));
  CHECK(IsSecretPath("/api/v1/namespaces/x/secrets/s"));
  CHECK(IsSecretPath("https://k:6443/k8s/clusters/c-1/api/v1/namespaces/x/secrets/s?fieldManager=tazuna"));
  CHECK(IsSecretPath("https://k:6443/api/v1/namespaces/x/secrets/s?fieldManager=tazuna"));
  CHECK(IsSecretPath("/apis/example.com/v1/namespaces/x/secrets/s"));
  CHECK_FALSE(IsSecretPath("/api/v1/namespaces/secrets"));  // the Namespace named "secrets"
  CHECK_FALSE(IsSecretPath("/api/v1/namespaces/secrets/configmaps/c"));
  CHECK_FALSE(IsSecretPath("/api/v1/namespaces/x/configmaps/secrets"));
  const std::string last_applied = R"({\"kind\":\"Secret\",\"stringData\":{\"p\":\"hunter2\"}})";
  const std::string meta_list = R"({"kind":"PartialObjectMetadataList","items":[{"kind":"PartialObjectMetadata",)"
                                R"("metadata":{"annotations":{"kubectl.kubernetes.io/last-applied-configuration":")" +
                                last_applied + R"("}}}]})";
  CHECK(RedactBody("/api/v1/namespaces/x/secrets", meta_list).find("hunter2") == std::string::npos);
  CHECK(RedactBody("/api/v1/namespaces/x/configmaps", meta_list).find("hunter2") != std::string::npos);
  CHECK(RedactBody("/api/v1/namespaces/x/secrets/s", "<html>hunter2</html>") ==
        "<20 bytes of a Secret path's non-JSON body>");
  // What a server echoes of the Secret sent is scrubbed from its answer.
  const std::string sent = R"({"apiVersion":"v1","kind":"Secret","stringData":{"p":"hunter2"}})";
  CHECK(RedactBody("/api/v1/namespaces/x/secrets/s", R"({"kind":"Status","message":"bad value \"hunter2\""})", sent) ==
        R"({"kind":"Status","message":"bad value \"***\""})");
}

TEST_CASE("redact: a state entry's hash of a Secret is not logged (it may be the Go tool's plain one)") {
  const std::string h(64, 'a');
  const std::string body = R"({"kind":"ConfigMap","data":{"m____v1__Secret__ns__s":"{\"contentHash\":\")" + h +
                           R"(\"}","m____v1__ConfigMap__ns__c":"{\"contentHash\":\")" + h +
                           R"(\"}","x":"{\"contentHash\":\")" + h + R"(\",\"key\":\"m//v1/Secret/ns/)" +
                           std::string(300, 'n') + R"(\"}"}})";
  const std::string logged = RedactBody("/api/v1/namespaces/tazuna/configmaps/tazuna-state-m", body);
  CHECK(logged.find(R"(m____v1__Secret__ns__s":"{\"contentHash\":\"***\"}")") != std::string::npos);
  CHECK(logged.find(R"(m____v1__ConfigMap__ns__c":"{\"contentHash\":\")" + h) != std::string::npos);
  CHECK(logged.find(R"("x":"{\"contentHash\":\"***\")") != std::string::npos);
}

TEST_CASE("redact: the error of a Secret request holds none of its values (issue 25)") {
  const std::string sent = R"({"apiVersion":"v1","kind":"Secret","data":{"p":"aHVudGVyMg=="}})";
  const HttpResponse answer{422, {}, R"({"kind":"Status","reason":"Invalid","message":"Secret \"s\" is invalid: )"
                                     R"(data.p: Invalid value: \"hunter2\"","details":{"kind":"secrets","name":"s",)"
                                     R"("causes":[{"field":"data.p","message":"Invalid value: \"aHVudGVyMg==\""}]}})"};
  const util::Error e = ErrorFromResponse(RedactResponse("/api/v1/namespaces/x/secrets/s", sent, answer));
  CHECK(e.message == R"(The secrets "s" is invalid: data.p: Invalid value: "***")");
  const util::Error other = ErrorFromResponse(RedactResponse("/api/v1/namespaces/x/configmaps/c", "", answer));
  CHECK(other.message.find("aHVudGVyMg==") != std::string::npos);
}

}  // namespace
}  // namespace tazuna::kube
