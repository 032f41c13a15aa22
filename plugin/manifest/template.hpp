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

/// Replaces every `{{ .Environment }}` with `environment`; any other action is an error.
util::Result<std::string> SubstituteEnvironment(std::string_view text, std::string_view environment,
                                                const std::string& file);

}  // namespace tazuna::manifest
