// The request pipeline of Client: auth, headers, retries, warnings and logging.
#include <algorithm>

#include "kube/api_error.hpp"
#include "kube/client.hpp"
#include "kube/delivery.hpp"
#include "kube/redact.hpp"
#include "kube/retry.hpp"
#include "kube/url.hpp"
#include "util/build_platform.hpp"
#include "util/json_get.hpp"
#include "util/profile.hpp"
#include "util/strings.hpp"
#include "util/url_redact.hpp"

namespace tazuna::kube {
namespace {

using util::StrCat;

// Go duration text for ?timeout= ("7s", "500ms"), as kubectl sends it.
std::string GoDuration(std::chrono::milliseconds d) {
  if (d.count() % 1000 == 0) return StrCat(d.count() / 1000, "s");
  return StrCat(d.count(), "ms");
}

// `299 - "message"` -> message (RFC 7234 warn-text; client-go prints only the text).
std::string WarningText(const std::string& header) {
  const size_t open = header.find('"');
  const size_t close = header.rfind('"');
  if (open == std::string::npos || close <= open) return header;
  // A quoted-string: a backslash takes the next character as it is (client-go's parseQuotedString), so a
  // value the server Go-quoted in the text (`\\t`) keeps its escape and can be scrubbed.
  std::string text;
  for (size_t i = open + 1; i < close; ++i) {
    if (header[i] == '\\' && i + 1 < close) ++i;
    text += header[i];
  }
  return text;
}

// A 5xx answer is retried for reads (any), and for idempotent writes only when the server says it could
// not take the request now (502-504): a 500 from an apply is usually a webhook or validation failure that
// repeats.
bool RetriesAnswer(const std::string& method, const std::string& content_type, int status) {
  if (status < 500) return false;
  if (method == "GET" || method == "HEAD") return true;
  return Idempotent(method, content_type) && status >= 502 && status <= 504;
}

bool IsWrite(const std::string& method) { return method != "GET" && method != "HEAD"; }

// A fenced write kept unsent because the lock is not held long enough for it now: the fence decides next.
util::Error Withheld() {
  util::Error e = util::MakeError(util::ErrorKind::kTransport, "the write waits for the sync lock to be renewed");
  e.reason = kReasonWithheld;
  return e;
}

}  // namespace

std::string UserAgent(std::string_view version, std::string_view commit) {
  std::string v(version);
  if (!v.empty() && v[0] != 'v') v = "v" + v;
  // client-go's DefaultKubernetesUserAgent: the version without any "-suffix", the commit cut to 7
  // characters, "unknown" for either when empty.
  v = v.substr(0, v.find('-'));
  const std::string c = commit.empty() ? "unknown" : std::string(commit.substr(0, 7));
  return StrCat("kubectl-tazuna/", v.empty() ? "unknown" : v, " (", util::kBuildPlatform, ") kubernetes/", c);
}

HttpRequest Client::Build(const Call& call, const RequestCredentials& creds,
                          std::optional<std::chrono::milliseconds> bound) const {
  HttpRequest req;
  req.method = call.method;
  std::vector<std::pair<std::string, std::string>> query = call.query;
  std::chrono::milliseconds timeout = config_.timeout;
  if (bound && (timeout.count() == 0 || *bound < timeout)) timeout = *bound;
  if (timeout.count() > 0) query.emplace_back("timeout", GoDuration(timeout));
  std::string url = JoinServerPath(config_.server, call.path);
  for (size_t i = 0; i < query.size(); ++i) {
    url += StrCat(i == 0 ? "?" : "&", query[i].first, "=", QueryEscape(query[i].second));
  }
  req.url = std::move(url);
  req.timeout = timeout;
  if (call.deadline) {
    // Each attempt ends by the deadline (at least 1 ms: a zero timeout means none to the transport).
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*call.deadline - clock_.Steady());
    const auto cap = std::max(left, std::chrono::milliseconds(1));
    if (req.timeout.count() == 0 || cap < req.timeout) req.timeout = cap;
  }
  req.body = call.body;
  req.headers.emplace_back("Accept", call.accept);
  req.headers.emplace_back("User-Agent", user_agent_);
  if (!call.content_type.empty()) req.headers.emplace_back("Content-Type", call.content_type);
  if (!creds.authorization.empty()) req.headers.emplace_back("Authorization", creds.authorization);
  req.client_cert_pem = creds.client_cert_pem;
  req.client_key_pem = creds.client_key_pem;
  if (!config_.as.empty()) {
    req.headers.emplace_back("Impersonate-User", config_.as);
    if (!config_.as_uid.empty()) req.headers.emplace_back("Impersonate-Uid", config_.as_uid);
    for (const auto& g : config_.as_groups) req.headers.emplace_back("Impersonate-Group", g);
  }
  return req;
}

util::Result<HttpResponse> Client::SendOnce(const Call& call, RequestCredentials* used) {
  auto creds = auth_.Get();
  if (!creds) return creds.error();
  *used = *creds;
  std::function<std::optional<WriteWindow>()> window;
  if (IsWrite(call.method) && call.fence != Fence::kSkip) {
    std::lock_guard<std::mutex> lock(fence_mu_);
    window = window_;
  }
  // A write under the lock ends, on the server too, before another holder could take the lock.
  std::optional<std::chrono::milliseconds> bound;
  if (window) {
    const auto now = clock_.Steady();
    const auto w = window();
    if (!w) return Withheld();
    bound = std::chrono::duration_cast<std::chrono::milliseconds>(w->write_by - now - kWriteSlack);
    if (bound->count() < 1) return Withheld();  // 0 would mean no timeout at all
  }
  HttpRequest req = Build(call, *creds, bound);
  if (window) {
    // Right before the wire (a new connection's handshake may have taken a while): the server's clock for
    // ?timeout= starts about now, so now + bound must still end before a takeover could follow.
    req.may_send = [window, b = *bound, this] {
      const auto w = window();
      return w && clock_.Steady() + b < w->ends_before;
    };
  }
  LogRequest(req);
  const auto start = clock_.Now();
  ++requests_;
  auto resp = [&] {
    util::ProfileScope profiled(util::ProfilePhase::kSend);
    return transport_.Do(req);
  }();
  if (!resp) return resp;
  if (resp->body.size() > kMaxResponseBytes) return ResponseTooLarge(call.method, call.path);
  if (util::NestsDeeperThan(resp->body, util::kMaxJsonDepth)) {
    util::Error e = util::MakeError(util::ErrorKind::kApi, StrCat("the response to ", call.method, " ", call.path,
                                                                  " nests deeper than ", util::kMaxJsonDepth, " levels"));
    e.reason = kReasonAnswerUnreadable;
    return e;
  }
  LogResponse(req, call.body, *resp, std::chrono::duration_cast<std::chrono::milliseconds>(clock_.Now() - start));
  if (!call.quiet) EmitWarnings(call, *resp);
  return resp;
}

util::Status Client::BeforeAttempt(const Call& call) {
  if (call.deadline && clock_.Steady() >= *call.deadline) {
    util::Error e = UnableToConnect("the request's deadline passed");
    e.reason = kReasonTimeout;
    return e;
  }
  if (!IsWrite(call.method) || call.fence == Fence::kSkip) return util::Ok();
  std::shared_ptr<const std::function<util::Status()>> fence;
  {
    std::lock_guard<std::mutex> lock(fence_mu_);
    fence = fence_;
  }
  return fence ? (*fence)() : util::Ok();
}

// How long to wait before sending again after an answer; nullopt: the answer is final.
std::optional<std::chrono::milliseconds> Client::RetryAnswer(const Call& call, const HttpResponse& resp,
                                                             const RequestCredentials& used, Attempts& a) {
  // Unlike kubectl, retry once with the refreshed credential instead of failing this request.
  if (resp.status == 401 && !a.refreshed && auth_.Refresh(used)) {
    a.refreshed = true;
    return std::chrono::milliseconds(0);
  }
  const auto after = ParseRetryAfter(resp.Header("Retry-After").value_or(""), clock_.Now());
  const auto wait = after ? std::min<std::chrono::milliseconds>(*after, kMaxRetryAfter) : Backoff(a.failures + a.throttled);
  if (resp.status == 429) {
    ++throttled_;  // refused before any work: safe to send again whatever the method
    const auto now = clock_.Steady();
    if (!a.throttled_since) a.throttled_since = now;
    if (a.throttled >= kMaxThrottleRetries && now - *a.throttled_since >= kThrottledFor) return std::nullopt;
    ++a.throttled;
    return wait;
  }
  if (!RetriesAnswer(call.method, call.content_type, resp.status) || a.failures >= kMaxRetries) return std::nullopt;
  ++a.failures;
  return wait;
}

// How long to wait before sending again after no answer; nullopt: give up.
std::optional<std::chrono::milliseconds> Client::RetryFailure(const Call& call, const util::Error& e, Attempts& a) {
  if (NotSent(e)) {
    // The write fence's guard kept it off the wire: the fence decides (it waits for a renewal, or fails).
    if (e.reason == kReasonWithheld && a.withheld++ < kMaxRetries) return std::chrono::milliseconds(0);
    if (!reached_server_) {
      // First contact: a refused or unknown address fails at once, as kubectl's; a connection dropped in
      // the handshake is a fault on the way, tried again a few times.
      if (e.reason != kReasonHandshakeReset || a.unreachable >= kMaxRetries) return std::nullopt;
      return Backoff(a.unreachable++);
    }
    // A server this client reached before and now refuses is restarting: wait for it a while.
    const auto now = clock_.Steady();
    if (!a.unreachable_since) a.unreachable_since = now;
    if (now - *a.unreachable_since >= kUnreachableFor) return std::nullopt;
    return std::min<std::chrono::milliseconds>(Backoff(a.unreachable++), kUnreachableBackoffCap);
  }
  // A request that may have reached the server is sent again only when applying it twice is harmless.
  const bool broken = e.reason == kReasonConnectionReset || e.reason == kReasonStalled;
  if (!broken || !Idempotent(call.method, call.content_type) || a.failures >= kMaxRetries) return std::nullopt;
  return Backoff(a.failures++ + a.throttled);
}

util::Result<HttpResponse> Client::Send(const Call& call) {
  Attempts a;
  for (;;) {
    if (auto st = BeforeAttempt(call); !st) return st.error();
    RequestCredentials used;
    auto resp = SendOnce(call, &used);
    if (resp) reached_server_ = true;
    const auto wait = resp ? RetryAnswer(call, *resp, used, a) : RetryFailure(call, resp.error(), a);
    const bool past_deadline = wait && call.deadline && clock_.Steady() + *wait >= *call.deadline;
    if (!wait || past_deadline) {
      if (!resp) return resp.error();
      if (resp->status < 200 || resp->status > 299) {
        // A server may echo what it was sent: the error about a Secret is built from a redacted answer.
        return ErrorFromResponse(RedactResponse(call.path, call.body, std::move(*resp)));
      }
      return resp;
    }
    log_.Log(6, StrCat("retrying ", call.method, " ", call.path, " in ", wait->count(), "ms (",
                       resp ? StrCat("HTTP ", resp->status) : resp.error().message, ")"));
    if (wait->count() > 0) clock_.SleepFor(*wait);
  }
}

util::Result<nlohmann::json> Client::SendJson(const Call& call) {
  auto resp = Send(call);
  if (!resp) return resp.error();
  util::ProfileScope profiled(util::ProfilePhase::kParse);
  nlohmann::json doc = nlohmann::json::parse(resp->body, nullptr, false);
  if (doc.is_discarded()) {
    util::Error e =
        util::MakeError(util::ErrorKind::kApi, StrCat("invalid JSON in the response to ", call.method, " ", call.path));
    e.reason = kReasonAnswerUnreadable;
    return e;
  }
  return doc;
}

void Client::LogRequest(const HttpRequest& req) const {
  if (!log_.Enabled(7)) return;
  log_.Log(7, StrCat("Request: ", req.method, " ", util::RedactUrlPasswords(req.url)));
  for (const auto& [name, value] : req.headers) {
    log_.Log(7, StrCat("    ", name, ": ", RedactHeader(name, value)));
  }
  if (log_.Enabled(8) && !req.body.empty()) log_.Log(8, StrCat("Request Body: ", RedactBody(req.url, req.body)));
}

void Client::LogResponse(const HttpRequest& req, std::string_view sent, const HttpResponse& resp,
                         std::chrono::milliseconds took) const {
  if (!log_.Enabled(6)) return;
  log_.Log(6, StrCat(req.method, " ", util::RedactUrlPasswords(req.url), " ", resp.status, " in ", took.count(),
                     " milliseconds"));
  if (log_.Enabled(7)) {
    // A Warning header may quote what was sent.
    for (const auto& [name, value] : resp.headers) {
      log_.Log(7, StrCat("    ", name, ": ", ScrubSent(req.url, sent, value)));
    }
  }
  if (log_.Enabled(8)) log_.Log(8, StrCat("Response Body: ", RedactBody(req.url, resp.body, req.body)));
}

void Client::EmitWarnings(const Call& call, const HttpResponse& resp) {
  for (const std::string& header : resp.Headers("Warning")) {
    // A server may quote in a warning what it was sent: scrubbed as its error messages are.
    const std::string text = ScrubSent(call.path, call.body, WarningText(header));
    std::lock_guard<std::mutex> lock(warn_mu_);
    if (warnings_seen_.insert(text).second) log_.Warning(text);
  }
}

}  // namespace tazuna::kube
