#include "state/store/render_record.hpp"

#include <set>

#include "state/store/secret_key.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

std::string RenderDigest(const std::string& input_digest, const std::string& context_namespace) {
  if (input_digest.empty()) return "";
  return util::Sha256Hex(util::StrCat(input_digest, "\ncontext-namespace ", context_namespace, "\n"));
}

bool RecordsRender(const ManifestState& stored, const std::string& render_digest) {
  const Metadata& m = stored.metadata;
  if (render_digest.empty() || m.render_digest != render_digest ||
      m.entries_digest != EntriesDigest(stored.entries, m)) {
    return false;
  }
  std::multiset<std::string> crd_groups, scope_groups;
  for (const auto& [key, hash] : stored.entries) {
    auto parsed = ParseStateKey(key);
    if (!parsed || hash.empty() || KeyNameProblem(*parsed)) return false;
    if (IsSecret(*parsed)) return false;
    if (parsed->group == "apiextensions.k8s.io" && parsed->kind == "CustomResourceDefinition") {
      const size_t dot = parsed->name.find('.');  // <plural>.<group>
      crd_groups.insert(dot == std::string::npos ? "" : parsed->name.substr(dot + 1));
    }
  }
  // A CRD's scope decides other manifests' keys (defaultNamespace): each must have its recorded scope (one
  // "group/Kind" per CRD, of its group; a state written before scopes were recorded has none, and is rendered).
  for (const auto& [group_kind, namespaced] : m.crd_scopes) {
    scope_groups.insert(group_kind.substr(0, group_kind.find('/')));
  }
  return crd_groups == scope_groups;
}

std::map<std::string, std::string> KindScopes(const DesiredManifest& manifest, IdentityResolver& ids) {
  std::map<std::string, std::string> out;
  for (const DesiredObject& d : manifest.objects) {
    if (BuiltinGroup(d.key.group)) continue;  // Kubernetes' own kinds: their scope is the server's, fixed
    const std::string group_kind = util::StrCat(d.key.group, "/", d.key.kind);
    if (out.count(group_kind) != 0) continue;
    const std::optional<bool> namespaced = ids.IsNamespaced(d.key.ApiVersion(), d.key.kind);
    out[group_kind] = !namespaced ? "Unknown" : *namespaced ? "Namespaced" : "Cluster";
  }
  return out;
}

DesiredManifest DesireFromState(const std::string& name, const ManifestState& stored, IdentityResolver& ids) {
  DesiredManifest out;
  out.name = name;
  out.from_state = true;
  out.crd_scopes = stored.metadata.crd_scopes;
  out.kind_scopes = stored.metadata.kind_scopes;
  out.objects.reserve(stored.entries.size());
  for (const auto& [key, hash] : stored.entries) {
    auto parsed = ParseStateKey(key);
    if (!parsed) continue;  // RecordsRender said every key parses
    DesiredObject d;
    d.key = *parsed;
    d.key_string = key;
    d.identity = ids.Resolve(d.key);
    d.hash = hash;
    d.object = {{"apiVersion", d.key.ApiVersion()}, {"kind", d.key.kind}, {"metadata", {{"name", d.key.name}}}};
    if (!d.key.namespace_name.empty()) d.object["metadata"]["namespace"] = d.key.namespace_name;
    out.objects.push_back(std::move(d));
  }
  return out;
}

}  // namespace tazuna::state
