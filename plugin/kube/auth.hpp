#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "kube/exec_credential.hpp"
#include "kube/exec_provider_pool.hpp"
#include "kube/rest_config.hpp"
#include "util/clock.hpp"
#include "util/environment.hpp"
#include "util/process.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// What one request carries to prove who we are.
struct RequestCredentials {
  std::string authorization;                   ///< Authorization header value, empty for none
  std::string client_cert_pem, client_key_pem; ///< exec-provided client cert (empty: transport's own)
  std::optional<ExecCredential> exec_used;     ///< the exec credential these came from
};

/// Static token / tokenFile / basic auth / exec plugin, in client-go's order. Credentials are only
/// sent over https. Thread-safe.
class Authenticator {
 public:
  /// References must outlive the authenticator.
  Authenticator(const RestConfig& config, util::ProcessRunner& processes, util::Clock& clock,
                const util::Environment& env);
  /// Credentials for the next request (runs the exec plugin when its cache is empty or expired).
  util::Result<RequestCredentials> Get();
  /// After a 401 with `used`: re-runs exec on next Get(), or re-reads tokenFile. True when retrying
  /// with new credentials may help.
  bool Refresh(const RequestCredentials& used);
  /// Takes its exec provider from `pool` (shared with other contexts of the same user) instead of its
  /// own; a no-op without an exec stanza. Call before the first Get.
  void ShareExecProviders(ExecProviderPool& pool);

 private:
  const RestConfig& config_;
  std::shared_ptr<ExecProvider> exec_;
  std::mutex mu_;
  std::string token_;
};

}  // namespace tazuna::kube
