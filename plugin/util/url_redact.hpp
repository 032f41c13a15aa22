#pragma once

#include <string>
#include <string_view>

namespace tazuna::util {

/// `text` (a URL, or a message with URLs in it) with the password of every URL's userinfo replaced by
/// kSecretMask, as kubectl shows a server URL: `https://user:pass@host:6443/x` becomes
/// `https://user:***@host:6443/x`. The authority runs to the first `/`, `?`, `#`, space or quote and
/// the userinfo to its last `@`, as Go's url.Parse reads it. Text without such a URL is returned unchanged.
std::string RedactUrlPasswords(std::string_view text);

}  // namespace tazuna::util
