#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "state/apply/field_set.hpp"

namespace tazuna::cli {

/// What StripServerDefaults did.
struct DefaultsStripped {
  size_t removed = 0;
  std::string warning;  ///< non-empty: the server could not tell (nothing was removed), and why
};

/// Removes from `doc` (an export: an object as a manifest would say it) the values of `candidates` the server
/// fills in by itself: a field whose removal a server-side dry-run create (under a generated name, so nothing
/// is written and no name is taken) gives back with the same value is a server default. Candidates are tried
/// together and halved when the server refuses a set (a required field among them), so an object costs about
/// one request plus a few per required field; the result is checked by one more dry run of the whole removal.
/// A server that cannot answer (no create permission, a webhook failing) leaves `doc` as it was, with a warning.
DefaultsStripped StripServerDefaults(kube::Client& client, nlohmann::json& doc,
                                     const std::vector<state::FieldPath>& candidates);

}  // namespace tazuna::cli
