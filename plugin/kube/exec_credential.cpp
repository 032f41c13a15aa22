#include "kube/exec_credential.hpp"

#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "kube/api_error.hpp"
#include "util/base64.hpp"
#include "util/strings.hpp"

namespace tazuna::kube {
namespace {

using util::ErrorKind;
using util::MakeError;
using util::StrCat;

constexpr char kDocsUrl[] =
    "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins";

util::Error Credentials(std::string_view detail) {
  return UnableToConnect(StrCat("getting credentials: ", detail));
}

util::Error NotInstalled(const ExecConfig& exec) {
  util::Error e = Credentials(StrCat("exec: executable ", exec.command, " not found"));
  e.detail_lines = {"",
                    "It looks like you are trying to use a client-go credential plugin that is not installed.",
                    "",
                    "To learn more about this feature, consult the documentation available at:",
                    kDocsUrl};
  if (!exec.install_hint.empty()) {
    e.detail_lines.push_back("");
    e.detail_lines.push_back("install it with: " + exec.install_hint);
  }
  return e;
}

// encoding/json's name for the type of a value it cannot put into a string field.
const char* GoJsonType(const nlohmann::json& value) {
  if (value.is_number()) return "number";
  if (value.is_boolean()) return "bool";
  if (value.is_array()) return "array";
  return "object";
}

// A string field as encoding/json decodes it: absent or null is empty, any other non-string an error.
util::Result<std::string> StringField(const nlohmann::json& object, const char* key, std::string_view go_field) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::string();
  if (it->is_string()) return it->get<std::string>();
  return MakeError(ErrorKind::kInput, StrCat("decoding stdout: json: cannot unmarshal ", GoJsonType(*it),
                                             " into Go struct field ", go_field, " of type string"));
}

// ExecCredential.status: a token or a certificate and key, and an optional expiry.
util::Result<ExecCredential> DecodeStatus(const nlohmann::json& status) {
  ExecCredential cred;
  std::string expiry;
  for (auto [key, out] : {std::pair{"token", &cred.token}, std::pair{"clientCertificateData", &cred.client_cert_pem},
                          std::pair{"clientKeyData", &cred.client_key_pem},
                          std::pair{"expirationTimestamp", &expiry}}) {
    auto value = StringField(status, key, StrCat("ExecCredentialStatus.status.", key));
    if (!value) return value.error();
    *out = std::move(*value);
  }
  if (cred.token.empty() && cred.client_cert_pem.empty() && cred.client_key_pem.empty()) {
    return MakeError(ErrorKind::kInput, "exec plugin didn't return a token or cert/key pair");
  }
  if (cred.client_cert_pem.empty() != cred.client_key_pem.empty()) {
    return MakeError(ErrorKind::kInput, "exec plugin returned only certificate or key, not both");
  }
  if (!expiry.empty()) {
    std::chrono::system_clock::time_point when;
    if (!util::ParseRfc3339(expiry, &when)) {
      return MakeError(ErrorKind::kInput, StrCat("decoding stdout: invalid expirationTimestamp ", util::Quote(expiry)));
    }
    cred.expiry = when;
  }
  return cred;
}

}  // namespace

std::string BuildExecInfo(const ExecConfig& exec, const RestConfig& cluster) {
  nlohmann::json spec = {{"interactive", false}};
  if (exec.provide_cluster_info) {
    nlohmann::json c = {{"server", cluster.server}};
    if (!cluster.tls_server_name.empty()) c["tls-server-name"] = cluster.tls_server_name;
    if (cluster.insecure) c["insecure-skip-tls-verify"] = true;
    // The CA is inlined as base64 PEM even when the kubeconfig named a file (rest/exec.go).
    if (!cluster.ca_pem.empty()) c["certificate-authority-data"] = util::Base64Encode(cluster.ca_pem);
    if (!cluster.proxy_url.empty()) c["proxy-url"] = cluster.proxy_url;
    if (cluster.disable_compression) c["disable-compression"] = true;
    if (!exec.cluster_config.is_null()) c["config"] = exec.cluster_config;
    spec["cluster"] = c;
  }
  const nlohmann::json info = {{"kind", "ExecCredential"}, {"apiVersion", exec.api_version}, {"spec", spec}};
  return info.dump();
}

util::Result<ExecCredential> ParseExecCredential(const std::string& stdout_text, const std::string& api_version) {
  const nlohmann::json doc = nlohmann::json::parse(stdout_text, nullptr, false);
  if (!doc.is_object()) return MakeError(ErrorKind::kInput, "decoding stdout: couldn't get version/kind; json parse error");
  auto got = StringField(doc, "apiVersion", "ExecCredential.apiVersion");
  if (!got) return got.error();
  auto kind = StringField(doc, "kind", "ExecCredential.kind");
  if (!kind) return kind.error();
  if (*kind != "ExecCredential" || got->empty()) {
    return MakeError(ErrorKind::kInput, "decoding stdout: Object 'Kind' is missing or not ExecCredential");
  }
  if (*got != api_version) {
    return MakeError(ErrorKind::kInput, StrCat("exec plugin is configured to use API version ", util::Printable(api_version),
                                               ", plugin returned version ", util::Printable(*got)));
  }
  if (!doc.contains("status") || !doc["status"].is_object()) {
    return MakeError(ErrorKind::kInput, "exec plugin didn't return a status field");
  }
  return DecodeStatus(doc["status"]);
}

ExecProvider::ExecProvider(ExecConfig exec, const RestConfig& cluster, util::ProcessRunner& processes,
                           util::Clock& clock, const util::Environment& env)
    : exec_(std::move(exec)), cluster_(cluster), processes_(processes), clock_(clock), env_(env) {}

util::Result<ExecCredential> ExecProvider::Get() {
  std::lock_guard<std::mutex> lock(mu_);
  if (cached_ && (!cached_->expiry || clock_.Now() <= *cached_->expiry)) return *cached_;
  auto fresh = Run();
  if (!fresh) return fresh.error();
  cached_ = *fresh;
  return fresh;
}

void ExecProvider::Invalidate(const ExecCredential& used) {
  std::lock_guard<std::mutex> lock(mu_);
  // Only forget it if no other caller refreshed it meanwhile (client-go maybeRefreshCreds).
  if (cached_ && *cached_ == used) cached_.reset();
}

int ExecProvider::runs() const {
  std::lock_guard<std::mutex> lock(mu_);
  return runs_;
}

util::Result<ExecCredential> ExecProvider::Run() {
  if (exec_.interactive_mode == "Always") {
    return Credentials("exec plugin cannot support interactive mode: standard input is not a terminal");
  }
  util::ProcessRequest req;
  req.argv.push_back(exec_.command);
  req.argv.insert(req.argv.end(), exec_.args.begin(), exec_.args.end());
  req.env = env_.vars();
  for (const auto& [name, value] : exec_.env) req.env[name] = value;
  req.env["KUBERNETES_EXEC_INFO"] = BuildExecInfo(exec_, cluster_);
  req.pass_stderr = true;  // the plugin's own messages reach the user, as with kubectl
  ++runs_;
  auto result = processes_.Run(req);
  if (!result) {
    if (result.error().kind == ErrorKind::kToolMissing) return NotInstalled(exec_);
    return Credentials(StrCat("exec: ", result.error().message));
  }
  if (result->exit_code != 0) {
    return Credentials(StrCat("exec: executable ", exec_.command, " failed with exit code ", result->exit_code));
  }
  auto cred = ParseExecCredential(result->out, exec_.api_version);
  if (!cred) return Credentials(cred.error().message);
  return cred;
}

}  // namespace tazuna::kube
