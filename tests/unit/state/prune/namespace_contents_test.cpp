#include "state/prune/namespace_contents.hpp"

#include <doctest/doctest.h>

namespace tazuna::state {

TEST_CASE("namespace contents: tazuna's and Kubernetes' own namespaces are protected") {
  for (const char* ns : {"tazuna", "default", "kube-system", "kube-public", "kube-node-lease"}) {
    CAPTURE(ns);
    CHECK(IsProtectedNamespace(ns));
  }
  for (const char* ns : {"team-a", "tazuna-system", "kube-flannel", ""}) {
    CAPTURE(ns);
    CHECK_FALSE(IsProtectedNamespace(ns));
  }
}

TEST_CASE("namespace contents: what deleting a namespace would take along that this run did not delete") {
  const std::vector<Occupant> occupants = {
      {"apps", "Deployment", "web", "d1", {}, false},             // deleted by this run
      {"apps", "ReplicaSet", "web-7f9", "r1", {"d1"}, false},     // owned by it
      {"", "Pod", "web-7f9-abcde", "p1", {"r1"}, false},          // owned by that, transitively
      {"", "Service", "web", "s1", {}, false},                    // deleted by this run
      {"", "Endpoints", "web", "e1", {}, false},                  // the Service's, though it names no owner
      {"discovery.k8s.io", "EndpointSlice", "web-x", "es1", {"s1"}, false},
      {"", "ConfigMap", "kube-root-ca.crt", "c0", {}, false},     // in every namespace
      {"", "ServiceAccount", "default", "sa0", {}, false},        // in every namespace
      {"", "ConfigMap", "leaving", "c9", {}, true},               // already being deleted
      {"", "ConfigMap", "foreign", "c1", {}, false},              // someone else's
      {"", "Pod", "half-owned", "p2", {"r1", "zz"}, false},       // one owner stays
      {"", "Endpoints", "other", "e2", {}, false},                // no such Service is deleted
      {"example.com", "Widget", "w", "w1", {"c1"}, false},        // owned by what stays
      {"", "Pod", "orphaned", "p3", {"c9"}, false},               // its owner leaves with orphan propagation
      {"", "Secret", "token", "s9", {"sa0"}, false},              // owned by what Kubernetes made
  };
  CHECK(Unaccounted(occupants, {"d1", "s1"}) == std::vector<std::string>{"configmap/foreign", "pod/half-owned",
                                                                         "endpoints/other", "widget.example.com/w",
                                                                         "pod/orphaned", "secret/token"});
  CHECK(Unaccounted({}, {"d1"}).empty());
  CHECK(Unaccounted({occupants[9]}, {"c1"}).empty());
  // Only objects with owners left (a Pod whose ReplicaSet the garbage collector already removed): look again.
  const std::vector<Occupant> pod_left = {{"", "Pod", "web-1", "p7", {"rs-gone"}, false}};
  CHECK(OnlyDependentsLeft(pod_left, Unaccounted(pod_left, {"d1"})));
  CHECK_FALSE(OnlyDependentsLeft(occupants, Unaccounted(occupants, {"d1", "s1"})));  // configmap/foreign has none
  CHECK_FALSE(OnlyDependentsLeft(pod_left, {}));
}

}  // namespace tazuna::state
