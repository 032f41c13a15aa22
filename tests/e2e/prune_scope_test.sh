#!/usr/bin/env bash
# Prune never beyond what is ours: protected Namespaces, a Namespace only with everything in it, a custom
# resource through the version that serves it now, state keys that name no reachable object, and Jobs
# recreated only for immutable fields. Every case checks the live cluster afterwards (uids, phases).
# About 60 s.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
ns=$(new_namespace ps)
kubectl create namespace "$ns" >/dev/null
phase() { kubectl get ns "$1" -o jsonpath='{.status.phase}' 2>/dev/null; }
nsdoc() { printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s, labels: {e2e-mark: "%s"}}\n---\n' "$1" "$s"; }
cm() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {v: "1"}\n---\n' "$1" "$2"; }
unmark_system_namespaces() {  # what case 1a applied to namespaces that outlive this test
  kubectl annotate ns tazuna kube-public tazuna.pepabo.com/manifest- tazuna.pepabo.com/origin- >/dev/null 2>&1
  kubectl label ns tazuna kube-public e2e-mark- app.kubernetes.io/managed-by- applyset.kubernetes.io/part-of- >/dev/null 2>&1
}
unmark_system_namespaces

# --- 1a. Namespaces tazuna and kube-public rendered (to label them), then no longer: never pruned.
P=prot$s
repo=$E2E_TMP/prot; one_manifest "$repo" "$P"
{ nsdoc tazuna; nsdoc kube-public; cm keep "$ns"; } > "$repo/objs/a.yaml"
cd "$repo"
expect_rc 0 "sync labels namespaces tazuna and kube-public" kubectl tazuna state sync
tazuna_uid=$(uid ns tazuna); public_uid=$(uid ns kube-public)
cm keep "$ns" > "$repo/objs/a.yaml"
expect_rc 1 "sync --prune after they left the manifest (kept rows exit 1)" kubectl tazuna state sync --prune
expect_contains "$OUT" "$P  namespace/tazuna kept (namespace tazuna is never pruned)" "tazuna kept, saying why"
expect_contains "$OUT" "$P  namespace/kube-public kept (namespace kube-public is never pruned)" "kube-public kept, saying why"
expect_eq "$(uid ns tazuna) $(phase tazuna)" "$tazuna_uid Active" "namespace tazuna: same uid, Active"
expect_eq "$(uid ns kube-public) $(phase kube-public)" "$public_uid Active" "namespace kube-public: same uid, Active"
expect_eq "$(state_keys "$P")" "${P}____v1__ConfigMap__${ns}__keep" "their entries are forgotten, the state is intact"
expect_rc 0 "the next diff is clean" kubectl tazuna state diff

# --- 1b. A Namespace that still holds someone else's ConfigMap is kept, naming it; its own objects go.
N=$(new_namespace nsa); C=nsa$s
repo=$E2E_TMP/nsa; one_manifest "$repo" "$C"
{ nsdoc "$N"; cm mine "$N"; } > "$repo/objs/a.yaml"
cd "$repo"
expect_rc 0 "sync a Namespace and a ConfigMap in it" kubectl tazuna state sync
kubectl create configmap -n "$N" foreign --from-literal=owner=someone-else >/dev/null
ns_uid=$(uid ns "$N"); foreign_uid=$(uid cm -n "$N" foreign)
cm "other-$C" "$ns" > "$repo/objs/a.yaml"
expect_rc 1 "dry run of the prune (kept rows exit 1)" kubectl tazuna state sync --prune --dry-run=server
expect_contains "$OUT" "namespace/$N kept (1 object not deleted by this run: configmap/foreign)" "the dry run shows the Namespace kept"
expect_rc 1 "sync --prune (kept rows exit 1)" kubectl tazuna state sync --prune
expect_contains "$OUT" "configmap/mine -n $N deleted" "its own ConfigMap is deleted"
expect_contains "$OUT" "namespace/$N kept (1 object not deleted by this run: configmap/foreign)" "the Namespace is kept, naming what lives there"
expect_eq "$(uid ns "$N") $(phase "$N")" "$ns_uid Active" "the Namespace: same uid, Active"
expect_eq "$(uid cm -n "$N" foreign)" "$foreign_uid" "the foreign ConfigMap: same uid"
expect_rc 1 "mine is gone" kubectl get cm -n "$N" mine

# --- 1c. A Namespace whose every object goes in this run (a Deployment's ReplicaSet and Pods too) is deleted.
N2=$(new_namespace nsb); D=nsb$s
repo=$E2E_TMP/nsb; one_manifest "$repo" "$D"
{ nsdoc "$N2"; cm cfg "$N2"; deployment_doc web "$N2" nginx; } > "$repo/objs/a.yaml"
cd "$repo"
expect_rc 0 "sync a Namespace with a Deployment, waiting until it is available" kubectl tazuna state sync --wait --timeout 90s
pods=$(kubectl get pods -n "$N2" -o name | wc -l); rs=$(kubectl get rs -n "$N2" -o name | wc -l)
if [ "$pods" -ge 1 ] && [ "$rs" -ge 1 ]; then pass "its ReplicaSet and Pod exist ($rs, $pods)"; else fail "no ReplicaSet or Pod ($rs, $pods)"; fi
cm "other-$D" "$ns" > "$repo/objs/a.yaml"
expect_rc 0 "sync --prune" kubectl tazuna state sync --prune
expect_contains "$OUT" "namespace/$N2 deleted" "the Namespace is deleted: what is left there was owned by what this run deleted"
case "$(phase "$N2")" in Terminating|"") pass "namespace $N2 is terminating or gone";; *) fail "namespace $N2 is $(phase "$N2")";; esac

# --- 1d. A custom resource someone made there, of a CRD installed after discovery was cached, keeps it.
N3=$(new_namespace nsc); E=nsc$s; group=nsc$s.tazuna.io
repo=$E2E_TMP/nsc; one_manifest "$repo" "$E"
nsdoc "$N3" > "$repo/objs/a.yaml"
cd "$repo"
expect_rc 0 "sync a Namespace" kubectl tazuna state sync
crd_doc gadgets "$group" Gadget Namespaced v1:true:true | kubectl apply -f - >/dev/null
established "gadgets.$group"
printf 'apiVersion: %s/v1\nkind: Gadget\nmetadata: {name: g1, namespace: %s}\n' "$group" "$N3" | kubectl apply -f - >/dev/null
g_uid=$(uid "gadgets.$group" -n "$N3" g1); ns3_uid=$(uid ns "$N3")
cm "other-$E" "$ns" > "$repo/objs/a.yaml"
expect_rc 1 "sync --prune (kept rows exit 1)" kubectl tazuna state sync --prune
expect_contains "$OUT" "namespace/$N3 kept (1 object not deleted by this run: gadget.$group/g1)" "kept, naming the custom resource"
expect_eq "$(uid ns "$N3") $(phase "$N3") $(uid "gadgets.$group" -n "$N3" g1)" "$ns3_uid Active $g_uid" "Namespace and Gadget stay"

# --- 4. A custom resource recorded under v1, after its CRD serves v2 only: found, drift-checked and
# deleted through v2, and `deleted` only once the server confirmed it.
V=ver$s; vgroup=ver$s.tazuna.io
crd() {  # crd SERVED_V1 (true|false)
  crd_doc things "$vgroup" Thing Namespaced "v1:$1:$1" "v2:true:$( [ "$1" = true ] && echo false || echo true )" |
    kubectl apply --server-side --force-conflicts --field-manager=e2e -f - >/dev/null
  established "things.$vgroup"
}
crd true
repo=$E2E_TMP/ver; one_manifest "$repo" "$V"
{ printf 'apiVersion: %s/v1\nkind: Thing\nmetadata: {name: t1, namespace: %s}\nspec: {size: 1}\n---\n' "$vgroup" "$ns"; cm vkeep "$ns"; } > "$repo/objs/a.yaml"
cd "$repo"
expect_rc 0 "sync a Thing under v1" kubectl tazuna state sync
expect_contains "$(state_keys "$V")" "${V}__${vgroup}__v1__Thing__${ns}__t1" "recorded under v1"
crd false
thing_uid=$(uid "things.v2.$vgroup" -n "$ns" t1)
if [ -n "$thing_uid" ]; then pass "the Thing lives on, served as v2 only"; else fail "no Thing under v2"; fi
cm vkeep "$ns" > "$repo/objs/a.yaml"
expect_rc 0 "drift finds it through v2" kubectl tazuna state drift
expect_eq "$OUT" "No drift detected." "not reported live-missing"
expect_rc 0 "sync --prune" kubectl tazuna state sync --prune
expect_contains "$OUT" "thing.$vgroup/t1 -n $ns deleted" "deleted"
expect_not_contains "$OUT" "already gone" "not claimed gone"
expect_rc 1 "the Thing is gone" kubectl get "things.v2.$vgroup" -n "$ns" t1
expect_not_contains "$(state_keys "$V")" "Thing" "and forgotten"

# --- 5. State keys whose names are not one path segment are errors naming the key, never requests.
K=keys$s
repo=$E2E_TMP/keys; one_manifest "$repo" "$K"
cm kkeep "$ns" > "$repo/objs/a.yaml"
cd "$repo"
expect_rc 0 "sync" kubectl tazuna state sync
# A ConfigMap that a request path `.../configmaps/x/../victim` would reach, marked as this manifest's.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: victim, namespace: %s, annotations: {tazuna.pepabo.com/manifest: %s}}\n' "$ns" "$K" |
  kubectl apply --server-side --field-manager=tazuna -f - >/dev/null
victim_uid=$(uid cm -n "$ns" victim)
zeros=0000000000000000000000000000000000000000000000000000000000000000
kubectl patch cm -n tazuna "tazuna-state-$K" --type merge -p "{\"data\":{
  \"${K}____v1__ConfigMap__${ns}__x__..__victim\":\"{\\\"contentHash\\\":\\\"$zeros\\\"}\",
  \"${K}____v1__ConfigMap__${ns}__victim_x3fdryRun_x3dAll\":\"{\\\"contentHash\\\":\\\"$zeros\\\"}\"}}" >/dev/null
expect_rc 1 "sync --prune with two unreachable keys" kubectl tazuna state sync --prune
expect_contains "$ERR" "invalid state key \"$K//v1/ConfigMap/$ns/x/../victim\": name \"x/../victim\": may not contain '/'" \
  "names the key with '..'"
expect_contains "$ERR" "invalid state key \"$K//v1/ConfigMap/$ns/victim?dryRun=All\": name \"victim?dryRun=All\": may not contain '?'" \
  "names the key with '?'"
expect_contains "$ERR" "kubectl tazuna state forget '$K//v1/ConfigMap/$ns/x/../victim'" "says how to drop it"
expect_eq "$(uid cm -n "$ns" victim)" "$victim_uid" "the ConfigMap such a path would reach stays"
expect_rc 2 "drift is an error naming a key too" kubectl tazuna state drift
expect_contains "$ERR" "invalid state key" "drift names it"
expect_rc 0 "forget drops them" kubectl tazuna state forget "$K//v1/ConfigMap/$ns/x/../victim" "$K//v1/ConfigMap/$ns/victim?dryRun=All"
expect_rc 0 "then sync --prune is clean" kubectl tazuna state sync --prune
expect_eq "$(uid cm -n "$ns" victim)" "$victim_uid" "and the ConfigMap still stays"

# --- 6. A Job is recreated only when the server says a field is immutable; any other Invalid leaves it.
J=job$s
repo=$E2E_TMP/job; one_manifest "$repo" "$J"
job() {  # job ENV_VALUE [EXTRA_SPEC]
  printf 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate, namespace: %s}\nspec:\n%s  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: m, image: busybox, env: [{name: A, value: "%s"}]}]\n' \
    "$ns" "${2:-}" "$1" > "$repo/objs/a.yaml"
}
job 1
cd "$repo"
expect_rc 0 "sync a Job" kubectl tazuna state sync
uid1=$(uid job -n "$ns" migrate)
job 2
expect_rc 0 "its template changed (immutable): recreated" kubectl tazuna state sync
uid2=$(uid job -n "$ns" migrate)
if [ -n "$uid2" ] && [ "$uid2" != "$uid1" ]; then pass "a new Job (uid changed)"; else fail "not recreated ($uid1 -> $uid2)"; fi
job 2 $'  parallelism: -1\n'
expect_rc 1 "an invalid parallelism (not an immutable field)" kubectl tazuna state sync
expect_contains "$ERR" "spec.parallelism" "the error names the field"
expect_eq "$(uid job -n "$ns" migrate)" "$uid2" "the live Job is left as it was"
job 3 $'  backoffLimit: -1\n'
expect_rc 1 "an immutable change together with an invalid field" kubectl tazuna state sync
expect_eq "$(uid job -n "$ns" migrate)" "$uid2" "the live Job is left as it was"

# A Job someone else made is never deleted to be created again, even when its immutable fields changed.
kubectl create job -n "$ns" theirs --image=busybox -- sleep 600 >/dev/null
theirs_uid=$(uid job -n "$ns" theirs)
printf 'apiVersion: batch/v1\nkind: Job\nmetadata: {name: theirs, namespace: %s}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: theirs, image: busybox, command: [sleep, "1"]}]\n' \
  "$ns" > "$repo/objs/a.yaml"
expect_rc 1 "sync of a changed Job made by kubectl" kubectl tazuna state sync
expect_contains "$ERR" "job.batch/theirs -n $ns: fields that cannot change changed, and the live Job is not tazuna's to delete and create again: managed by" \
  "refused"
expect_contains "$ERR" "kubectl-create" "naming who made it"
expect_eq "$(uid job -n "$ns" theirs)" "$theirs_uid" "their Job stays (same uid)"

# --- 7. A CRD none of whose versions is served keeps its custom resources: it is not pruned.
W=wid$s; wgroup=wid$s.tazuna.io
repo=$E2E_TMP/wid; one_manifest "$repo" "$W"
widgets() { crd_doc widgets "$wgroup" Widget Namespaced "v1:$1:true"; echo "---"; }  # widgets SERVED
{ widgets true; cm wkeep "$ns"; } > "$repo/objs/a.yaml"
cd "$repo"
expect_rc 0 "sync a CRD" kubectl tazuna state sync
printf 'apiVersion: %s/v1\nkind: Widget\nmetadata: {name: w1, namespace: %s}\n' "$wgroup" "$ns" | kubectl apply -f - >/dev/null
{ widgets false; cm wkeep "$ns"; } > "$repo/objs/a.yaml"
expect_rc 0 "no version served any more" kubectl tazuna state sync
crd_uid=$(uid crd "widgets.$wgroup")
cm wkeep "$ns" > "$repo/objs/a.yaml"
expect_rc 1 "sync --prune without the CRD (kept rows exit 1)" kubectl tazuna state sync --prune
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/widgets.$wgroup kept (cannot list its custom resources: no version of it is served)" \
  "kept: its custom resources cannot be counted"
expect_eq "$(uid crd "widgets.$wgroup")" "$crd_uid" "the CRD stays (same uid)"

cd "$E2E_TMP"
kubectl delete crd "gadgets.$group" "things.$vgroup" "widgets.$wgroup" --wait=false >/dev/null 2>&1
kubectl delete ns "$ns" "$N" "$N3" --wait=false >/dev/null 2>&1
unmark_system_namespaces
for m in "$P" "$C" "$D" "$E" "$V" "$K" "$J" "$W"; do kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1; done
finish
