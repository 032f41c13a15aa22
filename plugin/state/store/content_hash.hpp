#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace tazuna::state {

/// The Go tool's ContentHash: drops metadata.{resourceVersion,uid,creationTimestamp,generation,
/// managedFields,selfLink} and the top-level `status` from a copy of `object` (the input is not
/// modified), serialises it with util::GoJsonMarshal (every number as float64) and returns the
/// SHA-256 as 64 lowercase hex digits. Non-object values are hashed as they are.
std::string ContentHash(const nlohmann::json& object);

/// The bytes ContentHash hashes (exposed for diagnostics and tests).
std::string ContentHashInput(const nlohmann::json& object);

}  // namespace tazuna::state
