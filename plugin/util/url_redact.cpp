#include "util/url_redact.hpp"

#include <algorithm>

#include "util/secret_mask.hpp"

namespace tazuna::util {

std::string RedactUrlPasswords(std::string_view text) {
  std::string out;
  size_t done = 0;
  for (size_t scheme = text.find("://"); scheme != std::string_view::npos; scheme = text.find("://", scheme + 3)) {
    const size_t begin = scheme + 3;
    const size_t end = std::min(text.find_first_of("/?#\\ \t\r\n\"'`<>", begin), text.size());
    const std::string_view authority = text.substr(begin, end - begin);
    const size_t at = authority.rfind('@');
    const size_t colon = authority.find(':');
    if (at == std::string_view::npos || colon == std::string_view::npos || colon > at) continue;
    out.append(text.substr(done, begin + colon + 1 - done));
    out += kSecretMask;
    done = begin + at;
  }
  out.append(text.substr(done));
  return out;
}

}  // namespace tazuna::util
