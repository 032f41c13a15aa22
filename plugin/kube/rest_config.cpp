#include "kube/rest_config.hpp"

#include <algorithm>

#include "kube/config_validation.hpp"
#include "kube/kubeconfig_loader.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

using util::ErrorKind;
using util::MakeError;
using util::StrCat;

constexpr char kConfigPrefix[] = "Error in configuration: ";
constexpr char kSaDir[] = "/var/run/secrets/kubernetes.io/serviceaccount/";

// The effective stanzas after flag overrides (client-go's getContext/getCluster/getAuthInfo).
struct Selection {
  std::string context_name, cluster_name, user_name;
  KubeContext context;
  KubeCluster cluster;
  KubeUser user;
};

void OverrideCluster(const ConfigFlags& f, KubeCluster* c) {
  if (!f.server.empty()) {
    c->server = f.server;
    // cli-runtime: an explicit --server drops the kubeconfig's tls-server-name.
    c->tls_server_name.clear();
  }
  if (!f.tls_server_name.empty()) c->tls_server_name = f.tls_server_name;
  // A CA or insecure override replaces all three TLS trust settings (client-go getCluster).
  const bool insecure = f.insecure_skip_tls_verify.value_or(false);
  if (!f.certificate_authority.empty() || insecure) {
    c->insecure_skip_tls_verify = insecure;
    c->certificate_authority = f.certificate_authority;
    c->certificate_authority_data.clear();
  }
}

void OverrideUser(const ConfigFlags& f, KubeUser* u) {
  if (!f.token.empty()) {
    u->token = f.token;
    u->token_file.clear();
  }
  if (!f.client_certificate.empty()) {
    u->client_certificate = f.client_certificate;
    u->client_certificate_data.clear();
  }
  if (!f.client_key.empty()) {
    u->client_key = f.client_key;
    u->client_key_data.clear();
  }
  if (!f.as.empty()) u->as = f.as;
  if (!f.as_uid.empty()) u->as_uid = f.as_uid;
  if (!f.as_groups.empty()) u->as_groups = f.as_groups;
}

Selection Select(const ConfigFlags& f, const Kubeconfig& cfg) {
  Selection s;
  s.context_name = f.context.empty() ? cfg.current_context : f.context;
  if (auto it = cfg.contexts.find(s.context_name); it != cfg.contexts.end()) s.context = it->second;
  s.cluster_name = f.cluster.empty() ? s.context.cluster : f.cluster;
  s.user_name = f.user.empty() ? s.context.user : f.user;
  if (auto it = cfg.clusters.find(s.cluster_name); it != cfg.clusters.end()) s.cluster = it->second;
  if (auto it = cfg.users.find(s.user_name); it != cfg.users.end()) s.user = it->second;
  OverrideCluster(f, &s.cluster);
  OverrideUser(f, &s.user);
  return s;
}

// kubectl prints one validation problem as `error: <msg>`, a missing context as `Error in
// configuration: <msg>`, and several as `Error in configuration: ` followed by `* <msg>` lines.
util::Status Validate(const ConfigFlags& f, const Kubeconfig& cfg, const Selection& s, util::FileReader& files) {
  std::vector<std::string> errs;
  bool context_missing = false;
  if (!s.context_name.empty() && !cfg.contexts.count(s.context_name)) {
    errs.push_back(StrCat("context was not found for specified context: ", s.context_name));
    context_missing = true;
  }
  for (auto& e : ValidateUser(s.user_name, s.user, files)) errs.push_back(std::move(e));
  for (auto& e : ValidateCluster(s.cluster_name, s.cluster, files)) {
    // kubectl falls back to a default server, so a missing context is reported without this one.
    if (context_missing && e.find("no server") != std::string::npos) continue;
    errs.push_back(std::move(e));
  }
  if (errs.size() == 1) {
    if (context_missing) return MakeError(ErrorKind::kConfig, kConfigPrefix + errs[0]);
    return MakeError(ErrorKind::kInput, errs[0]);
  }
  if (errs.size() > 1) {
    util::Error e = MakeError(ErrorKind::kConfig, kConfigPrefix);
    for (const auto& msg : errs) e.detail_lines.push_back("* " + msg);
    return e;
  }
  if (!f.user.empty() && !cfg.users.count(f.user)) {
    return MakeError(ErrorKind::kInput, StrCat("auth info ", util::Quote(f.user), " does not exist"));
  }
  return util::Ok();
}

util::Status CheckAuthProvider(const KubeUser& u) {
  if (u.auth_provider.empty() || u.exec) return util::Ok();
  util::Error e = MakeError(ErrorKind::kInput, "");
  if (u.auth_provider == "gcp") {
    e.message = "The gcp auth plugin has been removed.";
    e.detail_lines = {"Please use the \"gke-gcloud-auth-plugin\" kubectl/client-go credential plugin instead.",
                      "See https://cloud.google.com/blog/products/containers-kubernetes/kubectl-auth-changes-in-gke "
                      "for further details"};
  } else if (u.auth_provider == "azure") {
    e.message = "The azure auth plugin has been removed.";
    e.detail_lines = {"Please use the https://github.com/Azure/kubelogin kubectl/client-go credential plugin "
                      "instead.",
                      "See https://kubernetes.io/docs/reference/access-authn-authz/authentication/"
                      "#client-go-credential-plugins for further details"};
  } else if (u.auth_provider == "oidc") {
    if (u.auth_provider_config.count("id-token")) return util::Ok();
    e.message = "the oidc auth provider has no id-token; use the kubelogin (kubectl oidc-login) exec plugin";
  } else {
    e.message = StrCat("no Auth Provider found for name ", util::Quote(u.auth_provider));
  }
  return e;
}

util::Result<std::string> ReadPem(const std::string& data, const std::string& file, util::FileReader& files) {
  if (!data.empty() || file.empty()) return data;
  auto text = files.ReadFile(file);
  if (!text) return MakeError(ErrorKind::kInput, text.error().message);
  return *text;
}

util::Status FillCredentials(const KubeUser& u, util::FileReader& files, RestConfig* rc) {
  auto cert = ReadPem(u.client_certificate_data, u.client_certificate, files);
  if (!cert) return cert.error();
  auto key = ReadPem(u.client_key_data, u.client_key, files);
  if (!key) return key.error();
  rc->client_cert_file = u.client_certificate;
  rc->client_key_file = u.client_key;
  rc->client_cert_pem = *cert;
  rc->client_key_pem = *key;
  rc->token = u.token;
  if (u.token.empty() && u.auth_provider == "oidc") rc->token = u.auth_provider_config.at("id-token");
  rc->token_file = u.token_file;
  if (!u.token_file.empty()) {
    // The tokenFile wins over token; a read failure only matters when there is no token to fall back to.
    auto text = files.ReadFile(u.token_file);
    if (text) rc->token = std::string(util::Trim(*text));
    if (!text && rc->token.empty()) {
      return MakeError(ErrorKind::kInput, StrCat("failed to read token file ", util::Quote(u.token_file), ": ",
                                                 text.error().message));
    }
  }
  rc->username = u.username;
  rc->password = u.password;
  rc->as = u.as;
  rc->as_uid = u.as_uid;
  rc->as_groups = u.as_groups;
  // A static credential turns the exec plugin off (client-go exec.UpdateTransportConfig).
  const bool has_static = !rc->token.empty() || !rc->username.empty() || !rc->client_cert_pem.empty();
  if (!has_static) rc->exec = u.exec;
  return util::Ok();
}

util::Status FillCluster(const KubeCluster& c, util::FileReader& files, RestConfig* rc) {
  rc->server = c.server;
  rc->insecure = c.insecure_skip_tls_verify;
  rc->ca_file = c.certificate_authority;
  auto ca = ReadPem(c.certificate_authority_data, c.certificate_authority, files);
  if (!ca) return ca.error();
  rc->ca_pem = *ca;
  if (rc->insecure && (!rc->ca_file.empty() || !rc->ca_pem.empty())) {
    return MakeError(ErrorKind::kInput, "specifying a root certificates file with the insecure flag is not allowed");
  }
  rc->tls_server_name = c.tls_server_name;
  rc->proxy_url = c.proxy_url;
  rc->disable_compression = c.disable_compression;
  if (rc->exec) rc->exec->cluster_config = c.exec_extension;
  return util::Ok();
}

std::string CacheDir(const ConfigFlags& f, const util::Environment& env) {
  if (!f.cache_dir.empty()) return f.cache_dir;
  if (auto dir = env.GetOr("KUBECACHEDIR", ""); !dir.empty()) return dir;
  const std::string home = env.GetOr("HOME", "");
  return home.empty() ? std::string() : home + "/.kube/cache";
}

bool IsEmpty(const Kubeconfig& c) {
  return c.current_context.empty() && c.clusters.empty() && c.users.empty() && c.contexts.empty();
}

// rest.InClusterConfig, used only when no kubeconfig (and no --server) gives a configuration.
util::Result<RestConfig> InCluster(const ConfigFlags& f, const util::Environment& env, util::FileReader& files) {
  const std::string host = env.GetOr("KUBERNETES_SERVICE_HOST", "");
  const std::string port = env.GetOr("KUBERNETES_SERVICE_PORT", "");
  const std::string token_file = StrCat(kSaDir, "token");
  if (host.empty() || port.empty() || !files.Exists(token_file)) {
    util::Error e = MakeError(ErrorKind::kConfig, StrCat(kConfigPrefix, "no configuration has been provided"));
    e.hint = "pass --kubeconfig, set KUBECONFIG, or create ~/.kube/config";
    return e;
  }
  KubeUser user;
  user.token_file = token_file;
  KubeCluster cluster;
  const bool v6 = host.find(':') != std::string::npos;
  cluster.server = StrCat("https://", v6 ? "[" : "", host, v6 ? "]" : "", ":", port);
  cluster.certificate_authority = StrCat(kSaDir, "ca.crt");
  OverrideCluster(f, &cluster);
  OverrideUser(f, &user);
  RestConfig rc;
  if (auto s = FillCredentials(user, files, &rc); !s) return s.error();
  if (auto s = FillCluster(cluster, files, &rc); !s) return s.error();
  rc.namespace_name = f.namespace_name.empty() ? env.GetOr("POD_NAMESPACE", "") : f.namespace_name;
  if (rc.namespace_name.empty()) {
    auto ns = files.ReadFile(StrCat(kSaDir, "namespace"));
    rc.namespace_name = ns ? std::string(util::Trim(*ns)) : std::string();
  }
  if (rc.namespace_name.empty()) rc.namespace_name = "default";
  return rc;
}

}  // namespace

util::Result<RestConfig> LoadRestConfig(const ConfigFlags& flags, const util::Environment& env,
                                        util::FileReader& files) {
  auto timeout = ParseTimeout(flags.request_timeout);
  if (!timeout) return timeout.error();
  auto loaded = LoadKubeconfig(flags, env, files);
  if (!loaded) return loaded.error();
  util::Result<RestConfig> rc = RestConfig{};
  if (IsEmpty(loaded->config) && flags.server.empty()) {
    rc = InCluster(flags, env, files);
  } else {
    const Selection s = Select(flags, loaded->config);
    if (auto st = Validate(flags, loaded->config, s, files); !st) return st.error();
    if (auto st = CheckAuthProvider(s.user); !st) return st.error();
    if (auto st = FillCredentials(s.user, files, &*rc); !st) return st.error();
    if (auto st = FillCluster(s.cluster, files, &*rc); !st) return st.error();
    rc->context_name = s.context_name;
    rc->cluster_name = s.cluster_name;
    rc->user_name = s.user_name;
    rc->namespace_name = !flags.namespace_name.empty() ? flags.namespace_name : s.context.namespace_name;
    if (rc->namespace_name.empty()) rc->namespace_name = "default";
  }
  if (!rc) return rc.error();
  rc->timeout = *timeout;
  rc->cache_dir = CacheDir(flags, env);
  return rc;
}

std::vector<std::string> ListContextNames(const ConfigFlags& flags, const util::Environment& env,
                                          util::FileReader& files) {
  std::vector<std::string> names;
  auto loaded = LoadKubeconfig(flags, env, files);
  if (!loaded) return names;
  for (const auto& [name, ctx] : loaded->config.contexts) names.push_back(name);
  return names;
}

}  // namespace tazuna::kube
