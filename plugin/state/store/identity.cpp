#include "state/store/identity.hpp"

#include "manifest/objects.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

std::string ObjectIdentity::Describe() const {
  std::string out = group.empty() ? kind : util::StrCat(kind, ".", group);
  out += ' ';
  if (!namespace_name.empty()) out += namespace_name + "/";
  return out + name;
}

void IdentityResolver::AddCrds(const std::vector<nlohmann::json>& objects) {
  AddCrdScopes(manifest::CrdScopes(objects));
}

void IdentityResolver::AddCrdScopes(const std::map<std::string, bool>& scopes) {
  if (scopes.empty()) return;
  std::lock_guard<std::mutex> lock(mu_);
  crds_.insert(scopes.begin(), scopes.end());
  cache_.clear();  // answers that fell through to "unknown" may be known now
}

std::optional<bool> IdentityResolver::IsNamespaced(const std::string& api_version, const std::string& kind) {
  const std::string cache_key = util::StrCat(api_version, "/", kind);
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = cache_.find(cache_key); it != cache_.end()) return it->second;
  }
  // Discovery first (it is the cluster's truth); outside the lock, as it may call the server.
  std::optional<bool> answer = discovery_ != nullptr ? discovery_->IsNamespaced(api_version, kind) : std::nullopt;
  std::lock_guard<std::mutex> lock(mu_);
  if (!answer) {
    const size_t slash = api_version.find('/');
    const std::string group = slash == std::string::npos ? "" : api_version.substr(0, slash);
    if (auto it = crds_.find(util::StrCat(group, "/", kind)); it != crds_.end()) {
      answer = it->second;
    } else if (manifest::IsBuiltinClusterScoped(api_version, kind)) {
      answer = false;
    }
  }
  cache_[cache_key] = answer;
  return answer;
}

ObjectIdentity IdentityResolver::Resolve(const StateKey& key, const std::string& default_namespace) {
  ObjectIdentity id{key.group, key.kind, "", key.name};
  if (IsNamespaced(key.ApiVersion(), key.kind).value_or(true)) {
    id.namespace_name = key.namespace_name.empty() ? default_namespace : key.namespace_name;
  }
  return id;
}

}  // namespace tazuna::state
