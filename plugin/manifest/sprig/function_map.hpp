#pragma once

// What the groups of sprig's function map are written with, and the groups (sprig_functions.cpp puts
// them together). Each function follows its Go definition in sprig v3; tests/compat/
// helmfile_template_run.sh compares the results with Go's.

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "manifest/gotemplate/functions.hpp"
#include "manifest/sprig/values.hpp"

namespace tazuna::manifest::sprig {

using gotemplate::ArgType;

/// A function's body: the evaluated arguments in, a value or an error out.
using Body = std::function<Result<GoValue>(Args&)>;

/// A Go parameter list: fixed parameters, then optionally a variadic one.
inline gotemplate::Signature Sig(std::vector<ArgType> fixed, std::optional<ArgType> variadic = std::nullopt) {
  return gotemplate::Signature{std::move(fixed), variadic};
}

inline constexpr ArgType kAny = ArgType::kAny;
inline constexpr ArgType kStr = ArgType::kString;
inline constexpr ArgType kVal = ArgType::kValue;

/// The body of a func(string) string.
inline Body StringFn(std::string (*f)(const std::string&)) {
  return [f](Args& a) -> Result<GoValue> { return Str(f(a[0].s)); };
}

/// Each adds one group of sprig's functions to `m`: strings (string_functions.cpp); encodings, hashes,
/// paths and JSON/YAML (encoding_functions.cpp); numbers (number_functions.cpp); defaults and
/// reflection (default_functions.cpp); dicts (dict_functions.cpp); lists (list_functions.cpp).
void AddStrings(gotemplate::FunctionMap& m);
void AddEncodings(gotemplate::FunctionMap& m);
void AddNumbers(gotemplate::FunctionMap& m);
void AddDefaults(gotemplate::FunctionMap& m);
void AddDicts(gotemplate::FunctionMap& m);
void AddLists(gotemplate::FunctionMap& m);

}  // namespace tazuna::manifest::sprig
