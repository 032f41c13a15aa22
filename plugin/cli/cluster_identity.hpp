#pragma once

#include <string>

#include "kube/client.hpp"
#include "state/plan/plan_file.hpp"
#include "util/result.hpp"

namespace tazuna::cli {

/// What a cluster is known by (state::ClusterIds), and why each id that is missing could not be read.
struct ClusterIdentity {
  state::ClusterIds ids;
  std::string kube_system_problem;  ///< "" when read
  std::string root_ca_problem;      ///< "" when read
  bool unreachable = false;         ///< the server could not be reached (or the session not opened) at all
};

/// Reads the uid of namespace kube-system and of ConfigMap tazuna/kube-root-ca.crt (two GETs). Any failure
/// (forbidden, a timeout, a 5xx, an answer without a uid) leaves that id empty with its reason.
ClusterIdentity ReadClusterIdentity(kube::Client& client);

/// The refusal when `identity` knows nothing: what could not be read, what to grant, and the flag that
/// accepts the risk. `what` says what needs the identity ("a plan", "a rollout over contexts").
util::Error UnknownClusterIdentity(const std::string& context, const ClusterIdentity& identity, const std::string& what);

/// The flag that accepts an unknown cluster identity (named for the risk it takes, as kubectl's
/// --insecure-skip-tls-verify is).
inline constexpr char kSkipClusterIdentityFlag[] = "insecure-skip-cluster-identity";

}  // namespace tazuna::cli
