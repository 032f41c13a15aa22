#include "cli/cluster_identity.hpp"

#include "kube/api_error.hpp"
#include "state/store/store.hpp"
#include "util/json_get.hpp"
#include "util/strings.hpp"

namespace tazuna::cli {

namespace {

// The uid of `ref`, or "" with the reason in `problem` (`unreachable` set when the server was not reached).
std::string UidOf(kube::Client& client, const kube::ObjectRef& ref, std::string& problem, bool& unreachable) {
  auto object = client.Get(ref);
  if (!object) {
    problem = object.error().message;
    unreachable = object.error().kind == util::ErrorKind::kTransport;
    return "";
  }
  std::string uid = util::MetaString(*object, "uid");
  if (uid.empty()) problem = "the answer holds no metadata.uid";
  return uid;
}

}  // namespace

ClusterIdentity ReadClusterIdentity(kube::Client& client) {
  ClusterIdentity c;
  c.ids.kube_system_uid = UidOf(client, {"v1", "Namespace", "", "kube-system"}, c.kube_system_problem, c.unreachable);
  if (c.unreachable) return c;
  c.ids.root_ca_uid =
      UidOf(client, {"v1", "ConfigMap", state::kStateNamespace, "kube-root-ca.crt"}, c.root_ca_problem, c.unreachable);
  return c;
}

util::Error UnknownClusterIdentity(const std::string& context, const ClusterIdentity& identity, const std::string& what) {
  if (identity.unreachable) {
    auto e = util::MakeError(util::ErrorKind::kTransport,
                             util::StrCat("cannot tell which cluster context ", util::Quote(context), " reaches, so ", what,
                                          " could act on the wrong one: ", identity.kube_system_problem));
    e.hint = util::StartsWith(what, "a rollout") ? "Nothing was written. Fix the context, or leave it out of --contexts."
                                                 : "Nothing was written. Check the connection to the cluster.";
    return e;
  }
  auto e = util::MakeError(
      util::ErrorKind::kConflict,
      util::StrCat("cannot tell which cluster context ", util::Quote(context), " reaches, so ", what,
                   " could act on the wrong one: reading namespace kube-system: ", identity.kube_system_problem,
                   "; reading ConfigMap ", state::kStateNamespace, "/kube-root-ca.crt: ", identity.root_ca_problem));
  e.hint = util::StrCat("Grant the user get on namespace kube-system (kubectl create clusterrole tazuna-cluster-identity "
                        "--verb=get --resource=namespaces --resource-name=kube-system, and bind it), or on ConfigMap "
                        "kube-root-ca.crt in namespace ", state::kStateNamespace, "; or pass --", kSkipClusterIdentityFlag,
                        " to accept the risk.");
  return e;
}

}  // namespace tazuna::cli
