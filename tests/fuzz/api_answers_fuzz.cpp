// Whatever an API server answers, the client ends in a value or a one-line error, never a throw or a
// crash: the same answer (any status, any body) is given to every request of the readers of server
// answers (Status errors, list pages with continue tokens, PartialObjectMetadata, Lease, discovery,
// Secrets, state ConfigMaps and spill shards, revisions, SelfSubjectReview). Logged at -v 10, so the
// body redaction runs on every answer, and a Secret path's answer is checked to come out masked.
// Input: byte 0 picks the HTTP status, byte 1 bit 0 serves the body as discovery too; the rest is the body.
#include <array>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "fuzz_check.hpp"
#include "kube/api_error.hpp"
#include "kube/client.hpp"
#include "kube/fakes.hpp"
#include "kube/object_meta.hpp"
#include "kube/redact.hpp"
#include "state/plan/history.hpp"
#include "state/store/lease.hpp"
#include "state/apply/ownership.hpp"
#include "state/store/secret_key.hpp"
#include "state/store/store.hpp"
#include "util/secret_mask.hpp"

namespace tazuna::fuzz {
namespace {

using nlohmann::json;

constexpr const char* kAggregated = kube::testing::kAggregatedDiscovery;
constexpr const char* kCore = kube::testing::kCoreDiscovery;
constexpr char kApis[] =
    R"({"kind":"APIGroupDiscoveryList","items":[{"metadata":{"name":"coordination.k8s.io"},"versions":[)"
    R"({"version":"v1","resources":[{"resource":"leases","responseKind":{"kind":"Lease"},"scope":"Namespaced"}]}]},)"
    R"({"metadata":{"name":"authentication.k8s.io"},"versions":[{"version":"v1","resources":[)"
    R"({"resource":"selfsubjectreviews","responseKind":{"kind":"SelfSubjectReview"},"scope":"Cluster"}]}]}]})";
constexpr std::array<int, 12> kStatuses = {200, 201, 400, 401, 403, 404, 409, 410, 422, 429, 500, 503};

// Answers every request with the fuzzed response (discovery with a canned one unless fuzzed too).
struct AnswerAll : kube::Transport {
  kube::HttpResponse answer;
  bool fuzz_discovery = false;
  util::Result<kube::HttpResponse> Do(const kube::HttpRequest& req) override {
    std::string path = req.url.substr(req.url.find('/', req.url.find("//") + 2));
    path = path.substr(0, path.find('?'));
    if (!fuzz_discovery && (path == "/api" || path == "/apis")) {
      return kube::HttpResponse{200, {{"Content-Type", kAggregated}}, path == "/api" ? kCore : kApis};
    }
    return answer;
  }
};

template <class T>
void CheckResult(const util::Result<T>& r) {
  if (!r) CheckOneLine(r.error());
}

// Every data/stringData value of a Secret path's answer (the object, or each item of a list, whatever
// their kinds say) is masked in the logged body.
void CheckMasked(const json& value) {
  if (!value.is_object()) return;
  for (const char* field : {"data", "stringData"}) {
    auto it = value.find(field);
    if (it == value.end() || !it->is_object()) continue;
    for (const auto& [k, v] : it->items()) Check(v == util::kSecretMask, "a Secret path's values are masked");
  }
  auto items = value.find("items");
  if (items == value.end() || !items->is_array()) return;
  for (const auto& item : *items) CheckMasked(item);
}

void Readers(kube::Client& client, util::Logger& log, util::Clock& clock) {
  CheckResult(client.List("v1", "ConfigMap", "tazuna", "", kube::ListDetail::kMetadata));
  CheckResult(client.Get({"v1", "Secret", "tazuna", "s"}));
  state::StateStore store(client);
  CheckResult(store.Read("m"));
  CheckResult(store.ListManifests());
  CheckResult(state::LoadSecretHashKey(client, state::CreateKey::kNo));
  state::HistoryStore history(client);
  CheckResult(history.List(log));
  CheckResult(history.Trim(1, "", "github.com/org/a:tazuna.yaml"));
  auto lease = history.ReadLease();
  CheckResult(lease);
  if (lease) (void)state::EffectiveStatus(state::Revision{}, *lease, clock.Now());
  (void)state::WhoAmI(client);
  state::LockOptions lock;
  lock.holder = "fuzz";
  lock.wait = std::chrono::milliseconds(0);
  CheckResult(state::SyncLock::Acquire(client, clock, log, lock));
}

}  // namespace
}  // namespace tazuna::fuzz

extern "C" int LLVMFuzzerTestOneInput(const unsigned char* data, size_t size) {
  using namespace tazuna;
  using nlohmann::json;
  if (size < 2) return 0;
  const std::string body(fuzz::Text(data + 2, size - 2));
  const int status = fuzz::kStatuses[data[0] % fuzz::kStatuses.size()];
  fuzz::CheckOneLine(kube::ErrorFromResponse({status == 200 ? 500 : status, {}, body}));
  const json doc = json::parse(body, nullptr, false);
  (void)kube::ReadObjectMeta(body);
  (void)kube::ParseAggregated(doc);
  (void)kube::ParseResourceList(doc);
  (void)state::OwnerOf(doc);
  const json logged = json::parse(kube::RedactBody("/api/v1/namespaces/x/secrets", body), nullptr, false);
  if (!doc.is_discarded()) fuzz::CheckMasked(logged);

  fuzz::AnswerAll transport;
  transport.answer = {status, {}, body};
  transport.fuzz_discovery = (data[1] & 1) != 0;
  kube::testing::FakeProcesses processes;
  kube::testing::FakeClock clock;
  std::ostringstream err;
  util::Logger log(err, 10);
  util::Environment env;
  kube::RestConfig config;
  config.server = "https://k.example:6443";
  config.namespace_name = "default";
  kube::Client client(config, transport, processes, log, clock, env);
  fuzz::Readers(client, log, clock);
  return 0;
}
