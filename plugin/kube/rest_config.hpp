#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "kube/config_flags.hpp"
#include "kube/exec_config.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// A fully resolved connection: kubeconfig merged, flag overrides applied, relative paths resolved,
/// file contents (CA, client cert/key, tokenFile) read, namespace defaulted.
struct RestConfig {
  std::string context_name;    ///< effective context (flag or current-context); empty in-cluster
  std::string namespace_name;  ///< flag, context, POD_NAMESPACE in-cluster, "default"
  std::string server;          ///< base URL incl. any path prefix, as configured
  std::string cluster_name, user_name;
  std::string ca_file;         ///< CA path (absolute if it came from a kubeconfig), or empty
  std::string ca_pem;          ///< CA PEM from certificate-authority-data or the file; empty = system store
  bool insecure = false;
  std::string tls_server_name;
  std::string client_cert_file, client_key_file;
  std::string client_cert_pem, client_key_pem;  ///< from *-data or the files
  std::string token;                            ///< bearer token (tokenFile contents win, trimmed)
  std::string token_file;
  std::string username, password;               ///< basic auth
  std::optional<ExecConfig> exec;               ///< only when no static credential is set
  std::string as, as_uid;                       ///< impersonation
  std::vector<std::string> as_groups;
  std::string proxy_url;
  bool disable_compression = false;
  std::chrono::milliseconds timeout{0};         ///< --request-timeout; 0 = none
  std::string cache_dir;                        ///< --cache-dir, $KUBECACHEDIR or ~/.kube/cache
  bool operator==(const RestConfig&) const = default;
};

/// Loads like client-go + cli-runtime: --kubeconfig alone; else the KUBECONFIG list (first file wins
/// per value and per whole stanza, missing files skipped); else ~/.kube/config; else in-cluster.
/// Applies flag overrides with their side effects. Errors in kubectl's words: kInput for messages
/// kubectl prints as `error: ...`, kConfig (message starting `Error in configuration: `, several
/// problems as `* ...` detail lines) for configuration validation failures.
util::Result<RestConfig> LoadRestConfig(const ConfigFlags& flags, const util::Environment& env,
                                        util::FileReader& files);

/// Context names of the merged kubeconfig, sorted (for shell completion); empty on error.
std::vector<std::string> ListContextNames(const ConfigFlags& flags, const util::Environment& env,
                                          util::FileReader& files);

/// Parses --request-timeout: a bare integer is seconds, else a Go duration ("1s", "2m", "1h30m",
/// "500ms"); "" and "0" mean no timeout. kInput with kubectl's `Invalid timeout value...` message.
util::Result<std::chrono::milliseconds> ParseTimeout(const std::string& text);

}  // namespace tazuna::kube
