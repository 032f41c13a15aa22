#include "kube/config_validation.hpp"

#include "util/strings.hpp"

namespace tazuna::kube {

using util::StrCat;

std::string CheckReadable(const std::string& path, util::FileReader& files) {
  if (!files.Exists(path)) return StrCat("open ", path, ": no such file or directory");
  auto content = files.ReadFile(path);
  return content ? std::string() : content.error().message;
}

namespace {

void ValidateClientCert(const std::string& name, const KubeUser& u, util::FileReader& files,
                        std::vector<std::string>* out) {
  if (u.client_certificate.empty() && u.client_certificate_data.empty()) return;
  if (!u.client_certificate.empty() && !u.client_certificate_data.empty()) {
    out->push_back(StrCat("client-cert-data and client-cert are both specified for ", name,
                          ". client-cert-data will override."));
  }
  if (!u.client_key.empty() && !u.client_key_data.empty()) {
    out->push_back(StrCat("client-key-data and client-key are both specified for ", name,
                          "; client-key-data will override"));
  }
  if (u.client_key.empty() && u.client_key_data.empty()) {
    out->push_back(StrCat("client-key-data or client-key must be specified for ", name,
                          " to use the clientCert authentication method."));
  }
  if (!u.client_certificate.empty()) {
    if (auto err = CheckReadable(u.client_certificate, files); !err.empty()) {
      out->push_back(StrCat("unable to read client-cert ", u.client_certificate, " for ", name, " due to ", err));
    }
  }
  if (!u.client_key.empty()) {
    if (auto err = CheckReadable(u.client_key, files); !err.empty()) {
      out->push_back(StrCat("unable to read client-key ", u.client_key, " for ", name, " due to ", err));
    }
  }
}

void ValidateExec(const std::string& name, const KubeUser& u, std::vector<std::string>* out) {
  if (!u.exec) return;
  const ExecConfig& e = *u.exec;
  const std::string suffix = StrCat(" for ", name, " to use exec authentication plugin");
  if (!u.auth_provider.empty()) {
    out->push_back(StrCat("authProvider cannot be provided in combination with an exec plugin for ", name));
  }
  if (e.command.empty()) out->push_back("command must be specified" + suffix);
  if (e.api_version.empty()) out->push_back("apiVersion must be specified" + suffix);
  for (const auto& [var, value] : e.env) {
    if (var.empty()) out->push_back("env variable name must be specified" + suffix);
  }
  const std::string& mode = e.interactive_mode;
  if (mode.empty()) {
    out->push_back("interactiveMode must be specified" + suffix);
  } else if (mode != "Never" && mode != "IfAvailable" && mode != "Always") {
    out->push_back(StrCat("invalid interactiveMode for ", name, ": ", util::Quote(mode)));
  }
}

}  // namespace

std::vector<std::string> ValidateUser(const std::string& name, const KubeUser& u, util::FileReader& files) {
  std::vector<std::string> out;
  std::vector<std::string> methods;
  if (!u.token.empty()) methods.push_back("token");
  if (!u.username.empty() || !u.password.empty()) methods.push_back("basicAuth");
  ValidateClientCert(name, u, files, &out);
  ValidateExec(name, u, &out);
  if (methods.size() > 1) {
    out.push_back(StrCat("more than one authentication method found for ", name, "; found [",
                         util::Join(methods, " "), "], only one is allowed"));
  }
  if ((!u.as_uid.empty() || !u.as_groups.empty()) && u.as.empty()) {
    out.push_back(StrCat("requesting uid, groups or user-extra for ", name, " without impersonating a user"));
  }
  return out;
}

std::vector<std::string> ValidateCluster(const std::string& name, const KubeCluster& c, util::FileReader& files) {
  std::vector<std::string> out;
  if (c.server.empty()) {
    out.push_back(name.empty() ? std::string("default cluster has no server defined")
                               : StrCat("no server found for cluster ", util::Quote(name)));
  }
  if (!c.certificate_authority.empty() && !c.certificate_authority_data.empty()) {
    out.push_back(StrCat("certificate-authority-data and certificate-authority are both specified for ", name,
                         ". certificate-authority-data will override."));
  }
  if (!c.certificate_authority.empty()) {
    if (auto err = CheckReadable(c.certificate_authority, files); !err.empty()) {
      out.push_back(StrCat("unable to read certificate-authority ", c.certificate_authority, " for ", name,
                           " due to ", err));
    }
  }
  return out;
}

}  // namespace tazuna::kube
