#include "manifest/names.hpp"

#include <algorithm>

#include "util/path_segment.hpp"
#include "util/strings.hpp"

namespace tazuna::manifest {
namespace {

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

bool HasManifestNameSyntax(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

std::optional<std::string> StateConfigMapNameProblem(std::string_view name) {
  // The prefix starts with a letter, so only the name's characters, its last one and the length
  // decide whether "tazuna-state-<name>" is an RFC 1123 subdomain, as the apiserver checks ConfigMap
  // names. A leading '-' is fine there ("tazuna-state--web").
  const bool charset = std::all_of(name.begin(), name.end(), [](char c) { return IsLowerAlnum(c) || c == '-'; });
  const bool ending = !name.empty() && IsLowerAlnum(name.back());
  const bool length = name.size() <= kMaxManifestNameLength;
  if (charset && ending && length) return std::nullopt;
  const std::string configmap = util::StrCat(kStateConfigMapPrefix, name);
  const std::string count = length ? "" : util::StrCat("; this one has ", name.size());
  return util::StrCat(util::Quote(name), " cannot name its state ConfigMap ", util::Quote(configmap),
                      ": use lowercase letters, digits and '-', ending in a letter or digit (at most ",
                      kMaxManifestNameLength, " characters", count, ")");
}

std::optional<std::string> NamespaceProblem(std::string_view ns) {
  constexpr size_t kMaxLabelLength = 63;
  const bool charset = std::all_of(ns.begin(), ns.end(), [](char c) { return IsLowerAlnum(c) || c == '-'; });
  if (charset && !ns.empty() && ns.size() <= kMaxLabelLength && IsLowerAlnum(ns.front()) && IsLowerAlnum(ns.back())) {
    return std::nullopt;
  }
  return util::StrCat("invalid namespace ", util::Quote(ns),
                      ": use lowercase letters, digits and '-', starting and ending with a letter or digit (at most ",
                      kMaxLabelLength, " characters)");
}

std::optional<std::string> ObjectNameProblem(std::string_view name) {
  if (name.empty()) return std::nullopt;  // a missing name is reported where names are required
  if (auto problem = util::PathSegmentProblem(name)) {
    return util::StrCat("invalid metadata.name ", util::Quote(name), ": ", *problem);
  }
  return std::nullopt;
}

}  // namespace tazuna::manifest
