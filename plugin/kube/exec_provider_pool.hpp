#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "kube/exec_credential.hpp"
#include "kube/rest_config.hpp"
#include "util/clock.hpp"
#include "util/environment.hpp"
#include "util/process.hpp"

namespace tazuna::kube {

/// Exec credential providers shared by the clients of one run over several contexts: contexts naming the
/// same kubeconfig user with the same exec stanza run its plugin once, not once per context (a plugin
/// given the cluster's details, provideClusterInfo, is shared only within one server). Thread-safe.
class ExecProviderPool {
 public:
  /// References must outlive the pool and every provider it hands out.
  ExecProviderPool(util::ProcessRunner& processes, util::Clock& clock, const util::Environment& env)
      : processes_(processes), clock_(clock), env_(env) {}
  /// The provider for `config`'s user (config.exec must be set); the first config of a user supplies
  /// the cluster part of KUBERNETES_EXEC_INFO. Shared ownership: a provider outlives the clients using it.
  std::shared_ptr<ExecProvider> For(const RestConfig& config);

 private:
  struct Entry {
    RestConfig cluster;  // the provider refers to it
    std::unique_ptr<ExecProvider> provider;
  };

  util::ProcessRunner& processes_;
  util::Clock& clock_;
  const util::Environment& env_;
  std::mutex mu_;
  std::map<std::string, std::shared_ptr<Entry>> entries_;
};

}  // namespace tazuna::kube
