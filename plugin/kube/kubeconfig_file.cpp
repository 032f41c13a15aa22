#include "kube/kubeconfig.hpp"

#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "util/base64.hpp"
#include "util/file_reader.hpp"
#include "util/strings.hpp"
#include "util/yaml_cpp_guard.hpp"

namespace tazuna::kube {
namespace {

using util::ErrorKind;
using util::MakeError;
using util::StrCat;

std::string Str(const YAML::Node& node, const char* key) {
  const YAML::Node v = node[key];
  return v && v.IsScalar() ? v.Scalar() : std::string();
}

bool Bool(const YAML::Node& node, const char* key) {
  const std::string v = Str(node, key);
  return v == "true" || v == "True" || v == "TRUE";
}

// A *-data field: base64 as Go's []byte decoding expects; kInput `illegal base64 data ...` otherwise.
util::Result<std::string> Data(const YAML::Node& node, const char* key) {
  const std::string v = Str(node, key);
  if (v.empty()) return v;
  return util::Base64Decode(v);
}

// client-go makes relative paths absolute against the directory of the defining file (ResolveLocalPaths).
std::string Resolve(const std::string& path, const std::string& origin) {
  if (path.empty() || path[0] == '/') return path;
  // filepath.Join cleans the result: "/k/sub/../bin/plug" becomes "/k/bin/plug".
  return std::filesystem::path(util::JoinPath(util::DirName(origin), path)).lexically_normal().string();
}

nlohmann::json ToJson(const YAML::Node& node) {
  if (node.IsMap()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& kv : node) out[kv.first.Scalar()] = ToJson(kv.second);
    return out;
  }
  if (node.IsSequence()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& item : node) out.push_back(ToJson(item));
    return out;
  }
  if (!node.IsScalar()) return nullptr;
  const std::string& s = node.Scalar();
  if (node.Tag() == "?") {
    if (s == "true" || s == "false") return s == "true";
    if (s == "null" || s == "~") return nullptr;
  }
  return s;
}

util::Result<KubeCluster> DecodeCluster(const YAML::Node& n, const std::string& origin) {
  KubeCluster c;
  c.server = Str(n, "server");
  c.certificate_authority = Resolve(Str(n, "certificate-authority"), origin);
  auto ca_data = Data(n, "certificate-authority-data");
  if (!ca_data) return ca_data.error();
  c.certificate_authority_data = std::move(*ca_data);
  c.tls_server_name = Str(n, "tls-server-name");
  c.proxy_url = Str(n, "proxy-url");
  c.insecure_skip_tls_verify = Bool(n, "insecure-skip-tls-verify");
  c.disable_compression = Bool(n, "disable-compression");
  if (const YAML::Node ext = n["extensions"]; ext && ext.IsSequence()) {
    for (const auto& e : ext) {
      if (Str(e, "name") == "client.authentication.k8s.io/exec") c.exec_extension = ToJson(e["extension"]);
    }
  }
  c.origin = origin;
  return c;
}

ExecConfig DecodeExec(const YAML::Node& n, const std::string& origin) {
  ExecConfig e;
  e.api_version = Str(n, "apiVersion");
  e.command = Str(n, "command");
  // A bare command name is looked up on PATH; only one containing '/' is file-relative (client-go).
  if (e.command.find('/') != std::string::npos) e.command = Resolve(e.command, origin);
  if (const YAML::Node args = n["args"]; args && args.IsSequence()) {
    for (const auto& a : args) e.args.push_back(a.Scalar());
  }
  if (const YAML::Node env = n["env"]; env && env.IsSequence()) {
    for (const auto& v : env) e.env.emplace_back(Str(v, "name"), Str(v, "value"));
  }
  e.install_hint = Str(n, "installHint");
  e.provide_cluster_info = Bool(n, "provideClusterInfo");
  e.interactive_mode = Str(n, "interactiveMode");
  // SetDefaults_ExecConfig: only v1 requires interactiveMode; older versions default to IfAvailable.
  if (e.interactive_mode.empty() && e.api_version != "client.authentication.k8s.io/v1") {
    e.interactive_mode = "IfAvailable";
  }
  return e;
}

util::Result<KubeUser> DecodeUser(const YAML::Node& n, const std::string& origin) {
  KubeUser u;
  u.token = Str(n, "token");
  u.token_file = Resolve(Str(n, "tokenFile"), origin);
  u.username = Str(n, "username");
  u.password = Str(n, "password");
  u.client_certificate = Resolve(Str(n, "client-certificate"), origin);
  u.client_key = Resolve(Str(n, "client-key"), origin);
  auto cert_data = Data(n, "client-certificate-data");
  if (!cert_data) return cert_data.error();
  u.client_certificate_data = std::move(*cert_data);
  auto key_data = Data(n, "client-key-data");
  if (!key_data) return key_data.error();
  u.client_key_data = std::move(*key_data);
  u.as = Str(n, "as");
  u.as_uid = Str(n, "as-uid");
  if (const YAML::Node g = n["as-groups"]; g && g.IsSequence()) {
    for (const auto& item : g) u.as_groups.push_back(item.Scalar());
  }
  if (const YAML::Node exec = n["exec"]; exec && exec.IsMap()) u.exec = DecodeExec(exec, origin);
  if (const YAML::Node ap = n["auth-provider"]; ap && ap.IsMap()) {
    u.auth_provider = Str(ap, "name");
    if (const YAML::Node cfg = ap["config"]; cfg && cfg.IsMap()) {
      for (const auto& kv : cfg) u.auth_provider_config[kv.first.Scalar()] = kv.second.Scalar();
    }
  }
  u.origin = origin;
  return u;
}

util::Result<KubeContext> DecodeContext(const YAML::Node& n, const std::string& origin) {
  return KubeContext{Str(n, "cluster"), Str(n, "user"), Str(n, "namespace"), origin};
}

// Decodes a named list into a map; a repeated name in one file is an error, as in client-go.
template <class T, class Decode>
util::Status DecodeList(const YAML::Node& list, const char* item_key, const char* go_types, Decode decode,
                        std::map<std::string, T>* out) {
  if (!list || !list.IsSequence()) return util::Ok();
  for (const auto& entry : list) {
    const std::string name = Str(entry, "name");
    if (out->count(name)) {
      return MakeError(ErrorKind::kInput,
                       StrCat("error converting ", go_types, ": duplicate name ", util::Quote(name), " in list"));
    }
    const YAML::Node body = entry[item_key];
    util::Result<T> decoded = decode(body && body.IsMap() ? body : YAML::Node(YAML::NodeType::Map));
    if (!decoded) return decoded.error();
    (*out)[name] = std::move(*decoded);
  }
  return util::Ok();
}

}  // namespace

util::Result<Kubeconfig> ParseKubeconfig(const std::string& text, const std::string& path,
                                         const std::string& display) {
  const std::string prefix = StrCat("error loading config file ", util::Quote(display.empty() ? path : display), ": ");
  try {
    const YAML::Node root = YAML::Load(text);
    Kubeconfig cfg;
    if (!root || root.IsNull()) return cfg;
    if (!root.IsMap()) return MakeError(ErrorKind::kInput, prefix + "kubeconfig is not a YAML mapping");
    cfg.current_context = Str(root, "current-context");
    auto cluster = [&](const YAML::Node& n) { return DecodeCluster(n, path); };
    auto user = [&](const YAML::Node& n) { return DecodeUser(n, path); };
    auto context = [&](const YAML::Node& n) { return DecodeContext(n, path); };
    util::Status st =
        DecodeList(root["clusters"], "cluster", "*[]NamedCluster into *map[string]*api.Cluster", cluster, &cfg.clusters);
    if (st) st = DecodeList(root["users"], "user", "*[]NamedAuthInfo into *map[string]*api.AuthInfo", user, &cfg.users);
    if (st) {
      st = DecodeList(root["contexts"], "context", "*[]NamedContext into *map[string]*api.Context", context,
                      &cfg.contexts);
    }
    if (!st) return MakeError(ErrorKind::kInput, prefix + st.error().message);
    return cfg;
  } catch (const YAML::Exception& e) {
    return MakeError(ErrorKind::kInput,
                     StrCat(prefix, "yaml: line ", e.mark.line + 1, ": ", util::YamlCppMessage(e.msg)));
  }
}

Kubeconfig MergeKubeconfigs(const std::vector<Kubeconfig>& files) {
  Kubeconfig merged;
  // Walk in order and only fill what is still unset: the first file wins per value and per whole stanza.
  for (const Kubeconfig& f : files) {
    if (merged.current_context.empty()) merged.current_context = f.current_context;
    merged.clusters.insert(f.clusters.begin(), f.clusters.end());
    merged.users.insert(f.users.begin(), f.users.end());
    merged.contexts.insert(f.contexts.begin(), f.contexts.end());
  }
  return merged;
}

}  // namespace tazuna::kube
