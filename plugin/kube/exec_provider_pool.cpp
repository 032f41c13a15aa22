#include "kube/exec_provider_pool.hpp"

namespace tazuna::kube {

namespace {

// Who the plugin authenticates: the user's name and its whole exec stanza (two kubeconfig files may
// hold a user of one name), and for a plugin told about the cluster, the cluster too.
std::string KeyOf(const RestConfig& config) {
  const ExecConfig& e = *config.exec;
  nlohmann::json key = {config.user_name, e.api_version, e.command, e.args, e.env, e.interactive_mode};
  if (e.provide_cluster_info) key.push_back({config.server, config.ca_pem, config.insecure, e.cluster_config});
  return key.dump();
}

}  // namespace

std::shared_ptr<ExecProvider> ExecProviderPool::For(const RestConfig& config) {
  const std::string key = KeyOf(config);
  std::lock_guard<std::mutex> lock(mu_);
  auto& entry = entries_[key];
  if (!entry) {
    entry = std::make_shared<Entry>();
    entry->cluster = config;
    entry->provider = std::make_unique<ExecProvider>(*config.exec, entry->cluster, processes_, clock_, env_);
  }
  // Aliasing: the provider keeps its entry (and the cluster it refers to) alive.
  return std::shared_ptr<ExecProvider>(entry, entry->provider.get());
}

}  // namespace tazuna::kube
