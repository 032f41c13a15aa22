#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tazuna::manifest {

/// A semantic version (https://semver.org); build metadata is dropped.
struct SemVer {
  long major = 0, minor = 0, patch = 0;
  std::vector<std::string> prerelease;  ///< dot-separated identifiers after '-'
  bool operator==(const SemVer&) const = default;
};

/// Parses "1.2.3", "v1.2.3", "1.2.3-rc.1+build"; nullopt when not a semver (e.g. "dev").
std::optional<SemVer> ParseSemVer(std::string_view text);

/// <0, 0, >0 by semver precedence (a prerelease sorts before its release).
int CompareSemVer(const SemVer& a, const SemVer& b);

}  // namespace tazuna::manifest
