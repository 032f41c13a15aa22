#pragma once

#include <cstddef>
#include <string_view>

namespace tazuna::util {

/// Levenshtein distance of `a` and `b`, letters compared case-insensitively (ASCII), as cobra's
/// "Did you mean" suggestions and kubectl's field hints measure it.
size_t EditDistance(std::string_view a, std::string_view b);

}  // namespace tazuna::util
