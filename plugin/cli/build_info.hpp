#pragma once

#include <string_view>

namespace tazuna::cli {

/// The plugin's version as built, without a leading "v" (CMake's TAZUNA_VERSION, e.g. "0.1.0-dev").
std::string_view BuildVersion();
/// The git commit the plugin was built from (12 hex digits), or "unknown".
std::string_view BuildCommit();
/// The Kubernetes version the plugin is built and tested against (the local control plane's, e.g.
/// "v1.33.13"): what charts render for when no cluster tells its own.
std::string_view BuildKubeVersion();
/// The platform the plugin reports, as kubectl does: "linux/amd64" or "linux/arm64".
std::string_view BuildPlatform();

}  // namespace tazuna::cli
