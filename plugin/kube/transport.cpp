#include "kube/transport.hpp"

#include "util/strings.hpp"

namespace tazuna::kube {

util::Error ResponseTooLarge(std::string_view method, std::string_view path) {
  return util::MakeError(util::ErrorKind::kApi, util::StrCat("the response to ", method, " ", path, " is larger than ",
                                                             kMaxResponseBytes >> 20, " MiB, the most this client reads"));
}

std::optional<std::string> HttpResponse::Header(std::string_view name) const {
  const std::string want = util::ToLower(name);
  for (const auto& [key, value] : headers) {
    if (util::ToLower(key) == want) return value;
  }
  return std::nullopt;
}

std::vector<std::string> HttpResponse::Headers(std::string_view name) const {
  const std::string want = util::ToLower(name);
  std::vector<std::string> out;
  for (const auto& [key, value] : headers) {
    if (util::ToLower(key) == want) out.push_back(value);
  }
  return out;
}

}  // namespace tazuna::kube
