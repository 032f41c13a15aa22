#include "manifest/version.hpp"

#include <algorithm>
#include <charconv>

#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

bool AllDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

std::optional<long> ParseNumber(std::string_view s) {
  if (!AllDigits(s) || s.size() > 15 || (s.size() > 1 && s[0] == '0')) return std::nullopt;
  long n = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return n;
}

int CompareIdentifier(const std::string& a, const std::string& b) {
  const bool an = AllDigits(a), bn = AllDigits(b);
  if (an && bn) {
    if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
    return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
  }
  if (an != bn) return an ? -1 : 1;  // numeric identifiers sort first
  return a.compare(b) < 0 ? -1 : (a == b ? 0 : 1);
}

}  // namespace

std::optional<SemVer> ParseSemVer(std::string_view text) {
  if (util::StartsWith(text, "v")) text.remove_prefix(1);
  if (const size_t plus = text.find('+'); plus != std::string_view::npos) text = text.substr(0, plus);
  SemVer v;
  std::string_view core = text;
  if (const size_t dash = text.find('-'); dash != std::string_view::npos) {
    core = text.substr(0, dash);
    v.prerelease = util::Split(text.substr(dash + 1), '.');
    for (const std::string& id : v.prerelease) {
      if (id.empty()) return std::nullopt;
    }
  }
  const std::vector<std::string> parts = util::Split(core, '.');
  if (parts.size() != 3) return std::nullopt;
  const std::optional<long> major = ParseNumber(parts[0]), minor = ParseNumber(parts[1]),
                            patch = ParseNumber(parts[2]);
  if (!major || !minor || !patch) return std::nullopt;
  v.major = *major;
  v.minor = *minor;
  v.patch = *patch;
  return v;
}

int CompareSemVer(const SemVer& a, const SemVer& b) {
  for (const auto& [x, y] : {std::pair{a.major, b.major}, std::pair{a.minor, b.minor}, std::pair{a.patch, b.patch}}) {
    if (x != y) return x < y ? -1 : 1;
  }
  if (a.prerelease.empty() || b.prerelease.empty()) {
    if (a.prerelease.empty() == b.prerelease.empty()) return 0;
    return a.prerelease.empty() ? 1 : -1;
  }
  const size_t n = std::min(a.prerelease.size(), b.prerelease.size());
  for (size_t i = 0; i < n; ++i) {
    if (const int c = CompareIdentifier(a.prerelease[i], b.prerelease[i]); c != 0) return c;
  }
  if (a.prerelease.size() == b.prerelease.size()) return 0;
  return a.prerelease.size() < b.prerelease.size() ? -1 : 1;
}

}  // namespace tazuna::manifest
