#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"

namespace tazuna::kube {

/// A served resource and every name kubectl takes for it.
struct NamedResource {
  std::string group, version, resource, kind, singular;
  std::vector<std::string> short_names;
  bool namespaced = true;
  std::string ApiVersion() const { return group.empty() ? version : group + "/" + version; }
};

/// The resources of a legacy APIResourceList (`/api/v1`, `/apis/GROUP/VERSION`), subresources left out.
std::vector<NamedResource> ParseNamedResources(const nlohmann::json& list);

/// The first of `resources` (in order) that kubectl's TYPE names: its resource (plural), singular, kind or a
/// short name, in any case, optionally followed by `.GROUP` or `.VERSION.GROUP` (`deploy`, `Deployment`,
/// `deployments.apps`, `deployment.v1.apps`); nullopt when none does.
std::optional<NamedResource> MatchResource(const std::vector<NamedResource>& resources, const std::string& type);

/// Resolves TYPE as kubectl get does, against what the server serves now: first the kinds and resources
/// discovery lists (no request beyond it), then short names and singulars, read from `/api/v1` and, when
/// needed, each group's preferred version under `/apis`. kNotFound in kubectl's words ("the server doesn't
/// have a resource type ...") when nothing matches; the error of a group that could not be read when
/// nothing matched and that group might have.
util::Result<NamedResource> ResolveResourceType(Client& client, const std::string& type);

}  // namespace tazuna::kube
