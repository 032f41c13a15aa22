#include "util/url_redact.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace tazuna::util {
namespace {

TEST_CASE("url redact: the password of a URL's userinfo is masked, as kubectl shows it") {
  struct Case {
    std::string in, want;
  };
  const std::vector<Case> cases = {
      {"https://user:pass@host:6443", "https://user:***@host:6443"},
      {"https://user:pa:ss@host/api/v1?x=1#f", "https://user:***@host/api/v1?x=1#f"},
      {"https://user:p@ss@host:6443/", "https://user:***@host:6443/"},
      {"https://user@host:6443", "https://user@host:6443"},
      {"https://host:6443/x@y:z", "https://host:6443/x@y:z"},
      {"https://[::1]:6443", "https://[::1]:6443"},
      {"no url here: a:b@c", "no url here: a:b@c"},
      {"GET https://u:secret1@h/api 200 and http://v:secret2@p:3128 \"https://w:secret3@q\"",
       "GET https://u:***@h/api 200 and http://v:***@p:3128 \"https://w:***@q\""},
      {"", ""},
  };
  for (const auto& c : cases) {
    CAPTURE(c.in);
    CHECK(RedactUrlPasswords(c.in) == c.want);
  }
}

}  // namespace
}  // namespace tazuna::util
