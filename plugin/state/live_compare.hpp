#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "state/state_key.hpp"

namespace tazuna::state {

/// GETs the object `k` names, in namespace `ns` (its resolved identity's). nullopt when it is gone:
/// NotFound, or its kind is no longer served (kNotFound); any other failure is returned.
util::Result<std::optional<nlohmann::json>> GetLive(kube::Client& client, const StateKey& k, const std::string& ns);

/// What applying `rendered` would make of the live object: a server-side dry run (field manager tazuna)
/// with the ownership marks of `manifest`, exactly as sync applies it. kube errors are returned.
util::Result<nlohmann::json> DryRunApply(kube::Client& client, const nlohmann::json& rendered,
                                         const std::string& manifest);

/// Whether `live` already is what `merged` (DryRunApply) says, ignoring status and the metadata the
/// server changes on every write (managedFields, resourceVersion, generation, creationTimestamp, uid).
bool SameContent(const nlohmann::json& live, const nlohmann::json& merged);

}  // namespace tazuna::state
