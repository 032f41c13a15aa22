#include "kube/url.hpp"

#include <cctype>
#include <cstdio>

namespace tazuna::kube {

UrlParts ParseUrl(std::string_view url) {
  UrlParts u;
  size_t pos = url.find("://");
  if (pos != std::string_view::npos) {
    u.scheme = std::string(url.substr(0, pos));
    url.remove_prefix(pos + 3);
  }
  const size_t slash = url.find_first_of("/?#");
  std::string_view auth = url.substr(0, slash);
  if (slash != std::string_view::npos) u.path_and_query = std::string(url.substr(slash));
  // Userinfo (`user:password@`) is no part of the authority shown in messages, Host headers and cache paths.
  if (const size_t at = auth.rfind('@'); at != std::string_view::npos) auth.remove_prefix(at + 1);
  u.authority = std::string(auth);
  size_t colon = std::string_view::npos;
  if (!auth.empty() && auth[0] == '[') {
    const size_t close = auth.find(']');
    u.host = std::string(auth.substr(1, close == std::string_view::npos ? auth.size() : close - 1));
    if (close != std::string_view::npos && close + 1 < auth.size() && auth[close + 1] == ':') colon = close + 1;
  } else {
    colon = auth.rfind(':');
    u.host = std::string(auth.substr(0, colon));
  }
  if (colon != std::string_view::npos) u.port = std::string(auth.substr(colon + 1));
  if (u.port.empty()) u.port = u.scheme == "http" ? "80" : "443";
  return u;
}

namespace {

bool IsUnreserved(unsigned char c) { return std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~'; }

std::string Escape(std::string_view value, std::string_view keep) {
  std::string out;
  for (const char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (IsUnreserved(c) || keep.find(ch) != std::string_view::npos) {
      out += ch;
    } else {
      char buf[4];
      std::snprintf(buf, sizeof(buf), "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

}  // namespace

std::string QueryEscape(std::string_view value) { return Escape(value, ""); }

std::string PathEscape(std::string_view segment) { return Escape(segment, "!$&'()*+,;=:@"); }

std::string JoinServerPath(std::string_view server, std::string_view path) {
  server = server.substr(0, server.find_first_of("?#"));
  while (!server.empty() && server.back() == '/') server.remove_suffix(1);
  std::string out(server);
  if (path.empty() || path[0] != '/') out += '/';
  out += path;
  return out;
}

}  // namespace tazuna::kube
