#pragma once

#include <string>
#include <vector>

#include "cli/context.hpp"
#include "kube/client.hpp"
#include "manifest/model.hpp"
#include "state/store/identity.hpp"
#include "state/store/store.hpp"
#include "util/logger.hpp"

namespace tazuna::cli {

/// The states in the cluster that a tazuna.yaml no longer names.
struct Orphans {
  std::vector<state::ManifestState> ours;  ///< written from this repository: its retired manifests
  /// Another repository's, or one without an origin (the Go tool's, or one nobody claimed): never ours to
  /// uninstall or forget. Each is "manifest \"x\": why".
  std::vector<std::string> skipped;
  /// States that could not be read: whose they are is unknown. Each is "manifest \"x\": why".
  std::vector<std::string> unreadable = {};
};

/// Whether which manifests `file` names may depend on -e: never when it was loaded with one (the user named
/// the environment); otherwise true when its text names `Environment` (a template may list manifests for one
/// environment only), or loading it with another environment names other manifests, or fails. Then no state can be told an orphan (a manifest only another environment lists is not one).
bool NamesDependOnEnvironment(Context& ctx, const manifest::TazunaFile& file);

/// --orphaned's premise: a kUsage error when NamesDependOnEnvironment (give -e).
util::Status CheckOrphanBasis(Context& ctx, const manifest::TazunaFile& file);

/// Reads which states `file` does not name: one metadata-only LIST of the state ConfigMaps, then the states
/// of those alone (a GET each). A state that cannot be read is skipped, said why: nothing is concluded of it.
util::Result<Orphans> FindOrphans(kube::Client& client, const manifest::TazunaFile& file, const state::Origin& origin);

/// The first object `st` records under a key without a namespace whose kind is (or may be) namespaced, when the
/// state recorded no context namespace (the Go tool's, or one no sync could confirm), as "Kind name": where it
/// lives cannot be told. "" when there is none.
std::string UnknownNamespaces(const state::ManifestState& st, state::IdentityResolver& ids);

/// The objects a state records that live now and are its manifest's: marked by it, or unmarked with fields
/// tazuna's field manager owns (a claimed Go tool state's objects not applied since).
struct LiveRecorded {
  size_t count = 0;
  std::string first;  ///< kubectl's name of one of them, with its namespace ("deployment.apps/web -n ns")
};

/// Reads which of the objects `st` records live (one metadata-only LIST per kind and namespace). An error
/// when some could not be read, or a kind's CRD exists but serves no version (its objects are stored, out of
/// reach): nothing may then be concluded.
util::Result<LiveRecorded> LiveObjectsOf(kube::Client& client, const state::ManifestState& st, util::Logger& log);

/// state diff and state sync: a warning for every state of this repository that tazuna.yaml no longer names
/// and whose objects still live (or could not be checked), naming state delete --orphaned. Best effort: a
/// scan that fails is logged at -v=1.
void WarnRetired(Context& ctx, kube::Client& client, const manifest::TazunaFile& file, const state::Origin& origin,
                 util::Logger& log);

}  // namespace tazuna::cli
