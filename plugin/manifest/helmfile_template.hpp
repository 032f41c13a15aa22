#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace tazuna::manifest {

/// What a helmfile template sees in the Go tazuna: a map with `.Values` and `.StateValues` (both the
/// vars, hint defaults included) and `.Environment.Name`; any other key is missing.
struct HelmfileTemplateData {
  nlohmann::json values = nlohmann::json::object();  ///< `.Values`, `.StateValues`
  std::string environment_name = "default";          ///< `.Environment.Name`
};

/// Renders a helmfile template as the Go tazuna does: Go's text/template with missingkey=zero (a missing
/// key is nil: `<no value>` when printed, empty for `default`), sprig's functions without env and
/// expandenv, and helm's toYaml, fromYaml, toJson and fromJson (SprigFunctions). A function that reads the
/// environment (env, expandenv, helmfile's requiredEnv) is kInput: values from the environment come
/// through helmfile.vars. Any other function it does not know (helmfile's own, sprig's clock and random
/// ones) is kToolMissing naming it and helmfile. Template errors are kInput `<file>:<line>:<col>: template: ...`.
util::Result<std::string> RenderHelmfileTemplate(std::string_view text, const HelmfileTemplateData& data,
                                                 const std::string& file);

}  // namespace tazuna::manifest
