#include <curl/curl.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <future>
#include <mutex>
#include <thread>

#include "kube/api_error.hpp"
#include "kube/delivery.hpp"
#include "kube/transport.hpp"
#include "kube/url.hpp"
#include "util/profile.hpp"
#include "util/strings.hpp"
#include "util/url_redact.hpp"

namespace tazuna::kube {
namespace {

using util::StrCat;

// client-go's dialer gives up connecting after 30 s.
constexpr long kConnectTimeoutMs = 30'000;
// A transfer that moves no byte for this long is cut (reason Stalled): the apiserver itself answers every
// request that is not a watch within 60 s (--request-timeout), so nothing waits longer for a live server.
// kubectl's HTTP/2 health check finds a dead connection after 30 + 15 s the same way.
constexpr long kStallSeconds = 60;

// One request in flight: the easy handle and everything it points into.
struct Pending {
  explicit Pending(const HttpRequest& r) : request(r) {}
  const HttpRequest& request;  ///< the caller's, which waits in Do() until the transfer is over
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  curl_slist* connect_to = nullptr;
  HttpResponse response;
  char errbuf[CURL_ERROR_SIZE] = {};
  bool too_large = false;  ///< the body passed kMaxResponseBytes (the transfer was stopped)
  bool resume = true;      ///< may resume a TLS session of the shared cache
  std::promise<CURLcode> done;
  ~Pending() {
    curl_slist_free_all(headers);
    curl_slist_free_all(connect_to);
    if (easy) curl_easy_cleanup(easy);
  }
};

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  auto* p = static_cast<Pending*>(user);
  if (p->response.body.size() + size * n > kMaxResponseBytes) {
    p->too_large = true;
    return 0;  // curl stops the transfer with CURLE_WRITE_ERROR
  }
  p->response.body.append(data, size * n);
  return size * n;
}

size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  auto* p = static_cast<Pending*>(user);
  std::string_view line(data, size * n);
  if (util::StartsWith(line, "HTTP/")) {
    p->response.headers.clear();  // a new response (after 100 Continue or a redirect)
  } else if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
    p->response.headers.emplace_back(std::string(line.substr(0, colon)),
                                     std::string(util::Trim(line.substr(colon + 1))));
  }
  return size * n;
}

// Called once the connection (and, for HTTP/2, a stream) is ready and before a request byte is written: the
// request's guard gets the last word, so a lock lost while this request waited (or this process was stopped)
// keeps it off the wire.
int OnPrereq(void* user, char*, char*, int, int) {
  auto* p = static_cast<Pending*>(user);
  return p->request.may_send() ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT;
}

// The request's Content-Type header ("" when none).
std::string ContentType(const HttpRequest& r) {
  for (const auto& [name, value] : r.headers) {
    if (util::ToLower(name) == "content-type") return value;
  }
  return "";
}

void SetBlob(CURL* easy, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_easy_setopt(easy, option, &blob);
}

// TLS sessions shared by every request's handle, so that a new connection (every write that must not be resent
// blindly gets one) resumes a session instead of a full handshake. libcurl resumes a session only with the same
// server and the same TLS settings (CA, client certificate). A server that refuses resumption without falling
// back to a full handshake turns this off for the transport (CurlTransport::Do; e2e tls_resume_test).
class TlsSessions {
 public:
  TlsSessions() : share_(curl_share_init()) {
    curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, Lock);
    curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC, Unlock);
    curl_share_setopt(share_, CURLSHOPT_USERDATA, this);
    curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
  }
  ~TlsSessions() { curl_share_cleanup(share_); }
  TlsSessions(const TlsSessions&) = delete;
  TlsSessions& operator=(const TlsSessions&) = delete;
  CURLSH* get() const { return share_; }

 private:
  static void Lock(CURL*, curl_lock_data data, curl_lock_access, void* self) {
    static_cast<TlsSessions*>(self)->mu_[data].lock();
  }
  static void Unlock(CURL*, curl_lock_data data, void* self) { static_cast<TlsSessions*>(self)->mu_[data].unlock(); }

  CURLSH* share_;
  std::mutex mu_[CURL_LOCK_DATA_LAST];  ///< one per kind of shared data, as libcurl locks them
};

class CurlTransport : public Transport {
 public:
  CurlTransport(const RestConfig& config, util::Logger& log) : config_(config), log_(log) {
    multi_ = curl_multi_init();
    curl_multi_setopt(multi_, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX);
    thread_ = std::thread([this] { Loop(); });
  }
  ~CurlTransport() override {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    curl_multi_wakeup(multi_);
    thread_.join();
    curl_multi_cleanup(multi_);
  }

  util::Result<HttpResponse> Do(const HttpRequest& request) override {
    const bool resume = resume_;
    CURLcode code = CURLE_OK;
    auto result = Attempt(request, resume, &code);
    if (code != CURLE_SSL_CONNECT_ERROR || !resume) return result;
    // A handshake that may have offered a cached session failed: some servers (or balancers) reset or refuse a
    // resumption, and the session stays cached. From now on, full handshakes only; this request tries once more
    // (no request byte goes out before the handshake ends: not a resend).
    resume_ = false;
    log_.Log(6, "TLS handshake failed: no more session resumption, trying again with a full handshake");
    return Attempt(request, false, &code);
  }

 private:
  // One transfer, `resume`: with the shared TLS session cache. `code`: libcurl's outcome.
  util::Result<HttpResponse> Attempt(const HttpRequest& request, bool resume, CURLcode* code) {
    Pending p(request);
    p.resume = resume;
    Configure(&p);
    std::future<CURLcode> result = p.done.get_future();
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(&p);
    }
    curl_multi_wakeup(multi_);
    *code = result.get();
    if (*code != CURLE_OK) return MapError(*code, p);
    long status = 0;
    curl_easy_getinfo(p.easy, CURLINFO_RESPONSE_CODE, &status);
    p.response.status = static_cast<int>(status);
    return std::move(p.response);
  }
  void Configure(Pending* p);
  void ConfigureDelivery(Pending* p);
  void ConfigureTls(Pending* p);
  void Loop();
  void Perform();
  util::Error MapError(CURLcode code, const Pending& p) const;

  const RestConfig config_;
  util::Logger& log_;
  TlsSessions sessions_;  ///< outlives every handle (declared before them)
  std::atomic<bool> resume_{true};  ///< cleared for good by a failed handshake that may have resumed
  CURLM* multi_ = nullptr;
  std::thread thread_;
  std::mutex mu_;
  std::vector<Pending*> queue_;
  bool stop_ = false;
};

void CurlTransport::Configure(Pending* p) {
  CURL* e = p->easy = curl_easy_init();
  const HttpRequest& r = p->request;
  UrlParts url = ParseUrl(r.url);
  std::string effective = r.url;
  // tls-server-name changes SNI and the checked name but not where we connect nor the Host header:
  // address the TLS name and map it to the real host with CONNECT_TO.
  if (!config_.tls_server_name.empty() && config_.tls_server_name != url.host) {
    effective = StrCat(url.scheme, "://", config_.tls_server_name, ":", url.port, url.path_and_query);
    p->connect_to = curl_slist_append(nullptr, StrCat(config_.tls_server_name, ":", url.port, ":", url.host, ":",
                                                      url.port).c_str());
    curl_easy_setopt(e, CURLOPT_CONNECT_TO, p->connect_to);
    p->headers = curl_slist_append(p->headers, StrCat("Host: ", url.authority).c_str());
  }
  curl_easy_setopt(e, CURLOPT_URL, effective.c_str());
  curl_easy_setopt(e, CURLOPT_PRIVATE, p);
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, p->errbuf);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, p);
  curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, OnHeader);
  if (r.may_send) {
    curl_easy_setopt(e, CURLOPT_PREREQFUNCTION, OnPrereq);
    curl_easy_setopt(e, CURLOPT_PREREQDATA, p);
  }
  curl_easy_setopt(e, CURLOPT_HEADERDATA, p);
  curl_easy_setopt(e, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS);
  curl_easy_setopt(e, CURLOPT_PIPEWAIT, 1L);
  ConfigureDelivery(p);
  if (!config_.disable_compression) curl_easy_setopt(e, CURLOPT_ACCEPT_ENCODING, "");
  if (!config_.proxy_url.empty()) curl_easy_setopt(e, CURLOPT_PROXY, config_.proxy_url.c_str());
  if (r.method == "GET") {
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
  } else if (r.method == "HEAD") {
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method.c_str());
  }
  if (!r.body.empty() || r.method == "POST" || r.method == "PUT" || r.method == "PATCH") {
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.data());
  }
  for (const auto& [name, value] : r.headers) {
    p->headers = curl_slist_append(p->headers, StrCat(name, ": ", value).c_str());
  }
  p->headers = curl_slist_append(p->headers, "Expect:");
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, p->headers);
  ConfigureTls(p);
}

// Time limits, and which connection a request may go over.
void CurlTransport::ConfigureDelivery(Pending* p) {
  CURL* e = p->easy;
  const HttpRequest& r = p->request;
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, kConnectTimeoutMs);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_LIMIT, 1L);
  curl_easy_setopt(e, CURLOPT_LOW_SPEED_TIME, kStallSeconds);
  if (r.timeout.count() > 0) curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, static_cast<long>(r.timeout.count()));
  if (!Idempotent(r.method, ContentType(r))) {
    // libcurl sends a request again by itself when a reused connection turns out dead before any answer
    // came; for a create or a conditional replace that may already have been applied, that is a blind
    // resend. A fresh connection is never retried that way; the Client settles such writes by reading back.
    curl_easy_setopt(e, CURLOPT_FRESH_CONNECT, 1L);
    curl_easy_setopt(e, CURLOPT_FORBID_REUSE, 1L);
  }
}

void CurlTransport::ConfigureTls(Pending* p) {
  CURL* e = p->easy;
  curl_easy_setopt(e, CURLOPT_SSLVERSION, static_cast<long>(CURL_SSLVERSION_TLSv1_2));
  if (p->resume) curl_easy_setopt(e, CURLOPT_SHARE, sessions_.get());
  if (!p->resume) curl_easy_setopt(e, CURLOPT_SSL_SESSIONID_CACHE, 0L);
  if (config_.insecure) {
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  } else if (!config_.ca_pem.empty()) {
    // A configured CA replaces the system trust store (client-go); CAPATH would add system roots back.
    SetBlob(e, CURLOPT_CAINFO_BLOB, config_.ca_pem);
    curl_easy_setopt(e, CURLOPT_CAPATH, nullptr);
    curl_easy_setopt(e, CURLOPT_CAINFO, nullptr);
  }
  const bool exec_cert = !p->request.client_cert_pem.empty();
  const std::string& cert = exec_cert ? p->request.client_cert_pem : config_.client_cert_pem;
  const std::string& key = exec_cert ? p->request.client_key_pem : config_.client_key_pem;
  if (!cert.empty() && !key.empty()) {
    curl_easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
    SetBlob(e, CURLOPT_SSLCERT_BLOB, cert);
    curl_easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
    SetBlob(e, CURLOPT_SSLKEY_BLOB, key);
  }
}

void CurlTransport::Loop() {
  for (;;) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stop_) break;
      for (Pending* p : queue_) curl_multi_add_handle(multi_, p->easy);
      queue_.clear();
    }
    Perform();
    curl_multi_poll(multi_, nullptr, 0, 1000, nullptr);
  }
}

// Moves what can be moved now, and hands finished transfers back to their callers.
void CurlTransport::Perform() {
  util::ProfileScope profiled(util::ProfilePhase::kTransport);
  int running = 0;
  curl_multi_perform(multi_, &running);
  int left = 0;
  while (CURLMsg* msg = curl_multi_info_read(multi_, &left)) {
    if (msg->msg != CURLMSG_DONE) continue;
    Pending* p = nullptr;
    curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, reinterpret_cast<char**>(&p));
    const CURLcode code = msg->data.result;
    curl_multi_remove_handle(multi_, msg->easy_handle);
    p->done.set_value(code);
  }
}

// Why a transfer failed, as far as delivery goes (kube/delivery.hpp): "" when it is neither a connection
// problem nor a timeout (a certificate that does not verify, a bad URL).
const char* DeliveryReason(CURLcode code, long os_errno, const std::string& detail) {
  switch (code) {
    case CURLE_COULDNT_CONNECT: return os_errno == ECONNREFUSED ? kReasonConnectionRefused : kReasonConnectFailed;
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_UNSUPPORTED_PROTOCOL:
    case CURLE_URL_MALFORMAT:
    case CURLE_PEER_FAILED_VERIFICATION:  // the handshake ends before any request byte
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE: return kReasonConnectFailed;
    case CURLE_SSL_CONNECT_ERROR:
      // No request byte goes out before the handshake ends. Dropped without a TLS alert (reset, closed):
      // a fault on the way; with an alert (a certificate refused): the server's answer.
      if (os_errno == ECONNRESET || detail.find("SSL_ERROR_SYSCALL") != std::string::npos ||
          detail.find("unexpected eof") != std::string::npos) {
        return kReasonHandshakeReset;
      }
      return kReasonConnectFailed;
    case CURLE_OPERATION_TIMEDOUT:
      // libcurl's wording tells the connect phase (nothing sent) and its low-speed cut from the time limit.
      if (util::StartsWith(detail, "Connection timed out") || util::StartsWith(detail, "Resolving timed out") ||
          util::StartsWith(detail, "SSL connection timeout")) {
        return kReasonConnectFailed;
      }
      return util::StartsWith(detail, "Operation too slow") ? kReasonStalled : kReasonTimeout;
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_PARTIAL_FILE: return kReasonConnectionReset;
    case CURLE_ABORTED_BY_CALLBACK: return kReasonWithheld;  // OnPrereq: no request byte went out
    // Anything else (a reply curl could not make sense of, an encoding error, ...) may come after the
    // request went out: for a write, only reading back tells.
    default: return kReasonAnswerUnreadable;
  }
}

util::Error CurlTransport::MapError(CURLcode code, const Pending& p) const {
  const UrlParts url = ParseUrl(p.request.url);
  // libcurl's own text may quote the URL, userinfo and all.
  const std::string detail =
      util::RedactUrlPasswords(p.errbuf[0] ? std::string(p.errbuf) : std::string(curl_easy_strerror(code)));
  long os_errno = 0;
  curl_easy_getinfo(p.easy, CURLINFO_OS_ERRNO, &os_errno);
  util::Error e = UnableToConnect(detail);
  if (p.too_large) {
    // Not a connection failure: the answer itself is refused, and resending would get it again.
    return ResponseTooLarge(p.request.method, url.path_and_query.substr(0, url.path_and_query.find('?')));
  }
  e.reason = DeliveryReason(code, os_errno, detail);
  switch (code) {
    case CURLE_COULDNT_CONNECT:
      if (os_errno == ECONNREFUSED) {
        e.message = StrCat("The connection to the server ", url.authority,
                           " was refused - did you specify the right host or port?");
      } else {
        e.message = StrCat("Unable to connect to the server: dial tcp ", url.authority, ": ",
                           os_errno ? std::strerror(static_cast<int>(os_errno)) : detail.c_str());
      }
      break;
    case CURLE_OPERATION_TIMEDOUT:
      if (e.reason == std::string_view(kReasonTimeout)) {
        e.message = "Unable to connect to the server: net/http: request canceled (Client.Timeout exceeded while "
                    "awaiting headers)";
        e.hint = StrCat("the request took longer than ", p.request.timeout.count(), "ms; raise --request-timeout");
      }
      break;
    case CURLE_COULDNT_RESOLVE_HOST:
      e.message = StrCat("Unable to connect to the server: dial tcp: lookup ", url.host, ": no such host");
      break;
    case CURLE_PEER_FAILED_VERIFICATION:
      e.message = StrCat("Unable to connect to the server: tls: failed to verify certificate: ", detail);
      break;
    default:
      break;
  }
  log_.Log(6, StrCat("curl error ", static_cast<int>(code), ": ", detail));
  return e;
}

}  // namespace

std::unique_ptr<Transport> NewCurlTransport(const RestConfig& config, util::Logger& log) {
  return std::make_unique<CurlTransport>(config, log);
}

}  // namespace tazuna::kube
