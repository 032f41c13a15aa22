#!/usr/bin/env bash
# Prune order against the local control plane: custom resources go first and are waited for until gone (their
# controllers' finalizers); one still held when --timeout passes is named with its finalizers and nothing it
# may depend on (its CRD, the ConfigMaps beside it, its Namespace) is deleted; its state entry stays. Once the
# finalizer goes, one run deletes the rest, the CRD and the Namespace (whose kind the run just removed is no
# reason to keep it), and the state is empty.
source "$(dirname "$0")/lib.sh"

s=$RANDOM; ns=$(new_namespace po); g=po$s.example.com
repo=$E2E_TMP/r; mkdir -p "$repo/a" "$repo/none"
crd_doc gizmos "$g" Gizmo Namespaced v1:true:true > "$repo/a/crd.yaml"
cat > "$repo/a/objs.yaml" <<EOF
apiVersion: v1
kind: Namespace
metadata: {name: $ns}
---
apiVersion: $g/v1
kind: Gizmo
metadata: {name: g1, namespace: $ns, finalizers: [example.com/hold]}
spec: {a: 1}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: c1, namespace: $ns}
data: {a: "1"}
EOF
tazuna_yaml "$repo" "{name: po$s, type: manifests, path: ./a}"
cd "$repo"
expect_rc 0 "sync" kubectl tazuna state sync
gizmo_uid=$(uid gizmo.$g g1 -n "$ns")
tazuna_yaml "$repo" "{name: po$s, type: manifests, path: ./none}"
timed_rc 1 "prune with a custom resource its finalizer holds" "" kubectl tazuna state sync --prune --allow-empty --timeout 3s
took_within 3 20 "waited for it until --timeout"
expect_contains "$OUT" "gizmo.$g/g1 -n $ns failed" "the custom resource fails"
expect_contains "$ERR" "still there after 3s: being deleted" "saying it is still there"
expect_contains "$ERR" "waiting for finalizers example.com/hold" "naming its finalizer"
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/gizmos.$g kept (not deleted: 1 custom resource is still being deleted" "its CRD is kept"
expect_contains "$OUT" "configmap/c1 -n $ns kept (not deleted" "what lives beside it is kept"
expect_contains "$OUT" "namespace/$ns kept (not deleted" "its Namespace is kept"
expect_eq "$(jget cm c1 -n "$ns" -o name)" "configmap/c1" "the ConfigMap lives"
expect_eq "$(jget crd "gizmos.$g" -o name)" "customresourcedefinition.apiextensions.k8s.io/gizmos.$g" "the CRD lives"
expect_eq "$(uid gizmo.$g g1 -n "$ns")" "$gizmo_uid" "the custom resource is the same object, being deleted"
expect_contains "$(state_keys "po$s")" "Gizmo" "its state entry stays"
kubectl patch "gizmo.$g" g1 -n "$ns" --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null
expect_rc 0 "prune again once the finalizer went" kubectl tazuna state sync --prune --allow-empty --timeout 3s
expect_contains "$OUT" "namespace/$ns deleted" "the Namespace goes in the same run as the CRD"
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/gizmos.$g deleted" "the CRD goes"
expect_eq "$(jget crd "gizmos.$g" -o name)" "" "no CRD left"
expect_eq "$(state_keys "po$s")" "" "the state records nothing"
finish
