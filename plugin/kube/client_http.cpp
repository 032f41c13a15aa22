// The request pipeline of Client: auth, headers, retries, warnings and logging.
#include <algorithm>

#include "kube/api_error.hpp"
#include "kube/client.hpp"
#include "kube/redact.hpp"
#include "kube/retry.hpp"
#include "kube/url.hpp"
#include "util/build_platform.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

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
  std::string text = header.substr(open + 1, close - open - 1);
  text.erase(std::remove(text.begin(), text.end(), '\\'), text.end());
  return text;
}

bool Retryable(const std::string& method, int status) {
  return status == 429 || (status >= 500 && method == "GET");
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

HttpRequest Client::Build(const Call& call, const RequestCredentials& creds) const {
  HttpRequest req;
  req.method = call.method;
  std::vector<std::pair<std::string, std::string>> query = call.query;
  if (config_.timeout.count() > 0) query.emplace_back("timeout", GoDuration(config_.timeout));
  std::string url = JoinServerPath(config_.server, call.path);
  for (size_t i = 0; i < query.size(); ++i) {
    url += StrCat(i == 0 ? "?" : "&", query[i].first, "=", QueryEscape(query[i].second));
  }
  req.url = std::move(url);
  req.timeout = config_.timeout;
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
  const HttpRequest req = Build(call, *creds);
  LogRequest(req);
  const auto start = clock_.Now();
  ++requests_;
  auto resp = transport_.Do(req);
  if (!resp) return resp;
  if (resp->body.size() > kMaxResponseBytes) return ResponseTooLarge(call.method, call.path);
  if (util::NestsDeeperThan(resp->body, util::kMaxJsonDepth)) {
    return util::MakeError(util::ErrorKind::kApi, StrCat("the response to ", call.method, " ", call.path,
                                                         " nests deeper than ", util::kMaxJsonDepth, " levels"));
  }
  LogResponse(req, *resp, std::chrono::duration_cast<std::chrono::milliseconds>(clock_.Now() - start));
  if (!call.quiet) EmitWarnings(*resp);
  return resp;
}

util::Result<HttpResponse> Client::Send(const Call& call) {
  bool refreshed = false;
  for (int attempt = 0;; ++attempt) {
    RequestCredentials used;
    auto resp = SendOnce(call, &used);
    const bool can_retry = attempt < kMaxRetries;
    if (!resp) {
      if (resp.error().reason == "ConnectionReset" && can_retry) {
        clock_.SleepFor(Backoff(attempt));
        continue;
      }
      return resp.error();
    }
    // Unlike kubectl, retry once with the refreshed credential instead of failing this request.
    if (resp->status == 401 && !refreshed && auth_.Refresh(used)) {
      refreshed = true;
      continue;
    }
    if (resp->status == 429) ++throttled_;
    if (Retryable(call.method, resp->status) && can_retry) {
      const auto after = ParseRetryAfter(resp->Header("Retry-After").value_or(""), clock_.Now());
      clock_.SleepFor(after ? std::min(*after, std::chrono::milliseconds(60000)) : Backoff(attempt));
      continue;
    }
    if (resp->status < 200 || resp->status > 299) {
      // A server may echo what it was sent: the error about a Secret is built from a redacted answer.
      return ErrorFromResponse(RedactResponse(call.path, call.body, std::move(*resp)));
    }
    return resp;
  }
}

util::Result<nlohmann::json> Client::SendJson(const Call& call) {
  auto resp = Send(call);
  if (!resp) return resp.error();
  nlohmann::json doc = nlohmann::json::parse(resp->body, nullptr, false);
  if (doc.is_discarded()) {
    return util::MakeError(util::ErrorKind::kApi, StrCat("invalid JSON in the response to ", call.method, " ",
                                                         call.path));
  }
  return doc;
}

void Client::LogRequest(const HttpRequest& req) const {
  if (!log_.Enabled(7)) return;
  log_.Log(7, StrCat("Request: ", req.method, " ", req.url));
  for (const auto& [name, value] : req.headers) {
    log_.Log(7, StrCat("    ", name, ": ", RedactHeader(name, value)));
  }
  if (log_.Enabled(8) && !req.body.empty()) log_.Log(8, StrCat("Request Body: ", RedactBody(req.url, req.body)));
}

void Client::LogResponse(const HttpRequest& req, const HttpResponse& resp, std::chrono::milliseconds took) const {
  if (!log_.Enabled(6)) return;
  log_.Log(6, StrCat(req.method, " ", req.url, " ", resp.status, " in ", took.count(), " milliseconds"));
  if (log_.Enabled(7)) {
    for (const auto& [name, value] : resp.headers) log_.Log(7, StrCat("    ", name, ": ", value));
  }
  if (log_.Enabled(8)) log_.Log(8, StrCat("Response Body: ", RedactBody(req.url, resp.body, req.body)));
}

void Client::EmitWarnings(const HttpResponse& resp) {
  for (const std::string& header : resp.Headers("Warning")) {
    const std::string text = WarningText(header);
    std::lock_guard<std::mutex> lock(warn_mu_);
    if (warnings_seen_.insert(text).second) log_.Warning(text);
  }
}

}  // namespace tazuna::kube
