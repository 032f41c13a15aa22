#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "manifest/render.hpp"
#include "util/result.hpp"

namespace tazuna::manifest {

/// Parses a multi-document YAML (or JSON) stream typed as Kubernetes does; `source_name` prefixes errors.
util::Result<std::vector<nlohmann::json>> ParseDocuments(std::string_view text, const std::string& source_name);

/// Turns parsed documents into objects: skips null/empty documents and mappings without `kind`,
/// expands `kind: List` into its items (nested Lists too; items without `kind` are dropped). kInput,
/// naming `source_name`, the 1-based document (and item) position and the kind, for a document or item
/// that is not a mapping, a `kind` that is not a non-empty string, and an object without a string
/// `apiVersion` or a non-empty string `metadata.name`, e.g.
/// `objs/a.yaml: document 2 (kind ConfigMap): missing metadata.name`; also for names and namespaces
/// every kind refuses (names.hpp), and for objects over the API server's 3 MiB request limit.
util::Result<std::vector<nlohmann::json>> DocumentsToObjects(std::vector<nlohmann::json> docs,
                                                             const std::string& source_name);

/// Sets metadata.namespace = `ns` on namespaced objects that lack one. Scope comes from `scopes`
/// (when it knows), else CRDs among `objects`, else the built-in cluster-scoped table; unknown kinds
/// count as namespaced. No-op when `ns` is empty.
void SetDefaultNamespace(std::vector<nlohmann::json>& objects, const std::string& ns, ScopeLookup* scopes);

/// Scopes declared by the CustomResourceDefinitions among `objects`: "group/Kind" -> namespaced
/// (spec.scope other than "Cluster" counts as namespaced, as the apiserver defaults it).
std::map<std::string, bool> CrdScopes(const std::vector<nlohmann::json>& objects);

/// Stable reorder: Namespaces, then CustomResourceDefinitions, then everything else. `sources`, when
/// given and of the same length, is reordered alongside.
void OrderObjects(std::vector<nlohmann::json>& objects, std::vector<std::string>* sources = nullptr);

/// True for kinds the built-in table knows as cluster-scoped (group from `api_version`).
bool IsBuiltinClusterScoped(const std::string& api_version, const std::string& kind);

}  // namespace tazuna::manifest
