#!/usr/bin/env bash
# state delete (uninstall) against the local control plane:
#  - an operator whose controller really runs (a process here, as its pod would: it clears its finalizer from
#    widgets being deleted and stops once its Deployment is gone): the widgets go before the operator, and
#    the cluster holds nothing of the manifest afterwards; its state goes; history records the uninstall;
#  - a custom resource whose controller is gone: named with its finalizer, nothing it may depend on deleted,
#    the state keeps exactly what remains; once the finalizer goes, a second run finishes;
#  - the guards of prune: another manifest's object, an object another repository marked, a protected
#    namespace, a Namespace holding objects of others, a CRD whose custom resources are others';
#  - dependsOn: the manifest depending on another goes first; one that does not finish keeps the other;
#  - driven by the state: a manifest gone from tazuna.yaml, one whose render fails, no tazuna.yaml at all;
#    --orphaned; --dry-run=server changes nothing; bad input;
#  - SIGKILL during an uninstall: running it again converges.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
repo=$E2E_TMP/r; mkdir -p "$repo"
repo_at "$repo" "https://example.com/platform-$s.git"
cd "$repo"

# --- an operator whose controller runs -------------------------------------------------------------------
ns=$(new_namespace op); g=w$s.example.com
mkdir -p op keep
crd_doc widgets "$g" Widget Namespaced v1:true:true > op/crd.yaml
{
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns"
  printf 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: widget-operator, namespace: %s}\n---\n' "$ns"
  deployment_doc widget-operator "$ns"
  cm_doc widget-config "$ns"
  for w in w1 w2 w3; do
    printf 'apiVersion: %s/v1\nkind: Widget\nmetadata: {name: %s, namespace: %s, finalizers: [example.com/cleanup]}\nspec: {size: 1}\n---\n' "$g" "$w" "$ns"
  done
} > op/objs.yaml
cm_doc kept-cm-$s default > keep/objs.yaml
tazuna_yaml "$repo" "{name: op$s, type: manifests, path: ./op}" "{name: keep$s, type: manifests, path: ./keep}"
expect_rc 0 "install the operator" kubectl tazuna state sync

controller() {  # as the operator's pod: finalizes widgets being deleted; stops once its Deployment is gone
  while kubectl get deploy widget-operator -n "$ns" >/dev/null 2>&1; do
    for w in $(kubectl get "widgets.$g" -n "$ns" -o jsonpath='{range .items[?(@.metadata.deletionTimestamp)]}{.metadata.name}{" "}{end}' 2>/dev/null); do
      kubectl patch "widgets.$g" "$w" -n "$ns" --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null 2>&1 &&
        echo "finalized $w" >> "$E2E_TMP/controller.log"
    done
    sleep 0.3
  done
  echo "stopped" >> "$E2E_TMP/controller.log"
}
controller & ctl=$!

# Retired: removed from tazuna.yaml.
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}"
expect_rc 0 "dry run" kubectl tazuna state delete -m "op$s" --dry-run=server
expect_contains "$OUT" "deployment.apps/widget-operator -n $ns deleted (server dry run)" "the dry run shows the delete"
expect_eq "$(jget deploy widget-operator -n "$ns" -o name)" "deployment.apps/widget-operator" "the dry run deleted nothing"
expect_eq "$(jget cm -n tazuna "tazuna-state-op$s" -o name)" "configmap/tazuna-state-op$s" "the dry run kept the state"
expect_rc 0 "uninstall the operator" kubectl tazuna state delete -m "op$s" --timeout 60s
wait "$ctl"
expect_eq "$(grep -c finalized "$E2E_TMP/controller.log")" "3" "the running controller finalized every widget"
expect_eq "$(tail -1 "$E2E_TMP/controller.log")" "stopped" "the controller stopped after (its Deployment went)"
first_cr=$(grep -n "widget.$g/" <<<"$OUT" | head -1 | cut -d: -f1)
deploy_row=$(grep -n "deployment.apps/widget-operator" <<<"$OUT" | cut -d: -f1)
crd_row=$(grep -n "customresourcedefinition" <<<"$OUT" | cut -d: -f1)
ns_row=$(grep -n "namespace/$ns" <<<"$OUT" | cut -d: -f1)
if [ "$first_cr" -lt "$deploy_row" ] && [ "$deploy_row" -lt "$crd_row" ] && [ "$crd_row" -lt "$ns_row" ]; then
  pass "rows in uninstall order: custom resources, the operator, its CRD, its Namespace"
else fail "uninstall order: $OUT"; fi
expect_eq "$(grep -c ' deleted$' <<<"$OUT")" "8" "every object deleted"
expect_eq "$(jget "widgets.$g" -A -o name; jget crd "widgets.$g" -o name; jget deploy,sa,cm -n "$ns" -o name)" "" "nothing of the manifest lives"
poll_until bash -c "! kubectl get ns $ns"
expect_eq "$(jget ns "$ns" -o name)" "" "its Namespace is gone"
expect_eq "$(jget cm -n tazuna "tazuna-state-op$s" -o name)" "" "its state is gone"
expect_contains "$ERR" "state of manifest \"op$s\" removed" "saying the state went"
expect_contains "$ERR" "delete: 8 deleted, 0 kept, 0 failed; 1 state removed" "the summary"
run kubectl tazuna state history -o json
expect_contains "$OUT" "\"op$s\"" "the history records the uninstall"
expect_rc 2 "a manifest with no state" kubectl tazuna state delete -m "op$s"
expect_contains "$ERR" "manifest \"op$s\" has no state in this cluster" "saying so"
expect_rc 0 "--ignore-not-found" kubectl tazuna state delete -m "op$s" --ignore-not-found
expect_eq "$(jget cm kept-cm-$s -n default -o name)" "configmap/kept-cm-$s" "the other manifest is untouched"

# --- a custom resource whose controller is gone ---------------------------------------------------------
ns2=$(new_namespace st); g2=st$s.example.com
mkdir -p stuck
crd_doc gizmos "$g2" Gizmo Namespaced v1:true:true > stuck/crd.yaml
{
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns2"
  deployment_doc gizmo-operator "$ns2"
  cm_doc c1 "$ns2"
  printf 'apiVersion: %s/v1\nkind: Gizmo\nmetadata: {name: g1, namespace: %s, finalizers: [example.com/hold]}\nspec: {a: 1}\n' "$g2" "$ns2"
} > stuck/objs.yaml
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: stuck$s, type: manifests, path: ./stuck}"
expect_rc 0 "install a manifest whose custom resource nothing finalizes" kubectl tazuna state sync
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}"
timed_rc 1 "uninstall with a stuck finalizer" "" kubectl tazuna state delete -m "stuck$s" --timeout 3s
took_within 3 30 "waited until --timeout"
expect_contains "$OUT" "gizmo.$g2/g1 -n $ns2 failed" "the custom resource fails"
expect_contains "$ERR" "waiting for finalizers example.com/hold" "naming its finalizer"
expect_contains "$OUT" "deployment.apps/gizmo-operator -n $ns2 kept (not deleted: 1 custom resource is still being deleted" "its operator is kept"
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/gizmos.$g2 kept (not deleted" "its CRD is kept"
expect_contains "$OUT" "namespace/$ns2 kept (not deleted" "its Namespace is kept"
expect_eq "$(jget deploy gizmo-operator -n "$ns2" -o name)" "deployment.apps/gizmo-operator" "the operator lives"
expect_eq "$(state_keys "stuck$s" | wc -w)" "5" "the state keeps exactly the five objects that remain"
expect_not_contains "$ERR" "state of manifest \"stuck$s\" removed" "the state is not removed"
kubectl patch "gizmo.$g2" g1 -n "$ns2" --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null
expect_rc 0 "uninstall again once the finalizer went" kubectl tazuna state delete -m "stuck$s" --timeout 10s
expect_contains "$OUT" "namespace/$ns2 deleted" "the Namespace goes"
expect_eq "$(jget cm -n tazuna "tazuna-state-stuck$s" -o name)" "" "the state is gone"

# --- dependsOn: the dependent manifest goes first; one that does not finish keeps the other -------------
ns3=$(new_namespace dp); g3=dp$s.example.com
mkdir -p base top
{ crd_doc things "$g3" Thing Namespaced v1:true:true; echo "---"; printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns3"; } > base/objs.yaml
printf 'apiVersion: %s/v1\nkind: Thing\nmetadata: {name: t1, namespace: %s, finalizers: [example.com/hold]}\nspec: {a: 1}\n---\n' "$g3" "$ns3" > top/objs.yaml
cm_doc top-cm "$ns3" >> top/objs.yaml
mkdir -p lone; cm_doc lone-$s default > lone/objs.yaml
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: base$s, type: manifests, path: ./base}" \
  "{name: top$s, type: manifests, path: ./top, dependsOn: [base$s]}" "{name: lone$s, type: manifests, path: ./lone}"
expect_rc 0 "install two layers" kubectl tazuna state sync
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: base$s, type: manifests, path: ./base}" \
  "{name: top$s, type: manifests, path: ./top, dependsOn: [base$s]}"
expect_rc 2 "a state tazuna.yaml does not name, with manifests of two layers" kubectl tazuna state delete -m "lone$s" -m "base$s" -m "top$s"
expect_contains "$ERR" "manifest \"lone$s\" is not in tazuna.yaml, so where it goes in the dependsOn order of the others cannot be told" "refused"
expect_rc 0 "alone it goes" kubectl tazuna state delete -m "lone$s"
expect_rc 1 "uninstall both while the top one is stuck" kubectl tazuna state delete -m "base$s" -m "top$s" --timeout 2s
expect_contains "$OUT" "thing.$g3/t1 -n $ns3 failed" "the top layer's custom resource fails"
expect_contains "$OUT" "namespace/$ns3 kept (not deleted: manifest \"top$s\", which may depend on it, was not deleted completely)" "the base layer waits"
expect_eq "$(jget crd "things.$g3" -o name)" "customresourcedefinition.apiextensions.k8s.io/things.$g3" "the base CRD lives"
kubectl patch "thing.$g3" t1 -n "$ns3" --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null
expect_rc 0 "uninstall both again" kubectl tazuna state delete -m "base$s" -m "top$s"
expect_eq "$(jget crd "things.$g3" -o name; jget cm -n tazuna "tazuna-state-base$s" "tazuna-state-top$s" -o name)" "" "both are gone"
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}"

# --- the guards of prune --------------------------------------------------------------------------------
ns4=$(new_namespace gd); g4=gd$s.example.com
mkdir -p guard other
crd_doc parts "$g4" Part Namespaced v1:true:true > guard/crd.yaml
{
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns4"
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: default}\n---\n'
  cm_doc shared "$ns4"; cm_doc marked "$ns4"; cm_doc mine "$ns4"
} > guard/objs.yaml
cm_doc shared "$ns4" > other/objs.yaml
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: guard$s, type: manifests, path: ./guard}"
expect_rc 0 "install the guarded manifest" kubectl tazuna state sync
established "parts.$g4"
kubectl apply -f - >/dev/null <<EOF
apiVersion: $g4/v1
kind: Part
metadata: {name: theirs, namespace: $ns4}
EOF
kubectl annotate cm marked -n "$ns4" --overwrite tazuna.pepabo.com/origin=github.com/someone/else >/dev/null
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: other$s, type: manifests, path: ./other}"
expect_rc 1 "uninstall with objects others hold (not complete: exit 1)" kubectl tazuna state delete -m "guard$s"
expect_contains "$ERR" "not uninstalled completely: the state of manifest \"guard$s\" (2 objects) stays" "saying what stays"
expect_contains "$OUT" "configmap/mine -n $ns4 deleted" "its own object goes"
expect_contains "$OUT" "configmap/shared -n $ns4 kept (still rendered by manifest \"other$s\")" "another manifest's object stays"
expect_contains "$OUT" "configmap/marked -n $ns4 kept" "another repository's object stays"
expect_contains "$OUT" "namespace/default kept (namespace default is never pruned)" "a protected namespace stays"
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/parts.$g4 kept" "a CRD with others' custom resources stays"
expect_contains "$OUT" "namespace/$ns4 kept" "a Namespace holding others' objects stays"
expect_eq "$(jget cm shared marked -n "$ns4" -o name | wc -l)" "2" "both ConfigMaps live"
expect_eq "$(jget ns default -o name)" "namespace/default" "default lives"
expect_not_contains "$(state_keys "guard$s")" "mine" "what went is no longer recorded"
expect_not_contains "$(state_keys "guard$s")" "shared" "another manifest's object is no longer this state's"
# Namespace default keeps no mark of this test (a second run of the suite claims it again).
kubectl annotate ns default tazuna.pepabo.com/manifest- tazuna.pepabo.com/origin- >/dev/null

# --- driven by the state: no render, no tazuna.yaml, --orphaned ----------------------------------------
ns5=$(new_namespace or)
mkdir -p orph
{ printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns5"; cm_doc a "$ns5"; cm_doc b "$ns5"; } > orph/objs.yaml
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: orph$s, type: manifests, path: ./orph}" \
  "{name: orph2$s, type: manifests, path: ./orph2}"
mkdir -p orph2; cm_doc c orph2-ns > orph2/objs.yaml; printf -- 'apiVersion: v1\nkind: Namespace\nmetadata: {name: orph2-ns}\n---\n' >> orph2/objs.yaml
sed -i "s/orph2-ns/$ns5-2/" orph2/objs.yaml
expect_rc 0 "install two more" kubectl tazuna state sync
# Its render now fails (kustomize of a path that does not exist): the state drives the uninstall.
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: orph$s, type: kustomize, path: ./gone}" \
  "{name: orph2$s, type: manifests, path: ./orph2}"
expect_rc 0 "uninstall a manifest whose render fails" kubectl tazuna state delete -m "orph$s"
expect_contains "$ERR" "is still in tazuna.yaml: the next state sync installs it again" "warning it is still listed"
expect_eq "$(jget cm a b -n "$ns5" -o name)" "" "its objects are gone"
# Without tazuna.yaml the other states stand for what renders elsewhere.
mv tazuna.yaml tazuna.yaml.off
expect_rc 0 "uninstall with no tazuna.yaml" kubectl tazuna state delete -m "orph2$s"
expect_eq "$(jget cm c -n "$ns5-2" -o name)" "" "its objects are gone"
mv tazuna.yaml.off tazuna.yaml
# guard is orphaned now; while the rest of tazuna.yaml does not render, nothing is deleted.
expect_rc 1 "--orphaned while the rest does not render (kept rows)" kubectl tazuna state delete --orphaned --dry-run=server
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/parts.$g4 kept (not pruned: the rest of tazuna.yaml does not render" "refused, saying why"
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: other$s, type: manifests, path: ./other}"
run kubectl tazuna state diff
expect_contains "$ERR" "manifest \"guard$s\" is no longer in tazuna.yaml, but 2 objects it installed still live" "diff warns of the retired manifest"
expect_contains "$ERR" "state delete --orphaned" "naming the way out"
expect_rc 2 "forget --orphaned refuses while its objects live" kubectl tazuna state forget --orphaned
expect_contains "$ERR" "manifest \"guard$s\": 2 objects it recorded still live" "saying so"
expect_eq "$(jget cm -n tazuna "tazuna-state-guard$s" -o name)" "configmap/tazuna-state-guard$s" "nothing was forgotten"
kubectl delete "parts.$g4" theirs -n "$ns4" >/dev/null
kubectl delete cm marked -n "$ns4" >/dev/null
expect_rc 1 "--orphaned uninstalls it; its Namespace holds another manifest's object" kubectl tazuna state delete --orphaned
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/parts.$g4 deleted" "the CRD goes now"
expect_contains "$OUT" "namespace/$ns4 kept (1 rendered objects live in it)" "the Namespace stays"
expect_rc 0 "forget --orphaned --leave-objects" kubectl tazuna state forget --orphaned --leave-objects
expect_contains "$OUT" "forgot manifest \"guard$s\" (1 entry, objects left running)" "said as such"
expect_rc 0 "--orphaned: nothing orphaned now" kubectl tazuna state delete --orphaned
expect_contains "$ERR" "No orphaned state found." "says so"
kubectl delete ns "$ns4" --wait=false >/dev/null

# --- bad input -------------------------------------------------------------------------------------------
expect_rc 2 "neither -m nor --orphaned" kubectl tazuna state delete
expect_contains "$ERR" "name the manifests to delete with -m, or use --orphaned" "a usage error"
expect_rc 2 "--dry-run=client" kubectl tazuna state delete -m "keep$s" --dry-run=client
expect_contains "$ERR" "Did you mean --dry-run=server?" "hinting at server"
other=$E2E_TMP/other; mkdir -p "$other"; repo_at "$other" "https://example.com/another-$s.git"
cp tazuna.yaml "$other/"; cp -r keep "$other/"
run bash -c "cd $other && kubectl tazuna state delete -m keep$s"
expect_eq "$RC" "2" "another repository's state is refused (rc=$RC)"
expect_contains "$ERR" "managed from" "naming where it is managed from"
expect_eq "$(jget cm kept-cm-$s -n default -o name)" "configmap/kept-cm-$s" "and nothing was deleted"

# --- SIGKILL during an uninstall --------------------------------------------------------------------------
ns6=$(new_namespace kl)
mkdir -p big
{ printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns6"; for i in $(seq 1 150); do cm_doc "c$i" "$ns6"; done; } > big/objs.yaml
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}" "{name: big$s, type: manifests, path: ./big}"
for delay in 0.6 1.2; do
  expect_rc 0 "install 150 objects" kubectl tazuna state sync
  kubectl tazuna state delete -m "big$s" --concurrency 2 >/dev/null 2>&1 & pid=$!
  sleep "$delay"
  if kill -9 "$pid" 2>/dev/null; then killed=killed; else killed="finished first"; fi
  wait "$pid" 2>/dev/null
  expect_rc 0 "run again after SIGKILL at ${delay}s ($killed)" kubectl tazuna state delete -m "big$s" --ignore-not-found --lock-timeout 60s
  expect_eq "$(jget cm -n "$ns6" -o name | grep -c '^configmap/c')" "0" "no object is left (${delay}s)"
  expect_eq "$(jget cm -n tazuna "tazuna-state-big$s" -o name)" "" "the state is gone (${delay}s)"
  poll_until bash -c "! kubectl get ns $ns6"
done
tazuna_yaml "$repo" "{name: keep$s, type: manifests, path: ./keep}"
expect_rc 0 "uninstall the last one, still in tazuna.yaml" kubectl tazuna state delete -m "keep$s"
expect_contains "$ERR" "manifest \"keep$s\" is still in tazuna.yaml: the next state sync installs it again" "warned"
expect_eq "$(jget cm kept-cm-$s -n default -o name; jget cm -n tazuna "tazuna-state-keep$s" -o name)" "" "nothing left"
finish
