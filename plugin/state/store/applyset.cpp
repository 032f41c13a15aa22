#include "state/store/applyset.hpp"

#include <set>

#include "state/store/state_key.hpp"
#include "state/store/store.hpp"
#include "util/base64.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

namespace {

// Lowercase hex (as Sha256Hex writes it) back to bytes.
std::string HexToBytes(const std::string& hex) {
  auto nibble = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2) out.push_back(static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
  return out;
}

// base64url without padding (Go's base64.RawURLEncoding).
std::string RawUrlBase64(const std::string& bytes) {
  std::string out = util::Base64Encode(bytes);
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return out;
}

}  // namespace

std::string ApplySetId(const std::string& manifest) {
  const std::string parent = util::StrCat(ConfigMapName(manifest), ".", kStateNamespace, ".ConfigMap.");
  return util::StrCat("applyset-", RawUrlBase64(HexToBytes(util::Sha256Hex(parent))), "-v1");
}

ApplySetParent ParentOf(const std::string& manifest, const std::map<std::string, std::string>& entries,
                        const std::string& tooling) {
  std::set<std::string> group_kinds, namespaces;
  for (const auto& [key, hash] : entries) {
    auto k = ParseStateKey(key);
    if (!k) continue;
    group_kinds.insert(k->group.empty() ? k->kind : util::StrCat(k->kind, ".", k->group));
    if (!k->namespace_name.empty() && k->namespace_name != kStateNamespace) namespaces.insert(k->namespace_name);
  }
  std::string ns_list;
  for (const auto& ns : namespaces) {
    if (ns_list.size() + ns.size() + 1 > kMaxNamespacesAnnotation) break;
    ns_list += (ns_list.empty() ? "" : ",") + ns;
  }
  ApplySetParent out;
  out.labels[kApplySetIdLabel] = ApplySetId(manifest);
  out.annotations[kApplySetToolingAnnotation] = tooling;
  out.annotations[kApplySetGroupKindsAnnotation] =
      util::Join(std::vector<std::string>(group_kinds.begin(), group_kinds.end()), ",");
  out.annotations[kApplySetNamespacesAnnotation] = ns_list;
  return out;
}

}  // namespace tazuna::state
