#include "util/strings.hpp"

#include <algorithm>
#include <cctype>

namespace tazuna::util {

std::vector<std::string> Split(std::string_view text, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (true) {
    const size_t pos = text.find(sep, start);
    if (pos == std::string_view::npos) {
      out.emplace_back(text.substr(start));
      return out;
    }
    out.emplace_back(text.substr(start, pos - start));
    start = pos + 1;
  }
}

std::string Join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

std::string_view Trim(std::string_view text) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return text;
}

bool StartsWith(std::string_view text, std::string_view prefix) { return text.substr(0, prefix.size()) == prefix; }

bool EndsWith(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::string ToLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

namespace {
bool IsControl(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}
}  // namespace

std::string Quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (!IsControl(c)) {
      if (c == '"' || c == '\\') out += '\\';
      out += c;
      continue;
    }
    if (byte >= 7 && byte <= 13) {  // Go's short escapes \a \b \t \n \v \f \r
      out += '\\';
      out += "abtnvfr"[byte - 7];
      continue;
    }
    out += "\\x";
    out += "0123456789abcdef"[byte >> 4];
    out += "0123456789abcdef"[byte & 0xF];
  }
  out += '"';
  return out;
}

std::string Printable(std::string_view text) {
  return std::none_of(text.begin(), text.end(), IsControl) ? std::string(text) : Quote(text);
}

}  // namespace tazuna::util
