#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "util/go_value.hpp"
#include "util/result.hpp"

namespace tazuna::manifest::gotemplate {

using util::GoValue;

/// How an argument reaches a function, as the Go parameter type decides: reflect.Value (a nil literal
/// or an invalid value is refused), interface{} (nil is accepted), or string (a string, nothing else).
enum class ArgType { kValue, kAny, kString };

/// A function's Go parameter list: fixed parameters, then optionally a variadic one.
struct Signature {
  std::vector<ArgType> fixed;
  std::optional<ArgType> variadic;
};

/// A callable: its signature and its body, which gets the evaluated arguments and returns a value
/// or an error (reported as `error calling <name>: <message>`).
struct Function {
  Signature signature;
  std::function<util::Result<GoValue>(std::vector<GoValue>& args)> body;
};
using FunctionMap = std::map<std::string, Function>;

/// Go's builtin template functions: and, call, eq, ge, gt, html, index, js, le, len, lt, ne, not, or,
/// print, printf, println, slice, urlquery (and and or short-circuit in the executor).
const FunctionMap& Builtins();

/// Go's isTrue: the truth of a value (empty and zero are false, structs true); false `ok` for a kind
/// that has none.
bool IsTrue(const GoValue& value, bool* ok);

/// Go's fmt.Sprint of the arguments of html, js and urlquery (evalArgs): one string as it is, else
/// each operand printed, nil as `<no value>`.
std::string EvalArgs(const std::vector<GoValue>& args);

}  // namespace tazuna::manifest::gotemplate
