#!/usr/bin/env bash
# state sync: create, no-op, configure, keep/prune, CRD + CR and Namespace + objects in one run,
# apiVersion change, dry run, viewer.
source "$(dirname "$0")/lib.sh"

m=sync$RANDOM
ns=$(new_namespace sy)
repo=$E2E_TMP/repo
group=t$RANDOM.tazuna.io
one_manifest "$repo" "$m"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" > "$repo/objs/00-ns.yaml"
crd_doc gadgets "$group" Gadget Namespaced v1:true:true v2:true:false > "$repo/objs/10-crd.yaml"
printf 'apiVersion: %s/v1\nkind: Gadget\nmetadata: {name: g1, namespace: %s}\nspec: {size: 1}\n' "$group" "$ns" > "$repo/objs/20-cr.yaml"
{ cm_doc settings "$ns" '{mode: "blue"}'; cm_doc extra "$ns" '{x: "1"}'; deployment_doc web "$ns"; } > "$repo/objs/30-app.yaml"
cd "$repo"

expect_rc 0 "first sync: Namespace, CRD, custom resource and objects in one run" kubectl tazuna state sync
expect_contains "$OUT" "$m  namespace/$ns created" "namespace created"
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/gadgets.$group created" "CRD created"
expect_contains "$OUT" "gadget.$group/g1 -n $ns created" "custom resource created in the same run"
expect_contains "$OUT" "deployment.apps/web -n $ns created" "deployment created"
expect_contains "$ERR" "sync: 6 created" "summary on stderr"
expect_rc 0 "objects exist" kubectl get -n "$ns" configmap/settings configmap/extra deployment/web "gadgets.$group/g1"
mgr=$(kubectl get cm -n "$ns" settings -o jsonpath='{.metadata.managedFields[0].manager}')
expect_eq "$mgr" "tazuna" "applied with field manager tazuna"

rvs() { kubectl get -n "$ns" configmap/settings configmap/extra deployment/web "gadgets.$group/g1" -o jsonpath='{range .items[*]}{.metadata.resourceVersion} {end}'; }
before=$(rvs)
expect_rc 0 "second sync" kubectl tazuna state sync
expect_contains "$OUT" "configmap/settings -n $ns unchanged" "second sync reports unchanged"
expect_not_contains "$OUT" "created" "second sync creates nothing"
expect_eq "$(rvs)" "$before" "second sync writes no object (resourceVersions unchanged)"
expect_rc 0 "diff after sync" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "state matches the render after sync"

sed -i 's/mode: "blue"/mode: "green"/' objs/30-app.yaml
expect_rc 0 "sync a modified object" kubectl tazuna state sync
expect_contains "$OUT" "configmap/settings -n $ns configured" "modified object configured"
expect_eq "$(kubectl get cm -n "$ns" settings -o jsonpath='{.data.mode}')" "green" "new value applied"

python3 - objs/30-app.yaml <<'EOF'
import sys
p=sys.argv[1]; docs=open(p).read().split('---\n')
open(p,'w').write('---\n'.join(d for d in docs if 'name: extra' not in d))
EOF
expect_rc 1 "sync without prune keeps a removed object (exit 1: a kept row)" kubectl tazuna state sync
expect_contains "$OUT" "configmap/extra -n $ns kept (pass --prune or TAZUNA_STATE_SYNC_DELETE=true to delete)" "kept line"
expect_rc 0 "kept object still exists" kubectl get cm -n "$ns" extra
expect_rc 1 "kept object stays in state (diff shows removed)" kubectl tazuna state diff
expect_contains "$OUT" "removed" "still removed in diff"
expect_rc 0 "dry-run prune" kubectl tazuna state sync --prune --dry-run=server
expect_rc 0 "dry-run leaves the object" kubectl get cm -n "$ns" extra
expect_rc 0 "sync --prune deletes it" kubectl tazuna state sync --prune
expect_contains "$OUT" "configmap/extra -n $ns deleted" "deleted line"
expect_rc 1 "pruned object is gone" kubectl get cm -n "$ns" extra

# TAZUNA_STATE_SYNC_DELETE=true means --prune.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: temp, namespace: %s}\ndata: {a: "1"}\n' "$ns" > objs/40-temp.yaml
expect_rc 0 "sync adds temp" kubectl tazuna state sync
rm objs/40-temp.yaml
TAZUNA_STATE_SYNC_DELETE=true expect_rc 0 "sync with TAZUNA_STATE_SYNC_DELETE=true" kubectl tazuna state sync
expect_contains "$OUT" "configmap/temp -n $ns deleted" "env var prunes"

# apiVersion change with --prune never deletes the object.
sed -i "s#apiVersion: $group/v1#apiVersion: $group/v2#" objs/20-cr.yaml
expect_rc 1 "diff shows the apiVersion change as one modified row" kubectl tazuna state diff -o json
changes=$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(i["change"]+":"+i["apiVersion"] for i in json.load(sys.stdin)["items"]))')
expect_eq "$changes" "modified:$group/v2" "one modified row for the apiVersion change"
expect_rc 0 "sync --prune after apiVersion change" kubectl tazuna state sync --prune
expect_not_contains "$OUT" "deleted" "nothing deleted"
expect_rc 0 "custom resource still exists" kubectl get "gadgets.$group" -n "$ns" g1
expect_rc 0 "no diff afterwards" kubectl tazuna state diff

# --dry-run=server changes neither objects nor state.
sed -i 's/mode: "green"/mode: "red"/' objs/30-app.yaml
state_rv=$(kubectl get cm -n tazuna "tazuna-state-$m" -o jsonpath='{.metadata.resourceVersion}')
expect_rc 1 "state diff --show-changes" kubectl tazuna state diff --show-changes
expect_contains "$OUT" "-  mode: green" "unified diff shows the live value"
expect_contains "$OUT" "+  mode: red" "unified diff shows the dry-run result"
expect_not_contains "$OUT" "managedFields" "managedFields dropped"
expect_eq "$(echo "$OUT" | grep -c '^[-+].*tazuna.pepabo.com/origin')" 0 "the origin mark is no change (the sync keeps it)"
expect_rc 0 "dry run" kubectl tazuna state sync --dry-run=server
expect_contains "$OUT" "configured (server dry run)" "dry run reports what it would do"
expect_eq "$(kubectl get cm -n "$ns" settings -o jsonpath='{.data.mode}')" "green" "dry run leaves the object"
expect_eq "$(kubectl get cm -n tazuna "tazuna-state-$m" -o jsonpath='{.metadata.resourceVersion}')" "$state_rv" "dry run leaves the state"

# The viewer cannot write: Forbidden, nothing half-written.
expect_rc 2 "viewer sync fails" kubectl tazuna state sync --context viewer
expect_contains "$ERR" "Forbidden" "viewer gets Forbidden"
expect_eq "$(kubectl get cm -n "$ns" settings -o jsonpath='{.data.mode}')" "green" "viewer changed nothing"
expect_eq "$(kubectl get cm -n tazuna "tazuna-state-$m" -o jsonpath='{.metadata.resourceVersion}')" "$state_rv" "viewer left the state"

# Bad input writes nothing.
echo "spec: {manifests: [{name: 'bad name', type: manifests, path: x}]}" > "$E2E_TMP/bad.yaml"
expect_rc 2 "invalid tazuna.yaml" kubectl tazuna state sync -f "$E2E_TMP/bad.yaml"
expect_rc 2 "invalid --dry-run" kubectl tazuna state sync --dry-run=client
expect_contains "$ERR" "Did you mean --dry-run=server?" "dry-run hint"

# An object the server rejects: reported with its manifest, the rest still complete, exit 1.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "Bad_Name", namespace: %s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: fine, namespace: %s}\n' "$ns" "$ns" > objs/50-mixed.yaml
expect_rc 1 "sync with one invalid object" kubectl tazuna state sync
expect_contains "$ERR" "manifest \"$m\"" "error names the manifest"
expect_contains "$ERR" "Invalid" "error in kubectl's words"
expect_contains "$OUT" "configmap/fine -n $ns created" "other objects still complete"
expect_rc 1 "state records exactly what was applied" kubectl tazuna state diff -o json
remaining=$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(i["change"]+":"+i["name"] for i in json.load(sys.stdin)["items"]))')
expect_eq "$remaining" "added:Bad_Name" "only the rejected object is still to do"
rm objs/50-mixed.yaml

# Context guard: context_matches is checked before anything is written.
cat > "$E2E_TMP/guard.yaml" <<EOF
spec:
  context_matches: ["prod-.*"]
  manifests:
    - {name: ${m}-guard, type: manifests, path: $repo/objs}
EOF
expect_rc 2 "context_matches guard" kubectl tazuna state sync -f "$E2E_TMP/guard.yaml"
expect_rc 1 "guard wrote no state" kubectl get cm -n tazuna "tazuna-state-${m}-guard"

kubectl tazuna state sync --prune -f <(printf 'spec: {manifests: [{name: %s, type: manifests, path: %s}]}\n' "$m" "$E2E_TMP/none") >/dev/null 2>&1
kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete crd "gadgets.$group" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
