// kubeconfig_probe: resolves kubectl-style connection flags with kube::LoadRestConfig and prints the
// result as JSON, so tests/e2e/kubeconfig_parity.sh can compare it with `kubectl config view`.
// Usage: kubeconfig_probe [--kubeconfig F] [--context C] [--cluster C] [--user U] [-n NS] [-s URL]
//        [--token T] [--certificate-authority F] [--client-certificate F] [--client-key F]
//        [--insecure-skip-tls-verify[=B]] [--tls-server-name N] [--as U] [--as-group G] [--request-timeout D]
#include <iostream>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "kube/rest_config.hpp"
#include "util/environment.hpp"
#include "util/file_reader.hpp"

namespace {

using tazuna::kube::ConfigFlags;

std::string* StringFlag(ConfigFlags& f, const std::string& name) {
  const std::map<std::string, std::string ConfigFlags::*> table = {
      {"kubeconfig", &ConfigFlags::kubeconfig}, {"context", &ConfigFlags::context},
      {"cluster", &ConfigFlags::cluster}, {"user", &ConfigFlags::user},
      {"namespace", &ConfigFlags::namespace_name}, {"n", &ConfigFlags::namespace_name},
      {"server", &ConfigFlags::server}, {"s", &ConfigFlags::server}, {"token", &ConfigFlags::token},
      {"as", &ConfigFlags::as}, {"as-uid", &ConfigFlags::as_uid},
      {"certificate-authority", &ConfigFlags::certificate_authority},
      {"client-certificate", &ConfigFlags::client_certificate}, {"client-key", &ConfigFlags::client_key},
      {"tls-server-name", &ConfigFlags::tls_server_name}, {"request-timeout", &ConfigFlags::request_timeout},
      {"cache-dir", &ConfigFlags::cache_dir}};
  auto it = table.find(name);
  return it == table.end() ? nullptr : &(f.*(it->second));
}

// Returns false on an unknown flag or a missing value.
bool ParseArgs(int argc, char** argv, ConfigFlags& f) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("-", 0) != 0) return false;
    arg = arg.substr(arg.rfind("--", 0) == 0 ? 2 : 1);
    std::string value;
    const size_t eq = arg.find('=');
    const bool has_value = eq != std::string::npos;
    if (has_value) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    if (arg == "insecure-skip-tls-verify") {
      f.insecure_skip_tls_verify = !has_value || value == "true";
      continue;
    }
    if (!has_value) {
      if (i + 1 >= argc) return false;
      value = argv[++i];
    }
    if (arg == "as-group") {
      f.as_groups.push_back(value);
    } else if (std::string* field = StringFlag(f, arg)) {
      *field = value;
    } else {
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  ConfigFlags flags;
  if (!ParseArgs(argc, argv, flags)) {
    std::cerr << "usage: kubeconfig_probe [kubectl connection flags]\n";
    return 2;
  }
  const tazuna::util::Environment env = tazuna::util::Environment::FromProcess();
  tazuna::util::DiskFileReader files;
  auto rc = tazuna::kube::LoadRestConfig(flags, env, files);
  if (!rc) {
    nlohmann::json err = {{"error", rc.error().message}, {"details", rc.error().detail_lines}};
    std::cout << err.dump(2) << "\n";
    return 1;
  }
  const nlohmann::json out = {
      {"context", rc->context_name}, {"cluster", rc->cluster_name}, {"user", rc->user_name},
      {"server", rc->server}, {"namespace", rc->namespace_name}, {"caFile", rc->ca_file},
      {"caData", !rc->ca_pem.empty() && rc->ca_file.empty()}, {"insecure", rc->insecure},
      {"tlsServerName", rc->tls_server_name}, {"hasToken", !rc->token.empty()},
      {"hasClientCert", !rc->client_cert_pem.empty()}, {"exec", rc->exec ? rc->exec->command : ""}};
  std::cout << out.dump(2) << "\n";
  return 0;
}
