#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kube/rest_config.hpp"
#include "util/logger.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// The largest response body a transport reads (after decompression); a larger one is the error
/// ResponseTooLarge, never an allocation as large as whatever a server sends.
inline constexpr size_t kMaxResponseBytes = size_t{64} << 20;

/// kApi `the response to METHOD PATH is larger than 64 MiB, the most this client reads`.
util::Error ResponseTooLarge(std::string_view method, std::string_view path);

/// One HTTP request; `url` is absolute.
struct HttpRequest {
  std::string method, url;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;
  std::chrono::milliseconds timeout{0};  ///< whole-request limit; 0 = none
  std::string client_cert_pem, client_key_pem;  ///< when set, replace the transport's client cert (exec)
  /// When set, asked (on the transport's thread, must not block) right before the request goes on the wire,
  /// after any wait for a connection or a stream: false fails it unsent, reason kReasonWithheld.
  std::function<bool()> may_send = {};
};

/// One HTTP response (any status; only failures to get a response are errors).
struct HttpResponse {
  int status = 0;
  std::vector<std::pair<std::string, std::string>> headers;  ///< in arrival order, names as sent
  std::string body;                                          ///< decompressed
  /// The first header with this name (case-insensitive), or nullopt.
  std::optional<std::string> Header(std::string_view name) const;
  /// Every header with this name (case-insensitive), in order.
  std::vector<std::string> Headers(std::string_view name) const;
};

/// Sends HTTP requests. Implementations are thread-safe: many callers may be in Do() at once.
struct Transport {
  virtual ~Transport() = default;
  /// kTransport (message in kubectl's words) when no response could be obtained.
  virtual util::Result<HttpResponse> Do(const HttpRequest& request) = 0;
};

/// libcurl transport: one multi handle driven by a background thread, so concurrent Do() calls share
/// connections and multiplex over HTTP/2. TLS settings come from `config` (CA PEM replaces the system
/// store, client cert/key, insecure, tls-server-name, TLS 1.2 minimum), plus proxy-url and gzip.
/// curl_global_init must have run (main does it).
std::unique_ptr<Transport> NewCurlTransport(const RestConfig& config, util::Logger& log);

}  // namespace tazuna::kube
