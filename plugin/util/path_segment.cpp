#include "util/path_segment.hpp"

namespace tazuna::util {

std::optional<std::string> PathSegmentProblem(std::string_view segment) {
  if (segment.empty()) return "may not be empty";
  if (segment == "." || segment == "..") return "may not be '.' or '..'";
  for (const char ch : segment) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f || c == ' ') return "may not contain whitespace or control characters";
    switch (ch) {
      case '/': return "may not contain '/'";
      case '%': return "may not contain '%'";
      case '?': return "may not contain '?'";
      case '#': return "may not contain '#'";
      case '\\': return "may not contain '\\'";
      default: break;
    }
  }
  return std::nullopt;
}

}  // namespace tazuna::util
