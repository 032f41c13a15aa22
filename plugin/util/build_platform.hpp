#pragma once

#include <string_view>

namespace tazuna::util {

/// The OS/architecture this binary was compiled for, spelled as Go's GOOS/GOARCH (as kubectl reports
/// its own): "linux/amd64" or "linux/arm64". Shown by `version` and sent in the User-Agent.
#if defined(__x86_64__)
inline constexpr std::string_view kBuildPlatform = "linux/amd64";
#elif defined(__aarch64__)
inline constexpr std::string_view kBuildPlatform = "linux/arm64";
#else
#error "kubectl-tazuna is built for linux/amd64 and linux/arm64 only; name the new platform here"
#endif

}  // namespace tazuna::util
