#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "kube/client.hpp"
#include "state/diff/marks.hpp"
#include "state/store/state_key.hpp"

namespace tazuna::state {

/// Where the object `k` names (in namespace `ns`, its resolved identity's) is served now: through the
/// key's own apiVersion when the server still serves it, else through the version the server serves
/// for its group and kind (a CRD that dropped v1 for v2). kNotFound when no version of it is served.
util::Result<kube::ObjectRef> ServedRef(kube::Client& client, const StateKey& k, const std::string& ns);

/// The live object `k` names and the ref that reached it.
struct Live {
  kube::ObjectRef ref;                  ///< ServedRef: where it is read, and deleted
  std::optional<nlohmann::json> object; ///< nullopt: it is gone
};

/// The name of the CustomResourceDefinition that defines `kind` in `group` ("" when none does). While such
/// a CRD serves no version (each `served: false`), nothing reaches its objects, yet they stay stored.
/// One LIST of the CRDs; the server's error when it fails (NotFound, no apiextensions API: "").
util::Result<std::string> DefiningCrd(kube::Client& client, const std::string& group, const std::string& kind);

/// DefiningCrd for many rows of one command (a prune of a whole unserved kind): the CRDs are listed once,
/// on the first lookup. Thread-safe.
class CrdIndex {
 public:
  util::Result<std::string> Find(kube::Client& client, const std::string& group, const std::string& kind);

 private:
  std::mutex mu_;
  std::optional<std::map<std::pair<std::string, std::string>, std::string>> by_group_kind_;  // guarded by mu_
};

/// GETs the object `k` names through ServedRef. Gone (no object) when the server answers NotFound through
/// a version that discovery, read from the server, still serves, or when no version of its kind is served
/// any more and no CRD defines it; a NotFound through a version known only from the discovery cache is read
/// again through the version the server serves now. kConflict when a CRD defines the kind but serves no
/// version of it (its objects may be stored: nothing tells whether this one is). Any other failure is
/// returned.
util::Result<Live> ReadLive(kube::Client& client, const StateKey& k, const std::string& ns, CrdIndex* crds = nullptr);

/// The first group/version of `group` in `stale` (kube::ServedResources::stale: an APIService that does not
/// answer, so what it serves is not known), or "" when none is.
std::string StaleVersionOf(const std::vector<std::string>& stale, const std::string& group);

/// ReadLive's object only.
util::Result<std::optional<nlohmann::json>> GetLive(kube::Client& client, const StateKey& k, const std::string& ns,
                                                    CrdIndex* crds = nullptr);

/// What applying `rendered` would make of the live object: a server-side dry run (field manager tazuna)
/// with the ownership marks `marks`, exactly as sync applies it. kube errors are returned.
util::Result<nlohmann::json> DryRunApply(kube::Client& client, const nlohmann::json& rendered, const Marks& marks);

/// Whether `live` already is what `merged` (DryRunApply) says, ignoring status and the metadata the
/// server changes on every write (managedFields, resourceVersion, generation, creationTimestamp, uid), and
/// the origin annotation (objects applied before it existed lack it; it says who, not what).
bool SameContent(const nlohmann::json& live, const nlohmann::json& merged);

}  // namespace tazuna::state
