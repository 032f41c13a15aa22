#include "cli/build_info.hpp"

#include "util/build_platform.hpp"

// CMake defines both for the cli library; the fallbacks keep other builds (tools, IDEs) compiling.
#ifndef TAZUNA_VERSION
#define TAZUNA_VERSION "0.0.0-dev"
#endif
#ifndef TAZUNA_KUBE_VERSION
#define TAZUNA_KUBE_VERSION "v1.33.0"
#endif
#ifndef TAZUNA_GIT_COMMIT
#define TAZUNA_GIT_COMMIT "unknown"
#endif

namespace tazuna::cli {

std::string_view BuildVersion() { return TAZUNA_VERSION; }
std::string_view BuildCommit() { return TAZUNA_GIT_COMMIT; }
std::string_view BuildKubeVersion() { return TAZUNA_KUBE_VERSION; }
std::string_view BuildPlatform() { return util::kBuildPlatform; }

}  // namespace tazuna::cli
