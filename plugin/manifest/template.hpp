#pragma once

#include <string>
#include <string_view>

#include "util/result.hpp"

namespace tazuna::manifest {

/// Renders `text` (the contents of `file`) as the Go tazuna renders tazuna.yaml and its includes: Go's
/// text/template (manifest/gotemplate) with missingkey=error, executed with the data
/// `tmpl.Data{Environment: environment}`, named `file`. Errors are kInput
/// `<file>:<line>:<col>: template: <Go's message>`.
util::Result<std::string> RenderTazunaTemplate(std::string_view text, const std::string& file,
                                               const std::string& environment);

}  // namespace tazuna::manifest
