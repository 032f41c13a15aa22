#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tazuna::util {

/// Why `segment` cannot be one segment of an API request path (an object's name or namespace), as the
/// end of a one-line message ("may not contain '/'"); nullopt when it can. apimachinery's path segment
/// rule ('.' and '..' are refused, '/' and '%' too), plus what no kind's name validation lets through
/// and a URL would read as syntax: '?', '#', '\', whitespace and control characters. Empty is refused.
std::optional<std::string> PathSegmentProblem(std::string_view segment);

}  // namespace tazuna::util
