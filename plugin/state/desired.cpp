#include "state/desired.hpp"

#include "state/content_hash.hpp"

namespace tazuna::state {

DesiredManifest Desire(manifest::RenderedManifest rendered, IdentityResolver& ids) {
  DesiredManifest out;
  out.name = rendered.name;
  out.always_sync = rendered.always_sync;
  out.objects.reserve(rendered.objects.size());
  for (size_t i = 0; i < rendered.objects.size(); ++i) {
    nlohmann::json& object = rendered.objects[i];
    DesiredObject d;
    if (i < rendered.sources.size()) d.source = std::move(rendered.sources[i]);
    d.key = KeyFor(rendered.name, object);
    d.key_string = d.key.ToString();
    d.identity = ids.Resolve(d.key);
    d.hash = ContentHash(object);
    d.object = std::move(object);
    out.objects.push_back(std::move(d));
  }
  return out;
}

}  // namespace tazuna::state
