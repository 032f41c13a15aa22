#include "kube/auth.hpp"

#include "util/base64.hpp"
#include "util/file_reader.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {

Authenticator::Authenticator(const RestConfig& config, util::ProcessRunner& processes, util::Clock& clock,
                             const util::Environment& env)
    : config_(config), token_(config.token) {
  if (config.exec) exec_ = std::make_shared<ExecProvider>(*config.exec, config, processes, clock, env);
}

util::Result<RequestCredentials> Authenticator::Get() {
  RequestCredentials out;
  // client-go attaches credentials only when the transport is TLS (IsConfigTransportTLS).
  if (!util::StartsWith(config_.server, "https://")) return out;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!token_.empty()) {
      out.authorization = "Bearer " + token_;
      return out;
    }
  }
  if (!config_.username.empty() || !config_.password.empty()) {
    out.authorization = "Basic " + util::Base64Encode(config_.username + ":" + config_.password);
    return out;
  }
  if (!exec_) return out;
  auto cred = exec_->Get();
  if (!cred) return cred.error();
  if (!cred->token.empty()) out.authorization = "Bearer " + cred->token;
  out.client_cert_pem = cred->client_cert_pem;
  out.client_key_pem = cred->client_key_pem;
  out.exec_used = *cred;
  return out;
}

void Authenticator::ShareExecProviders(ExecProviderPool& pool) {
  if (config_.exec) exec_ = pool.For(config_);
}

bool Authenticator::Refresh(const RequestCredentials& used) {
  if (used.exec_used && exec_) {
    exec_->Invalidate(*used.exec_used);
    return true;
  }
  if (config_.token_file.empty()) return false;
  // A projected token rotates; re-read the file (client-go re-reads it periodically).
  util::DiskFileReader disk;
  auto text = disk.ReadFile(config_.token_file);
  if (!text) return false;
  std::lock_guard<std::mutex> lock(mu_);
  const std::string fresh(util::Trim(*text));
  const bool changed = !fresh.empty() && fresh != token_;
  if (changed) token_ = fresh;
  return changed;
}

}  // namespace tazuna::kube
