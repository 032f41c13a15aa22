#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace tazuna::kube {

/// The parts of an absolute URL that the transport and client need.
struct UrlParts {
  std::string scheme;          ///< "https"
  std::string host;            ///< without brackets for IPv6
  std::string port;            ///< explicit or the scheme's default
  std::string authority;       ///< host[:port] exactly as written ("[::1]:6443"), without any userinfo
  std::string path_and_query;  ///< from the first '/' after the authority, "" if none
};

/// Splits `url` (scheme://authority/path?query). Missing parts stay empty; no validation.
UrlParts ParseUrl(std::string_view url);

/// Percent-encodes a query value (RFC 3986 unreserved characters kept).
std::string QueryEscape(std::string_view value);

/// Percent-encodes one path segment: RFC 3986 unreserved characters and the sub-delimiters, ':' and '@'
/// that a segment may hold are kept; '/', '?', '#', '%' and every other byte are encoded.
std::string PathEscape(std::string_view segment);

/// Joins a server base URL (which may carry a path prefix) and an API path: any query and fragment of
/// the server are dropped, and exactly one '/' separates them.
std::string JoinServerPath(std::string_view server, std::string_view path);

}  // namespace tazuna::kube
