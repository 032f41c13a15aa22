#pragma once

#include <set>
#include <string>
#include <vector>

#include "kube/client.hpp"
#include "util/result.hpp"

namespace tazuna::state {

/// Namespaces a prune never deletes: tazuna's own (every state, the lock, the history and the Secret
/// hash key live there) and the ones Kubernetes itself keeps.
bool IsProtectedNamespace(const std::string& name);

/// One object living in a namespace, as a metadata-only LIST shows it.
struct Occupant {
  std::string group, kind, name, uid;
  std::vector<std::string> owner_uids;  ///< metadata.ownerReferences[].uid
  bool deleting = false;                ///< metadata.deletionTimestamp is set: on its way out already
};

/// The occupants that deleting their namespace would take with it although this run did not delete
/// them, as `kind.group/name` (kubectl's form), in the order given. Accounted for, so not listed: an
/// object whose uid is in `deleted_uids`; one already being deleted; the objects Kubernetes puts in every
/// namespace (ConfigMap kube-root-ca.crt, ServiceAccount default); an object whose every owner
/// (ownerReferences) is deleted by this run, transitively (the ReplicaSets and Pods of a deleted
/// Deployment), but not one owned by something merely being deleted or made by Kubernetes; the Endpoints
/// of an accounted Service (they carry no ownerReferences).
std::vector<std::string> Unaccounted(const std::vector<Occupant>& occupants, const std::set<std::string>& deleted_uids);

/// What lives in namespace `ns` that the deletion of `ns` would also delete: every object of every
/// namespaced kind that discovery (read from the server, not a cache) lists with the verb delete or
/// deletecollection, Events left out, read with one metadata-only LIST per kind. Fails closed: an error
/// when any LIST fails, when such a kind cannot be listed, when discovery says a group is Stale, or when
/// an APIService is not Available (what they serve is unknown), naming what could not be read.
/// True when every occupant named in `left` (Unaccounted's answer) has ownerReferences: what is left
/// may be dependents the garbage collector is still removing after their owner went.
bool OnlyDependentsLeft(const std::vector<Occupant>& occupants, const std::vector<std::string>& left);

util::Result<std::vector<Occupant>> ListOccupants(kube::Client& client, const std::string& ns);

}  // namespace tazuna::state
