#pragma once

#include <optional>
#include <string>
#include <vector>

namespace tazuna::kube {

/// Raw kubectl connection flags as parsed by the CLI; an empty string or nullopt means "not given".
struct ConfigFlags {
  std::string kubeconfig, context, cluster, user, namespace_name, server, token, as, as_uid,
      certificate_authority, client_certificate, client_key, tls_server_name, request_timeout, cache_dir;
  std::vector<std::string> as_groups;
  std::optional<bool> insecure_skip_tls_verify;
  bool operator==(const ConfigFlags&) const = default;
};

}  // namespace tazuna::kube
