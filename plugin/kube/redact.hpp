#pragma once

#include <string>
#include <string_view>

namespace tazuna::kube {

/// A header value safe to log: Authorization (and Proxy-Authorization) keep only the scheme,
/// e.g. "Bearer <masked>"; other headers are returned unchanged.
std::string RedactHeader(std::string_view name, std::string_view value);

/// A body safe to log: in a JSON Secret (or a list of them) every data/stringData value becomes
/// "***"; an ExecCredential's status fields are masked; non-JSON bodies are returned unchanged.
std::string RedactBody(std::string_view body);

}  // namespace tazuna::kube
