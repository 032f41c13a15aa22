#pragma once

#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace tazuna::util {

/// Concatenates anything streamable (GCC 12 has no <format>).
template <class... Args>
std::string StrCat(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

/// Splits on every `sep`; keeps empty fields ("a,,b" -> {"a","","b"}).
std::vector<std::string> Split(std::string_view text, char sep);
/// Joins with `sep` between elements.
std::string Join(const std::vector<std::string>& parts, std::string_view sep);
/// Strips ASCII whitespace at both ends (as Go's strings.TrimSpace for ASCII).
std::string_view Trim(std::string_view text);
bool StartsWith(std::string_view text, std::string_view prefix);
bool EndsWith(std::string_view text, std::string_view suffix);
/// ASCII lower-casing.
std::string ToLower(std::string_view text);
/// Quotes like Go's %q (used in messages): "name". `"` and `\` are escaped, and so are control
/// characters (`\n`, `\t`, `\x00`, ...), so a quoted value never breaks a one-line message.
std::string Quote(std::string_view text);
/// `text` as it is when it has no control characters, else Quote(text): for values shown bare in
/// kubectl's wording that must still not break a one-line message.
std::string Printable(std::string_view text);

}  // namespace tazuna::util
