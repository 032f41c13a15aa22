#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "util/result.hpp"

namespace tazuna::manifest {

/// Renders the Go-template subset a helmfile.yaml may use here: `{{ .Values.a.b }}`,
/// `{{ .StateValues.a }}` (both read `values`) and `{{ .Environment.Name }}` (`environment_name`),
/// with `{{-`/`-}}` trim markers. Strings print as is, lists and maps as Go prints them ([a b],
/// map[k:v]). Anything else, or an unset value, is kInput `<file>:<line>:<col>: template: ...`.
util::Result<std::string> RenderHelmfileTemplate(std::string_view text, const nlohmann::json& values,
                                                 const std::string& environment_name, const std::string& file);

}  // namespace tazuna::manifest
