#include "state/render_record.hpp"

#include "state/secret_key.hpp"
#include "util/sha256.hpp"
#include "util/strings.hpp"

namespace tazuna::state {

std::string RenderDigest(const std::string& input_digest, const std::string& context_namespace) {
  if (input_digest.empty()) return "";
  return util::Sha256Hex(util::StrCat(input_digest, "\ncontext-namespace ", context_namespace, "\n"));
}

bool RecordsRender(const ManifestState& stored, const std::string& render_digest) {
  const Metadata& m = stored.metadata;
  if (render_digest.empty() || m.render_digest != render_digest || m.entries_digest != EntriesDigest(stored.entries)) {
    return false;
  }
  for (const auto& [key, hash] : stored.entries) {
    auto parsed = ParseStateKey(key);
    if (!parsed || hash.empty() || KeyNameProblem(*parsed)) return false;
    if (IsSecret(*parsed)) return false;
    // A CRD's scope decides other manifests' keys (defaultNamespace): its manifest is always rendered.
    if (parsed->group == "apiextensions.k8s.io" && parsed->kind == "CustomResourceDefinition") return false;
  }
  return true;
}

DesiredManifest DesireFromState(const std::string& name, const ManifestState& stored, IdentityResolver& ids) {
  DesiredManifest out;
  out.name = name;
  out.from_state = true;
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
