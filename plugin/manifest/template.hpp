#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "util/result.hpp"

namespace tazuna::manifest {

/// Evaluates one template action's expression (trim markers and outer spaces removed). An error's
/// message is placed after `<file>:<line>:<col>: template: `.
using ActionEvaluator = std::function<util::Result<std::string>(std::string_view expression)>;

/// The subset of Go's text/template both tazuna.yaml and helmfile.yaml use: copies `text`, replacing
/// each `{{ ... }}` with `evaluate`'s value and honouring `{{-`/`-}}` trim markers. An unclosed `{{`
/// or an evaluator error is kInput: `<file>:<line>:<col>: template: ...`.
util::Result<std::string> ExpandActions(std::string_view text, const std::string& file,
                                        const ActionEvaluator& evaluate);

/// Renders `text` (the contents of `file`) as the Go tazuna renders tazuna.yaml and its includes: Go's
/// text/template (manifest/gotemplate) with missingkey=error, executed with the data
/// `tmpl.Data{Environment: environment}`, named `file`. Errors are kInput
/// `<file>:<line>:<col>: template: <Go's message>`.
util::Result<std::string> RenderTazunaTemplate(std::string_view text, const std::string& file,
                                               const std::string& environment);

}  // namespace tazuna::manifest
