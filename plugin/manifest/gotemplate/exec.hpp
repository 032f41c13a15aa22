#pragma once

#include <string>

#include "manifest/gotemplate/functions.hpp"
#include "manifest/gotemplate/node.hpp"
#include "manifest/gotemplate/source.hpp"
#include "util/result.hpp"

namespace tazuna::manifest::gotemplate {

/// What a field of a map that has no such key gives (Go's missingkey option).
enum class MissingKey {
  kDefault,  ///< no value (prints "<no value>")
  kZero,     ///< the zero value of the element type (for interface{} elements: nil, also "<no value>")
  kError,    ///< an error
};

/// Bounds and options of one execution.
struct ExecOptions {
  MissingKey missing_key = MissingKey::kError;
  const FunctionMap* functions = nullptr;  ///< callable besides the builtins (may be null)
  size_t max_output = 16 << 20;            ///< bytes; more is an error (Go has no bound)
  int max_depth = 100;                     ///< nested {{template}} calls (Go: 100,000; 1000 overflowed
                                           ///< the ASan build's stack)
  uint64_t max_iterations = 100000;        ///< range iterations in all (Go has no bound)
};

/// Executes the template `name` of `trees` with `data` as dot and `$` (Go's Template.Execute).
/// Errors are kInput TemplateError(source, position of the failing node, message) with Go's messages.
util::Result<std::string> Execute(const Source& source, const TreeSet& trees, const std::string& name,
                                  const GoValue& data, const ExecOptions& options);

}  // namespace tazuna::manifest::gotemplate
