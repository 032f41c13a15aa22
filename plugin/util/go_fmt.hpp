#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "util/go_value.hpp"

namespace tazuna::util {

/// Go's fmt.Sprint: operands formatted with %v, a space between two operands neither of which is a string.
std::string GoSprint(const std::vector<GoValue>& args);
/// Go's fmt.Sprintln: operands formatted with %v, spaces between them, a newline at the end.
std::string GoSprintln(const std::vector<GoValue>& args);
/// Go's fmt.Sprintf over the values the text/template twin has, with fmt's verbs, flags, widths,
/// precisions, argument indexes and its error texts (`%!d(string=x)`, `%!v(MISSING)`, `%!(EXTRA ...)`).
std::string GoSprintf(std::string_view format, const std::vector<GoValue>& args);

}  // namespace tazuna::util
