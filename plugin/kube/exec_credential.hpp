#pragma once

#include <chrono>
#include <mutex>
#include <optional>
#include <string>

#include "kube/exec_config.hpp"
#include "kube/rest_config.hpp"
#include "util/clock.hpp"
#include "util/environment.hpp"
#include "util/process.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// Credentials returned by an exec plugin (PEM text for cert and key, not base64).
struct ExecCredential {
  std::string token, client_cert_pem, client_key_pem;
  std::optional<std::chrono::system_clock::time_point> expiry;  ///< nullopt: valid for the process
  bool operator==(const ExecCredential&) const = default;
};

/// The KUBERNETES_EXEC_INFO value: an ExecCredential in the configured apiVersion with
/// spec.interactive, plus spec.cluster (server, CA data inlined, config extension, ...) when
/// provideClusterInfo is set.
std::string BuildExecInfo(const ExecConfig& exec, const RestConfig& cluster);

/// Parses the plugin's stdout. Errors (kInput) in client-go's words without the "getting credentials: "
/// prefix: `decoding stdout: ...`, `exec plugin is configured to use API version X, plugin returned
/// version Y`, `exec plugin didn't return a status field`, `exec plugin didn't return a token or cert/key
/// pair`, `exec plugin returned only certificate or key, not both`, `decoding stdout: json: cannot unmarshal
/// number into Go struct field ExecCredentialStatus.status.token of type string` (a field of another type).
util::Result<ExecCredential> ParseExecCredential(const std::string& stdout_text, const std::string& api_version);

/// Runs an exec credential plugin without a shell and caches its credential until
/// expirationTimestamp (client-go: reused until now > expiry). Thread-safe.
class ExecProvider {
 public:
  /// `cluster` supplies KUBERNETES_EXEC_INFO's cluster part; references must outlive the provider.
  ExecProvider(ExecConfig exec, const RestConfig& cluster, util::ProcessRunner& processes, util::Clock& clock,
               const util::Environment& env);
  /// The cached credential, or a fresh one. kTransport errors in kubectl's words
  /// (`Unable to connect to the server: getting credentials: exec: executable X not found` ...).
  util::Result<ExecCredential> Get();
  /// Forgets the cached credential if it is still the one whose token was `used` (after a 401).
  void Invalidate(const ExecCredential& used);
  /// Number of plugin runs so far.
  int runs() const;

 private:
  util::Result<ExecCredential> Run();

  ExecConfig exec_;
  const RestConfig& cluster_;
  util::ProcessRunner& processes_;
  util::Clock& clock_;
  const util::Environment& env_;
  mutable std::mutex mu_;
  std::optional<ExecCredential> cached_;
  int runs_ = 0;
};

}  // namespace tazuna::kube
