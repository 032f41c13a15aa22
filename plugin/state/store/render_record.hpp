#pragma once

#include <string>

#include "state/store/desired.hpp"
#include "state/store/identity.hpp"
#include "state/store/store.hpp"

namespace tazuna::state {

/// The digest a state records for a render (Metadata::render_digest): the render's input digest
/// (manifest::DigestInputs) with the context namespace its namespace-less objects go to.
std::string RenderDigest(const std::string& input_digest, const std::string& context_namespace);

/// Whether `stored` is exactly the record of a render with `render_digest`, so that rendering again would
/// show no difference: the state recorded that digest, its entries are those written with it (no one
/// changed them since), none is pending, it holds no Secret (whose hashes depend on the cluster's key), and
/// the scope of each CustomResourceDefinition it holds was recorded with it (other manifests' keys depend on it).
bool RecordsRender(const ManifestState& stored, const std::string& render_digest);

/// The scope each kind of `manifest`'s custom resources resolves to with `ids` ("group/Kind" -> "Namespaced",
/// "Cluster" or "Unknown"; kinds of groups Kubernetes serves itself are left out), once every manifest's CRDs are
/// known: a sync records it with the render, and a manifest whose kinds resolve otherwise now is rendered again.
std::map<std::string, std::string> KindScopes(const DesiredManifest& manifest, IdentityResolver& ids);

/// The manifest `name` as its state records it (RecordsRender): one object per entry, with the entry's key,
/// its identity as `ids` resolves it and its hash, so that Diff finds nothing to do.
DesiredManifest DesireFromState(const std::string& name, const ManifestState& stored, IdentityResolver& ids);

}  // namespace tazuna::state
