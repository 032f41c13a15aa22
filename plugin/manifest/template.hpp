#pragma once

#include <string>
#include <string_view>

#include "util/result.hpp"

namespace tazuna::manifest {

/// Replaces every `{{ .Environment }}` (also with `{{-`/`-}}` trim markers, as Go's text/template)
/// with `environment`. Any other action, or an unclosed `{{`, is kInput:
/// `<file>:<line>:<col>: template: ...`.
util::Result<std::string> SubstituteEnvironment(std::string_view text, std::string_view environment,
                                                const std::string& file);

}  // namespace tazuna::manifest
