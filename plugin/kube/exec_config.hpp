#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace tazuna::kube {

/// A kubeconfig `users[].user.exec` stanza (client.authentication.k8s.io credential plugin).
struct ExecConfig {
  std::string api_version;  ///< client.authentication.k8s.io/v1 or /v1beta1
  std::string command;      ///< resolved against the kubeconfig's directory when it contains '/'
  std::vector<std::string> args;
  std::vector<std::pair<std::string, std::string>> env;  ///< added to the parent environment
  std::string install_hint;                              ///< shown when the command is missing
  bool provide_cluster_info = false;
  std::string interactive_mode;  ///< Never | IfAvailable | Always; v1beta1 defaults to IfAvailable
  nlohmann::json cluster_config; ///< cluster extension client.authentication.k8s.io/exec (null if none)
  bool operator==(const ExecConfig&) const = default;
};

}  // namespace tazuna::kube
