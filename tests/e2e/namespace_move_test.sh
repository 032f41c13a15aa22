#!/usr/bin/env bash
# e2e (#32): the namespace an object without metadata.namespace went to is part of what diff and sync
# compare. The state records the context namespace of the sync that wrote it (_metadata.contextNamespace);
# a later run in another context namespace (-n, or the kubeconfig context's) shows the object moving
# (added there, removed here), applies it there, and deletes the old one only with --prune. The old object
# stays recorded under a key naming its namespace (the Go tool's 6-part form) until then, also when the
# sync into the new namespace fails. Tables and sync lines show where objects are. Takes about 15 s.
source "$(dirname "$0")/lib.sh"

m=nm$RANDOM
a=$(new_namespace nma)
b=$(new_namespace nmb)
c=$(new_namespace nmc)
missing=$(new_namespace nmx)  # never created
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
tazuna_yaml "$repo" "{name: $m, type: manifests, path: ./objs}"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: free\ndata:\n  v: "1"\n' > "$repo/objs/free.yaml"
printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: %s-role\nrules: []\n' "$m" \
  > "$repo/objs/role.yaml"
for ns in "$a" "$b" "$c"; do kubectl create namespace "$ns" >/dev/null; done
cd "$repo"
metadata_field() {  # the state's _metadata field $1
  kubectl get cm -n tazuna "tazuna-state-$m" -o jsonpath='{.data._metadata}' |
    python3 -c "import json,sys; print(json.load(sys.stdin).get('$1',''))"
}

# --- synced with -n A: recorded, listed and told where it went ---
expect_rc 0 "sync -n A" kubectl tazuna state sync -n "$a"
expect_contains "$OUT" "$m  configmap/free -n $a created" "the sync line names the namespace it went to"
expect_not_contains "$OUT" "clusterrole.rbac.authorization.k8s.io/$m-role -n" "a cluster-scoped object has no -n"
uid_a=$(uid cm free -n "$a")
[ -n "$uid_a" ] && pass "free is live in A" || fail "free not in A"
expect_eq "$(metadata_field contextNamespace)" "$a" "the state records the context namespace"
expect_eq "$(state_keys "$m")" "${m}____v1__ConfigMap__free ${m}__rbac.authorization.k8s.io__v1__ClusterRole__$m-role" \
  "keys stay the Go tool's (no namespace segment for a namespace-less object)"
expect_rc 0 "state list -n B" kubectl tazuna state list -n "$b" -o json
list_ns=$(printf '%s' "$OUT" | python3 -c 'import json,sys; print([i["namespace"] for i in json.load(sys.stdin)["items"] if i["name"]=="free"][0])')
expect_eq "$list_ns" "$a" "state list shows where the object is, whatever the context namespace now"
expect_rc 0 "drift -n B" kubectl tazuna state drift -n "$b"
expect_contains "$OUT" "No drift detected." "drift looks where the object is (not live-missing in B)"

# --- -n B: a move, shown by diff; a sync without --prune keeps the old object and its record ---
expect_rc 1 "diff -n B" kubectl tazuna state diff -n "$b"
expect_contains "$(printf '%s\n' "$OUT" | grep added)" "$b" "added in B"
expect_contains "$(printf '%s\n' "$OUT" | grep removed)" "$a" "removed from A"
expect_not_contains "$OUT" "No changes detected." "not 'no changes'"
expect_rc 0 "diff -n A (where it was synced)" kubectl tazuna state diff -n "$a"
expect_contains "$OUT" "No changes detected." "the same context namespace: nothing to do"
expect_rc 1 "sync -n B (the objects left in A are kept rows)" kubectl tazuna state sync -n "$b"
expect_contains "$OUT" "$m  configmap/free -n $b created" "created in B"
expect_contains "$OUT" "$m  configmap/free -n $a kept" "the old one is kept without --prune"
expect_eq "$(uid cm free -n "$a")" "$uid_a" "A's object untouched"
[ -n "$(uid cm free -n "$b")" ] && pass "free is live in B" || fail "free not in B"
expect_eq "$(metadata_field contextNamespace)" "$b" "the state records B now"
expect_contains "$(state_keys "$m")" "${m}____v1__ConfigMap__${a}__free" "A's object recorded under a key naming A"
expect_contains "$(state_keys "$m")" "${m}____v1__ConfigMap__free" "B's under the namespace-less key"
expect_rc 1 "diff -n B after the sync" kubectl tazuna state diff -n "$b"
expect_eq "$(printf '%s\n' "$OUT" | grep -c ' free$')" "1" "one row left: the kept object in A"

# --- --prune deletes the old one, and only it ---
expect_rc 0 "sync -n B --prune" kubectl tazuna state sync -n "$b" --prune
expect_contains "$OUT" "$m  configmap/free -n $a deleted" "A's object pruned"
[ -z "$(uid cm free -n "$a")" ] && pass "gone from A" || fail "still in A"
[ -n "$(uid cm free -n "$b")" ] && pass "still live in B" || fail "B's object gone"
[ -n "$(uid clusterrole "$m-role")" ] && pass "cluster-scoped object untouched" || fail "ClusterRole gone"
expect_rc 0 "diff -n B after the prune" kubectl tazuna state diff -n "$b"
expect_contains "$OUT" "No changes detected." "nothing left to do"

# --- the kubeconfig context's namespace counts as -n does ---
kcfg=$E2E_TMP/kubeconfig
cp "$KUBECONFIG" "$kcfg"
KUBECONFIG=$kcfg kubectl config set-context --current --namespace="$c" >/dev/null
uid_b=$(uid cm free -n "$b")
main_kubeconfig=$KUBECONFIG
export KUBECONFIG=$kcfg
expect_rc 1 "diff in context namespace C" kubectl tazuna state diff
expect_contains "$(printf '%s\n' "$OUT" | grep added)" "$c" "added in C"
expect_rc 0 "sync in context namespace C --prune" kubectl tazuna state sync --prune
export KUBECONFIG=$main_kubeconfig
[ -n "$(uid cm free -n "$c")" ] && pass "free is live in C" || fail "free not in C"
[ -z "$(uid cm free -n "$b")" ] && pass "gone from B" || fail "still in B (uid $uid_b)"
expect_eq "$(metadata_field contextNamespace)" "$c" "the state records C"

# --- a sync into a namespace that does not exist fails; the old object stays recorded ---
uid_c=$(uid cm free -n "$c")
expect_rc 1 "sync -n MISSING --prune fails" kubectl tazuna state sync -n "$missing" --prune
expect_eq "$(uid cm free -n "$c")" "$uid_c" "C's object untouched"
expect_contains "$(state_keys "$m")" "${m}____v1__ConfigMap__${c}__free" "C's object still recorded"
expect_rc 0 "diff -n C after the failed move" kubectl tazuna state diff -n "$c"
expect_contains "$OUT" "No changes detected." "back in C: the same object, nothing to do"
expect_rc 0 "sync -n C" kubectl tazuna state sync -n "$c"
expect_eq "$(uid cm free -n "$c")" "$uid_c" "still the same object in C"

# --- a state that recorded no namespace (the Go tool's writes drop the field) records one only where true ---
g=${m}g
mkdir -p "$E2E_TMP/go/objs" && cd "$E2E_TMP/go"
tazuna_yaml . "{name: $g, type: manifests, path: ./objs}"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: gfree\n' > objs/gfree.yaml
expect_rc 0 "sync -n C (manifest $g)" kubectl tazuna state sync -n "$c"
uid_g=$(uid cm gfree -n "$c")
meta=$(kubectl get cm -n tazuna "tazuna-state-$g" -o jsonpath='{.data._metadata}' |
  python3 -c 'import json,sys; d=json.load(sys.stdin); d.pop("contextNamespace"); print(json.dumps(json.dumps(d)))')
kubectl patch cm -n tazuna "tazuna-state-$g" --type merge -p "{\"data\":{\"_metadata\":$meta}}" >/dev/null
m=$g
expect_eq "$(metadata_field contextNamespace)" "" "the field is gone (as a Go tool write leaves it)"
expect_rc 0 "sync -n B of a state that recorded none, its object in C" kubectl tazuna state sync -n "$b"
expect_contains "$ERR" "Warning: manifest \"$g\": ConfigMap gfree is recorded without a namespace and is not in the context namespace \"$b\"" \
  "says where its objects are is not known"
expect_eq "$(metadata_field contextNamespace)" "" "nothing recorded that is not known"
expect_eq "$(uid cm gfree -n "$c")" "$uid_g" "C's object untouched"
expect_rc 0 "sync -n C of a state that recorded none, its object in C" kubectl tazuna state sync -n "$c"
expect_not_contains "$ERR" "recorded without a namespace" "no warning where the objects are"
expect_eq "$(metadata_field contextNamespace)" "$c" "C recorded once its objects are found there"

kubectl delete namespace "$a" "$b" "$c" --wait=false >/dev/null 2>&1
kubectl delete clusterrole "$m-role" >/dev/null 2>&1
finish
