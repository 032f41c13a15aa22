#include "manifest/names.hpp"

#include <algorithm>

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

}  // namespace tazuna::manifest
