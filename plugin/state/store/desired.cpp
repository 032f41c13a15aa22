#include "state/store/desired.hpp"

#include "manifest/objects.hpp"
#include "state/store/content_hash.hpp"
#include "util/profile.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

DesiredManifest Desire(manifest::RenderedManifest rendered, IdentityResolver& ids) {
  DesiredManifest out;
  out.name = rendered.name;
  out.always_sync = rendered.always_sync;
  out.crd_scopes = manifest::CrdScopes(rendered.objects);
  out.objects.reserve(rendered.objects.size());
  for (size_t i = 0; i < rendered.objects.size(); ++i) {
    nlohmann::json& object = rendered.objects[i];
    DesiredObject d;
    if (i < rendered.sources.size()) d.source = std::move(rendered.sources[i]);
    d.key = KeyFor(rendered.name, object);
    d.key_string = d.key.ToString();
    d.identity = ids.Resolve(d.key);
    {
      util::ProfileScope profiled(util::ProfilePhase::kHash);
      d.hash = ContentHash(object);
    }
    d.object = std::move(object);
    out.objects.push_back(std::move(d));
  }
  return out;
}

util::Status CheckNamespaceFlag(const std::vector<DesiredManifest>& manifests, const std::string& flag_namespace) {
  if (flag_namespace.empty()) return util::Ok();
  for (const DesiredManifest& m : manifests) {
    for (const DesiredObject& d : m.objects) {
      const std::string& says = d.key.namespace_name;
      if (d.identity.namespace_name.empty() || says.empty() || says == flag_namespace) continue;
      return util::MakeError(util::ErrorKind::kInput,
                             util::StrCat("manifest ", util::Quote(m.name), ": ", d.identity.Describe(),
                                          ": the namespace from the provided object ", util::Quote(says),
                                          " does not match the namespace ", util::Quote(flag_namespace),
                                          ". You must pass '--namespace=", says, "' to perform this operation."));
    }
  }
  return util::Ok();
}

}  // namespace tazuna::state
