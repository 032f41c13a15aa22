#!/usr/bin/env bash
# Prune that cannot hurt: one identity for stored and rendered keys, deletes only of what tazuna manages,
# no prune after a failed apply, guards for CRDs, Namespaces and empty renders, `state forget`.
# Every case inspects the live objects afterwards (uids), not only exit codes.
source "$(dirname "$0")/lib.sh"

ns=$(new_namespace pr)
kubectl create namespace "$ns" >/dev/null
s=$RANDOM
zeros=0000000000000000000000000000000000000000000000000000000000000000

# --- 1. State in the Go tool's format: a ClusterRole under a 6-part key, a namespaced object whose YAML has
# no namespace (applied into the context namespace) stored with that namespace. Both live objects were
# applied by the Go tool (field manager tazuna).
L=legacy$s
repo=$E2E_TMP/legacy; one_manifest "$repo" "$L"
cat > "$repo/objs/a.yaml" <<EOF
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: tazuna-e2e-$s}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ctxcfg}
data: {a: "1"}
EOF
kubectl apply --server-side --field-manager=tazuna -n "$ns" -f "$repo/objs/a.yaml" >/dev/null
cr_uid=$(uid clusterrole "tazuna-e2e-$s"); cm_uid=$(uid -n "$ns" cm ctxcfg)
kubectl get ns tazuna >/dev/null 2>&1 || kubectl create ns tazuna >/dev/null
go_state "$L" 2026-01-01T00:00:00Z "" "${L}__rbac.authorization.k8s.io__v1__ClusterRole__default__tazuna-e2e-$s=$zeros" \
  "${L}____v1__ConfigMap__${ns}__ctxcfg=$zeros"
cd "$repo"
expect_rc 1 "Go-format state: diff pairs both keys with the rendered objects" kubectl tazuna state diff -n "$ns"
expect_not_contains "$OUT" "added" "no added row for an object stored under another key form"
expect_not_contains "$OUT" "removed" "no removed row either"
expect_rc 0 "Go-format state: sync --prune" kubectl tazuna state sync --prune -n "$ns"
expect_not_contains "$OUT" "deleted" "nothing deleted"
expect_eq "$(uid clusterrole "tazuna-e2e-$s")" "$cr_uid" "ClusterRole under a 6-part key kept (same uid)"
expect_eq "$(uid -n "$ns" cm ctxcfg)" "$cm_uid" "context-namespace ConfigMap kept (same uid)"
expect_rc 0 "next diff is clean" kubectl tazuna state diff -n "$ns"
expect_eq "$OUT" "No changes detected." "no changes detected"
expect_contains "$(state_keys "$L")" "${L}__rbac.authorization.k8s.io__v1__ClusterRole__default__tazuna-e2e-$s" \
  "the Go tool's key string is kept as written"
expect_rc 0 "drift finds the objects through their stored keys" kubectl tazuna state drift -n "$ns"
expect_rc 0 "second sync --prune" kubectl tazuna state sync --prune -n "$ns"
expect_eq "$(uid clusterrole "tazuna-e2e-$s")" "$cr_uid" "ClusterRole still there after a second prune"
kubectl delete clusterrole "tazuna-e2e-$s" >/dev/null

# --- 2. A cluster-scoped custom resource whose CRD another manifest applies in the same run.
group=pr$s.tazuna.io
repo=$E2E_TMP/crd; mkdir -p "$repo/crds" "$repo/crs"
tazuna_yaml "$repo" "{name: crds$s, type: manifests, path: ./crds}" \
  "{name: crs$s, type: manifests, path: ./crs, manifests: {defaultNamespace: $ns}}"
crd_doc knobs "$group" Knob Cluster v1:true:true > "$repo/crds/crd.yaml"
printf 'apiVersion: %s/v1\nkind: Knob\nmetadata: {name: k1}\nspec: {x: 1}\n' "$group" > "$repo/crs/knob.yaml"
cd "$repo"
expect_rc 0 "first sync --prune: CRD and its cluster-scoped CR in one run" kubectl tazuna state sync --prune
knob_uid=$(uid "knobs.$group" k1)
expect_contains "$OUT" "knob.$group/k1 created" "custom resource created"
expect_rc 0 "second sync --prune" kubectl tazuna state sync --prune
expect_not_contains "$OUT" "deleted" "second sync deletes nothing"
expect_eq "$(uid "knobs.$group" k1)" "$knob_uid" "cluster-scoped CR kept (same uid)"
expect_rc 0 "no false diff for the cluster-scoped CR" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "diff clean after both syncs"

# --- 3. A CRD with a custom resource tazuna does not record is kept, with the count.
kubectl apply -f - >/dev/null <<EOF
apiVersion: $group/v1
kind: Knob
metadata: {name: handmade}
EOF
rm "$repo/crds/crd.yaml" "$repo/crs/knob.yaml"
printf '# nothing here any more\n' > "$repo/crds/empty.yaml"
printf '# nothing here any more\n' > "$repo/crs/empty.yaml"
expect_rc 1 "an empty render is refused without --allow-empty" kubectl tazuna state sync --prune
expect_contains "$OUT" "kept (not pruned: the manifest renders no objects; pass --allow-empty to prune it)" "kept row says why"
expect_contains "$ERR" "not pruned" "error line names the refusal"
expect_eq "$(uid "knobs.$group" k1)" "$knob_uid" "empty render deleted nothing"
expect_rc 0 "crd exists" kubectl get crd "knobs.$group"
expect_rc 1 "--allow-empty prunes, but the CRD with a foreign CR stays (kept rows exit 1)" kubectl tazuna state sync --prune --allow-empty
expect_contains "$OUT" "knob.$group/k1 deleted" "the recorded CR is deleted"
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/knobs.$group kept (1 custom resource of it exists)" \
  "CRD kept with the count"
expect_rc 0 "CRD still exists" kubectl get crd "knobs.$group"
expect_rc 0 "the foreign CR still exists" kubectl get "knobs.$group" handmade
expect_rc 1 "the recorded CR is gone" kubectl get "knobs.$group" k1
kubectl delete "knobs.$group" handmade >/dev/null
expect_rc 0 "with no CR left the CRD is pruned" kubectl tazuna state sync --prune --allow-empty
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/knobs.$group deleted" "CRD deleted"

# --- 4. An object moved from manifest a to manifest b, then `sync --prune -m a`.
A=mova$s; B=movb$s
repo=$E2E_TMP/move; mkdir -p "$repo/a" "$repo/b"
tazuna_yaml "$repo" "{name: $A, type: manifests, path: ./a}" "{name: $B, type: manifests, path: ./b}"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mover, namespace: %s}\ndata: {a: "1"}\n' "$ns" > "$repo/a/m.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: stay, namespace: %s}\n' "$ns" > "$repo/b/s.yaml"
cd "$repo"
expect_rc 0 "sync both manifests" kubectl tazuna state sync
mover_uid=$(uid -n "$ns" cm mover)
mv "$repo/a/m.yaml" "$repo/b/m.yaml"
printf '# moved to b\n' > "$repo/a/empty.yaml"
expect_rc 1 "sync --prune -m a --allow-empty after the move (kept rows exit 1)" kubectl tazuna state sync --prune -m "$A" --allow-empty
expect_contains "$OUT" "configmap/mover -n $ns kept (still rendered by manifest \"$B\")" "kept: rendered by b"
expect_eq "$(uid -n "$ns" cm mover)" "$mover_uid" "moved object still there (same uid)"
expect_rc 0 "sync -m b takes it over" kubectl tazuna state sync --prune -m "$B"
expect_eq "$(uid -n "$ns" cm mover)" "$mover_uid" "moved object still there after b's sync"
expect_rc 0 "diff clean after the move" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "no rows left for the moved object"

# --- 5. apiVersion and group changes with --prune keep the live object (same uid).
V=ver$s
vgroup=vr$s.tazuna.io
repo=$E2E_TMP/ver; one_manifest "$repo" "$V"
crd_doc dials "$vgroup" Dial Namespaced v1:true:true v2:true:false > "$repo/objs/0-crd.yaml"
printf 'apiVersion: %s/v1\nkind: Dial\nmetadata: {name: d1, namespace: %s}\nspec: {x: 1}\n' "$vgroup" "$ns" > "$repo/objs/1-dial.yaml"
event() {  # event APIVERSION REGARDING REPORTER NOTE: Event ev$s as that API writes it (its names for three fields)
  printf 'apiVersion: %s\nkind: Event\nmetadata: {name: ev%s, namespace: %s}\n%s: {apiVersion: v1, kind: ConfigMap, name: stay, namespace: %s}\neventTime: "2026-01-01T00:00:00.000000Z"\n%s: tazuna.test/e2e\nreportingInstance: e2e\naction: Testing\nreason: Tested\n%s: hello\ntype: Normal\n' \
    "$1" "$s" "$ns" "$2" "$ns" "$3" "$4" > "$repo/objs/2-event.yaml"
}
event v1 involvedObject reportingComponent message
cd "$repo"
expect_rc 0 "sync the versioned objects" kubectl tazuna state sync
dial_uid=$(uid -n "$ns" "dials.$vgroup" d1); ev_uid=$(uid -n "$ns" event "ev$s")
sed -i "s#apiVersion: $vgroup/v1#apiVersion: $vgroup/v2#" "$repo/objs/1-dial.yaml"
event events.k8s.io/v1 regarding reportingController note
expect_rc 1 "diff: version and group changes are modified rows, nothing removed" kubectl tazuna state diff -o json
changes=$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(sorted(i["change"]+":"+i["kind"] for i in json.load(sys.stdin)["items"])))')
expect_eq "$changes" "modified:Dial modified:Event" "one modified row each"
expect_rc 0 "sync --prune after the version and group changes" kubectl tazuna state sync --prune
expect_not_contains "$OUT" "deleted" "nothing deleted"
expect_eq "$(uid -n "$ns" "dials.$vgroup" d1)" "$dial_uid" "custom resource keeps its uid across an apiVersion change"
expect_eq "$(uid -n "$ns" event "ev$s")" "$ev_uid" "Event keeps its uid across a group change"
expect_contains "$(state_keys "$V")" "${V}__events.k8s.io__v1__Event__${ns}__ev$s" "state holds the new group's key"
expect_not_contains "$(state_keys "$V")" "${V}____v1__Event" "and not the old one"
expect_rc 0 "diff clean afterwards" kubectl tazuna state diff

# A key under a group that no longer serves the kind (an Ingress recorded under extensions/v1beta1 by an
# old tool) and the same Ingress rendered under networking.k8s.io: one object, kept.
cat > "$repo/objs/3-ingress.yaml" <<EOF
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web$s, namespace: $ns}
spec: {defaultBackend: {service: {name: web, port: {number: 80}}}}
EOF
kubectl apply --server-side --field-manager=tazuna -f "$repo/objs/3-ingress.yaml" >/dev/null
ing_uid=$(uid -n "$ns" ingress "web$s")
kubectl patch cm -n tazuna "tazuna-state-$V" --type merge \
  -p "{\"data\":{\"${V}__extensions__v1beta1__Ingress__${ns}__web$s\":\"{\\\"contentHash\\\":\\\"$zeros\\\"}\"}}" >/dev/null
expect_rc 1 "diff: the old group's key and the rendered Ingress are one modified row" kubectl tazuna state diff -o json
changes=$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(sorted(i["change"]+":"+i["kind"] for i in json.load(sys.stdin)["items"])))')
expect_eq "$changes" "modified:Ingress" "no added plus removed pair"
expect_rc 0 "sync --prune" kubectl tazuna state sync --prune
expect_eq "$(uid -n "$ns" ingress "web$s")" "$ing_uid" "the Ingress keeps its uid"
expect_not_contains "$(state_keys "$V")" "__extensions__" "the old group's key is replaced"

# --- 6. A renamed object whose replacement the apiserver rejects: no prune after a failed apply.
R=ren$s
repo=$E2E_TMP/rename; one_manifest "$repo" "$R"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: oldname, namespace: %s}\n' "$ns" > "$repo/objs/c.yaml"
cd "$repo"
expect_rc 0 "sync the original" kubectl tazuna state sync
old_uid=$(uid -n "$ns" cm oldname)
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: New_Name, namespace: %s}\n' "$ns" > "$repo/objs/c.yaml"
expect_rc 1 "sync --prune with a rejected replacement" kubectl tazuna state sync --prune
expect_contains "$OUT" "configmap/oldname -n $ns kept (not pruned: 1 apply failed)" "kept row says why"
expect_eq "$(uid -n "$ns" cm oldname)" "$old_uid" "the old object is still there"
expect_contains "$(state_keys "$R")" "__oldname" "its state entry is kept"

# --- 7. Objects tazuna does not manage: one kubectl created and wrote into state by hand, one deleted and
# recreated by kubectl after tazuna applied it.
U=unm$s
repo=$E2E_TMP/unmanaged; one_manifest "$repo" "$U"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: recreated, namespace: %s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep, namespace: %s}\n' "$ns" "$ns" > "$repo/objs/c.yaml"
cd "$repo"
expect_rc 0 "sync" kubectl tazuna state sync
kubectl create configmap -n "$ns" handmade >/dev/null
hand_uid=$(uid -n "$ns" cm handmade)
kubectl patch cm -n tazuna "tazuna-state-$U" --type merge \
  -p "{\"data\":{\"${U}____v1__ConfigMap__${ns}__handmade\":\"{\\\"contentHash\\\":\\\"$zeros\\\"}\"}}" >/dev/null
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep, namespace: %s}\n' "$ns" > "$repo/objs/c.yaml"
kubectl delete cm -n "$ns" recreated >/dev/null && kubectl create configmap -n "$ns" recreated >/dev/null
re_uid=$(uid -n "$ns" cm recreated)
expect_rc 1 "dry-run prune lists what it would do (kept rows exit 1)" kubectl tazuna state sync --prune --dry-run=server
expect_contains "$OUT" "configmap/handmade -n $ns kept (not managed by tazuna)" "dry run: kept with the reason"
expect_rc 1 "sync --prune (kept rows exit 1)" kubectl tazuna state sync --prune
expect_contains "$OUT" "configmap/handmade -n $ns kept (not managed by tazuna)" "kubectl-created object kept"
expect_contains "$OUT" "configmap/recreated -n $ns kept (not managed by tazuna)" "recreated object kept"
expect_contains "$ERR" "kubectl tazuna state forget '$U//v1/ConfigMap/$ns/handmade'" "hint names state forget"
expect_eq "$(uid -n "$ns" cm handmade)" "$hand_uid" "kubectl-created object untouched"
expect_eq "$(uid -n "$ns" cm recreated)" "$re_uid" "recreated object untouched"
expect_contains "$(state_keys "$U")" "__handmade" "its entry stays until the user removes it"
expect_rc 0 "state forget the kept key" kubectl tazuna state forget "$U//v1/ConfigMap/$ns/handmade"
expect_eq "$OUT" "forgot $U//v1/ConfigMap/$ns/handmade" "forget reports the key"
expect_not_contains "$(state_keys "$U")" "__handmade" "state shrank"
expect_eq "$(uid -n "$ns" cm handmade)" "$hand_uid" "forget left the object"
expect_rc 0 "state forget -m with the resource part" kubectl tazuna state forget -m "$U" "/v1/ConfigMap/$ns/recreated"
expect_not_contains "$(state_keys "$U")" "__recreated" "second key forgotten"
expect_rc 2 "forgetting an unknown key fails" kubectl tazuna state forget "$U//v1/ConfigMap/$ns/nope"
expect_contains "$ERR" "error: no state entry" "names the missing key"
expect_rc 2 "forget needs keys or --orphaned" kubectl tazuna state forget

# --- 8. state forget --orphaned drops the state of manifests tazuna.yaml no longer names: not while an object it
# recorded lives (it would run on, tracked by nothing), unless --leave-objects says to.
tazuna_yaml "$repo" "{name: other$s, type: manifests, path: ./objs}"
expect_rc 2 "forget --orphaned refuses while an object lives" kubectl tazuna state forget --orphaned
expect_contains "$ERR" "manifest \"$U\": 1 object it recorded still live (configmap/keep -n $ns); nothing was forgotten" "naming it"
expect_rc 0 "the state stays" kubectl get cm -n tazuna "tazuna-state-$U"
expect_rc 0 "forget --orphaned --leave-objects" kubectl tazuna state forget --orphaned --leave-objects
expect_contains "$OUT" "forgot manifest \"$U\"" "orphaned manifest forgotten"
expect_rc 1 "its state ConfigMap is gone" kubectl get cm -n tazuna "tazuna-state-$U"
expect_rc 0 "its objects are untouched" kubectl get cm -n "$ns" keep handmade recreated

# --- 9. A Namespace that still holds rendered objects is not pruned.
N=nsg$s
nsx=$(new_namespace prx)
repo=$E2E_TMP/nsguard; mkdir -p "$repo/a" "$repo/b"
tazuna_yaml "$repo" "{name: $N, type: manifests, path: ./a}" "{name: ${N}b, type: manifests, path: ./b}"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$nsx" > "$repo/a/ns.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: inside, namespace: %s}\n' "$nsx" > "$repo/b/c.yaml"
cd "$repo"
expect_rc 0 "sync namespace and its object" kubectl tazuna state sync
printf '# gone\n' > "$repo/a/ns.yaml"
expect_rc 1 "sync --prune --allow-empty (kept rows exit 1)" kubectl tazuna state sync --prune --allow-empty
expect_contains "$OUT" "namespace/$nsx kept (1 rendered objects live in it)" "namespace kept with the reason"
expect_rc 0 "namespace and its object still there" kubectl get cm -n "$nsx" inside
kubectl delete ns "$nsx" --wait=false >/dev/null

# --- 10. A failed dependsOn layer stops the layers after it.
D=dep$s
repo=$E2E_TMP/depends; mkdir -p "$repo/a" "$repo/b"
tazuna_yaml "$repo" "{name: $D, type: manifests, path: ./a}" "{name: ${D}b, type: manifests, path: ./b, dependsOn: [$D]}"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Bad_Name, namespace: %s}\n' "$ns" > "$repo/a/c.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: later, namespace: %s}\n' "$ns" > "$repo/b/c.yaml"
cd "$repo"
expect_rc 1 "sync with a failing first layer" kubectl tazuna state sync
expect_contains "$OUT" "${D}b  configmap/later -n $ns skipped (an earlier dependsOn layer failed)" "dependent layer skipped"
expect_rc 1 "the dependent object was not applied" kubectl get cm -n "$ns" later

# A CRD that serves none of its versions still stores its objects: a row of such a kind is neither paired
# with the same kind in another group (as if no object could be there) nor pruned as gone; once a version is
# served again, the prune deletes the object.
U=unsrv$s; ua=ua$s.tazuna.io; ub=ub$s.tazuna.io
ucrd() { crd_doc gadgets "$1" Gadget Namespaced "v1:$2:true"; }  # ucrd GROUP SERVED
{ ucrd "$ua" true; echo "---"; ucrd "$ub" true; } | kubectl apply -f - >/dev/null
established "gadgets.$ua" "gadgets.$ub"
repo=$E2E_TMP/unserved; one_manifest "$repo" "$U"
ugadget() { printf 'apiVersion: %s/v1\nkind: Gadget\nmetadata: {name: x, namespace: %s}\nspec: {size: 1}\n' "$1" "$ns" > "$repo/objs/x.yaml"; }
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ukeep, namespace: %s}\n' "$ns" > "$repo/objs/keep.yaml"
cd "$repo"
ugadget "$ua"
expect_rc 0 "gadget x synced in group $ua" kubectl tazuna state sync
ua_uid=$(uid "gadgets.$ua" -n "$ns" x)
ucrd "$ua" false | kubectl apply -f - >/dev/null  # x stays stored, unserved
ugadget "$ub"
expect_rc 1 "diff (fresh discovery): $ub's x is another object" kubectl tazuna state diff --cache-dir "$E2E_TMP/unserved-cache"
expect_eq "$(printf '%s\n' "$OUT" | grep -c "^$U *removed *$ua/v1 *Gadget")" "1" "the unserved row is not paired away"
rm "$repo/objs/x.yaml"
expect_rc 1 "sync --prune: the unserved gadget cannot be read" kubectl tazuna state sync --prune --cache-dir "$E2E_TMP/unserved-cache"
expect_contains "$ERR" "no version of Gadget.$ua is served, but CustomResourceDefinition gadgets.$ua still stores its objects" \
  "says why"
expect_contains "$(state_keys "$U")" "${U}__$ua" "its row stays"
ucrd "$ua" true | kubectl apply -f - >/dev/null
established "gadgets.$ua"
expect_rc 0 "served again: sync --prune" kubectl tazuna state sync --prune --cache-dir "$E2E_TMP/unserved-cache2"
expect_contains "$OUT" "gadget.$ua/x -n $ns deleted" "the prune deleted it"
expect_eq "$(uid "gadgets.$ua" -n "$ns" x)" "" "x ($ua_uid) is gone"
kubectl delete crd "gadgets.$ua" "gadgets.$ub" --wait=false >/dev/null 2>&1

kubectl delete ns "$ns" --wait=false >/dev/null
finish
