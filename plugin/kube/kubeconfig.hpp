#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/exec_config.hpp"
#include "util/result.hpp"

namespace tazuna::kube {

/// One `clusters[].cluster` stanza. Relative paths are already absolute against `origin`'s directory.
struct KubeCluster {
  std::string server, certificate_authority, certificate_authority_data /* decoded PEM */, tls_server_name,
      proxy_url;
  bool insecure_skip_tls_verify = false;
  bool disable_compression = false;
  nlohmann::json exec_extension;  ///< extensions[client.authentication.k8s.io/exec].extension, or null
  std::string origin;             ///< the file that defined the stanza
  bool operator==(const KubeCluster&) const = default;
};

/// One `users[].user` stanza.
struct KubeUser {
  std::string token, token_file, username, password, client_certificate, client_key,
      client_certificate_data /* decoded PEM */, client_key_data /* decoded PEM */, as, as_uid;
  std::vector<std::string> as_groups;
  std::optional<ExecConfig> exec;
  std::string auth_provider;                 ///< auth-provider.name, empty when absent
  std::map<std::string, std::string> auth_provider_config;
  std::string origin;
  bool operator==(const KubeUser&) const = default;
};

/// One `contexts[].context` stanza.
struct KubeContext {
  std::string cluster, user, namespace_name, origin;
  bool operator==(const KubeContext&) const = default;
};

/// A parsed (or merged) kubeconfig.
struct Kubeconfig {
  std::string current_context;
  std::map<std::string, KubeCluster> clusters;
  std::map<std::string, KubeUser> users;
  std::map<std::string, KubeContext> contexts;
  bool operator==(const Kubeconfig&) const = default;
};

/// Parses one kubeconfig file's text; `path` is its absolute location (origin for relative paths) and
/// `display` the name used in errors (defaults to `path`). An empty document is an empty Config.
/// kInput `error loading config file "<display>": ...` on bad YAML, bad base64 or a duplicate name in
/// one list (client-go's wording).
util::Result<Kubeconfig> ParseKubeconfig(const std::string& text, const std::string& path,
                                         const std::string& display = "");

/// Merges like client-go's loader: the first file that sets current-context wins, and a named cluster,
/// user or context is taken whole from the first file defining it.
Kubeconfig MergeKubeconfigs(const std::vector<Kubeconfig>& files);

}  // namespace tazuna::kube
