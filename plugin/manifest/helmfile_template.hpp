#pragma once

#include <set>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/environment.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// What a helmfile template sees (helmfile's EnvironmentTemplateData).
struct HelmfileTemplateData {
  nlohmann::json values = nlohmann::json::object();  ///< `.Values`, `.StateValues`, `.Environment.Values`
  std::string environment_name = "default";          ///< `.Environment.Name`
  std::string namespace_name;                        ///< `.Namespace` (helmfile's --namespace)
};

/// Renders a helmfile.yaml.gotmpl as helmfile v1 does (Go's text/template, missingkey=error), with the
/// functions this fallback knows: Go's builtins plus default, quote, squote, trim, required, requiredEnv
/// and env (from `env`; the name of every variable they read is added to `env_reads` when given). Any other function is kToolMissing naming it and helmfile; template errors are
/// kInput `<file>:<line>:<col>: template: ...`.
util::Result<std::string> RenderHelmfileTemplate(std::string_view text, const HelmfileTemplateData& data,
                                                 const std::string& file, const util::Environment& env,
                                                 std::set<std::string>* env_reads = nullptr);

}  // namespace tazuna::manifest
