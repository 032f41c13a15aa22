#!/usr/bin/env bash
# state sync repairs what its state records as applied but is gone live (issue #45): a ConfigMap, a
# ClusterRole and a namespaced custom resource deleted by hand come back as `created (was missing)`;
# --repair=none leaves them gone; state diff shows them as `missing` rows (exit 1); a plan recreates exactly
# the missing objects it shows and refuses one that went missing since; a kind the user cannot list stays
# unchanged with a warning; --dry-run=server writes nothing; a no-op sync costs one LIST more per kind and
# namespace at most.
source "$(dirname "$0")/lib.sh"

sfx=$(date +%s%N | tail -c 6)$RANDOM
m=repair$sfx
ns=$(new_namespace rp)
group=r$sfx.tazuna.io
role=tazuna-e2e-reader-$sfx
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" > "$repo/objs/00-ns.yaml"
crd_doc widgets "$group" Widget Namespaced v1:true:true > "$repo/objs/10-crd.yaml"
printf 'apiVersion: %s/v1\nkind: Widget\nmetadata: {name: w1, namespace: %s}\nspec: {size: 3}\n' "$group" "$ns" > "$repo/objs/20-cr.yaml"
cm_doc cfg "$ns" '{mode: "blue"}' > "$repo/objs/30-cm.yaml"
printf 'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: %s}\nrules:\n- {apiGroups: [""], resources: [pods], verbs: [get]}\n' \
  "$role" > "$repo/objs/40-role.yaml"
cd "$repo" || exit 1

cm_line="$m  configmap/cfg -n $ns"
role_line="$m  clusterrole.rbac.authorization.k8s.io/$role"
cr_line="$m  widget.$group/w1 -n $ns"
uids() { echo "$(uid cm -n "$ns" cfg) $(uid clusterrole "$role") $(uid "widgets.$group" -n "$ns" w1)"; }
delete_three() {
  kubectl delete cm -n "$ns" cfg >/dev/null
  kubectl delete clusterrole "$role" >/dev/null
  kubectl delete "widgets.$group" -n "$ns" w1 >/dev/null
}
state_rv() { kubectl get cm -n tazuna "tazuna-state-$m" -o jsonpath='{.metadata.resourceVersion}'; }
requests() { sed -n 's/.*(\([0-9]*\) API requests.*/\1/p' <<<"$ERR"; }

expect_rc 0 "first sync creates everything" kubectl tazuna state sync
established "widgets.$group"
first=$(uids)
expect_rc 0 "a no-op sync with --repair=none" kubectl tazuna state sync --repair=none
none_requests=$(requests)
expect_rc 0 "a no-op sync (repair missing, nothing missing)" kubectl tazuna state sync
repair_requests=$(requests)
expect_not_contains "$OUT" "created" "a no-op sync creates nothing"
# Five (kind, namespace) pairs are unchanged: Namespace, CRD, Widget in $ns, ConfigMap in $ns, ClusterRole.
if [ -n "$none_requests" ] && [ -n "$repair_requests" ] && [ "$repair_requests" -le $((none_requests + 5)) ]; then
  pass "no-op sync: $repair_requests requests, $none_requests with --repair=none (at most one LIST per kind and namespace more)"
else
  fail "no-op sync request count: $repair_requests with repair, $none_requests with --repair=none"
fi

# --- deleted by hand: state diff shows them, --repair=none does not ---
delete_three
expect_rc 1 "state diff exits 1 for missing objects" kubectl tazuna state diff -v 2
# The existence LISTs need no render: the rows of a manifest whose inputs did not change come from its state.
expect_contains "$ERR" "manifest \"$m\" not rendered: its state records the render of the same inputs" \
  "state diff finds the missing objects without rendering"
for obj in "ConfigMap   *$ns   *cfg" "ClusterRole   *$role" "Widget   *$ns   *w1"; do
  if grep -Eq "^$m +missing +.*$obj\$" <<<"$OUT"; then pass "diff shows a missing row: $obj"; else
    fail "diff: no missing row for $obj"; echo "  in: $OUT"; fi
done
expect_eq "$(grep -c missing <<<"$OUT")" "3" "diff shows only the three missing objects"
expect_rc 1 "state diff -o json" kubectl tazuna state diff -o json
expect_eq "$(python3 -c 'import json,sys; print(sorted(i["kind"] for i in json.load(sys.stdin)["items"] if i["change"] == "missing"))' <<<"$OUT")" \
  "['ClusterRole', 'ConfigMap', 'Widget']" "diff -o json: change missing for the three"
expect_rc 0 "state diff --repair=none exits 0" kubectl tazuna state diff --repair=none
expect_eq "$OUT" "No changes detected." "state diff --repair=none: no rows"
expect_rc 0 "state sync --repair=none" kubectl tazuna state sync --repair=none
expect_contains "$OUT" "$cm_line unchanged" "--repair=none: the ConfigMap stays unchanged"
expect_eq "$(uids)" "  " "--repair=none leaves the three missing"

# --- --dry-run=server shows the recreation and writes nothing ---
rv=$(state_rv)
expect_rc 0 "state sync --dry-run=server" kubectl tazuna state sync --dry-run=server
expect_contains "$OUT" "$cm_line created (was missing) (server dry run)" "dry run: ConfigMap would be created again"
expect_contains "$OUT" "$role_line created (was missing) (server dry run)" "dry run: ClusterRole would be created again"
expect_contains "$OUT" "$cr_line created (was missing) (server dry run)" "dry run: custom resource would be created again"
expect_eq "$(uids)" "  " "dry run creates nothing"
expect_eq "$(state_rv)" "$rv" "dry run writes no state"

# --- a plan shows them and sync --plan recreates exactly them ---
expect_rc 1 "state diff --out plan.json" kubectl tazuna state diff --out plan.json
expect_eq "$(python3 -c 'import json,sys; print(sorted(r["key"].split("/")[3] for r in json.load(open("plan.json"))["changes"] if r["change"] == "missing"))')" \
  "['ClusterRole', 'ConfigMap', 'Widget']" "the plan holds the three missing rows"
expect_rc 2 "a plan that recreates objects is refused with --repair=none" kubectl tazuna state sync --plan plan.json --repair=none
expect_contains "$ERR" "error: --plan plan.json recreates missing objects: it cannot be applied with --repair=none" \
  "--plan with --repair=none: the error says why"
expect_rc 0 "state sync --plan recreates the missing objects" kubectl tazuna state sync --plan plan.json
expect_contains "$OUT" "$cm_line created (was missing)" "plan: ConfigMap created (was missing)"
expect_contains "$OUT" "$role_line created (was missing)" "plan: ClusterRole created (was missing)"
expect_contains "$OUT" "$cr_line created (was missing)" "plan: custom resource created (was missing)"
expect_eq "$(grep -c 'created' <<<"$OUT")" "3" "plan: nothing else created"
second=$(uids)
read -r c1 r1 w1 <<<"$first"
read -r c2 r2 w2 <<<"$second"
if [ -n "$c2" ] && [ -n "$r2" ] && [ -n "$w2" ] && [ "$c1" != "$c2" ] && [ "$r1" != "$r2" ] && [ "$w1" != "$w2" ]; then
  pass "recreated objects are new (new uids)"
else
  fail "recreated objects: uids before '$first', after '$second'"
fi
expect_eq "$(jget cm -n "$ns" cfg -o jsonpath='{.data.mode}')" "blue" "recreated ConfigMap holds its data"
expect_eq "$(jget clusterrole "$role" -o jsonpath='{.rules[0].resources[0]}/{.rules[0].verbs[0]}')" "pods/get" \
  "recreated ClusterRole holds its rules"
expect_eq "$(jget "widgets.$group" -n "$ns" w1 -o jsonpath='{.spec.size}')" "3" "recreated custom resource holds its spec"
expect_eq "$(jget cm -n "$ns" cfg -o jsonpath='{.metadata.managedFields[0].manager}')" "tazuna" \
  "recreated with tazuna's field manager"
expect_rc 0 "diff after the repair" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "nothing missing after the repair"

# --- one that went missing after the plan was made is reported, not recreated ---
expect_rc 0 "state diff --out plan2.json (nothing missing)" kubectl tazuna state diff --out plan2.json
kubectl delete clusterrole "$role" >/dev/null
expect_rc 2 "state sync --plan with an object deleted since the plan fails" kubectl tazuna state sync --plan plan2.json
expect_contains "$ERR" "plan is stale: object clusterrole.rbac.authorization.k8s.io/$role was deleted since the plan" \
  "the stale plan names the object deleted since"
expect_eq "$(uid clusterrole "$role")" "" "the stale plan recreates nothing"

# --- a plain sync recreates what is missing, -o json says why ---
kubectl delete cm -n "$ns" cfg >/dev/null
kubectl delete "widgets.$group" -n "$ns" w1 >/dev/null
expect_rc 0 "plain state sync -o json repairs" kubectl tazuna state sync -o json
expect_eq "$(python3 -c 'import json,sys
for i in sorted(json.load(sys.stdin)["items"], key=lambda i: i["kind"]):
    if i.get("repair"): print(i["kind"], i["result"], i["reason"], i["repair"])' <<<"$OUT")" \
  "ClusterRole created was missing missing
ConfigMap created was missing missing
Widget created was missing missing" "-o json: result created, reason was missing, repair missing"
expect_contains "$ERR" "sync: 3 created" "summary counts the recreated objects"
expect_rc 0 "state sync -o yaml (nothing missing)" kubectl tazuna state sync -o yaml
expect_not_contains "$OUT" "repair: " "-o yaml: no repair field when nothing was missing"
third=$(uids)
read -r c3 r3 w3 <<<"$third"
if [ -n "$c3" ] && [ -n "$r3" ] && [ -n "$w3" ] && [ "$c3" != "$c2" ] && [ "$w3" != "$w2" ]; then
  pass "plain sync recreated the objects (new uids)"
else
  fail "plain sync: uids before '$second', after '$third'"
fi
kubectl delete cm -n "$ns" cfg >/dev/null
expect_rc 0 "state sync -o yaml repairs" kubectl tazuna state sync -o yaml
expect_contains "$OUT" "repair: missing" "-o yaml carries repair: missing"

# --- a user who cannot list ClusterRoles: the missing one stays unchanged, with a warning ---
user=tazuna-e2e-nolist-$sfx
cat <<EOF | kubectl apply -f - >/dev/null
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: $user}
rules:
- {apiGroups: [""], resources: [configmaps, secrets, namespaces], verbs: ["*"]}
- {apiGroups: [coordination.k8s.io], resources: [leases], verbs: ["*"]}
- {apiGroups: [apiextensions.k8s.io], resources: [customresourcedefinitions], verbs: ["*"]}
- {apiGroups: [$group], resources: [widgets], verbs: ["*"]}
- {apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [get, create, patch, update]}
EOF
kubectl create clusterrolebinding "$user" --clusterrole="$user" --user="$user" >/dev/null
kubectl delete clusterrole "$role" >/dev/null
kubectl delete cm -n "$ns" cfg >/dev/null
expect_rc 0 "sync as a user who cannot list ClusterRoles" kubectl tazuna state sync --as "$user"
expect_contains "$OUT" "$role_line unchanged" "the unlistable ClusterRole stays unchanged"
expect_contains "$OUT" "$cm_line created (was missing)" "the listable ConfigMap is repaired"
expect_contains "$ERR" "Warning: cannot check that unchanged object ClusterRole.rbac.authorization.k8s.io $role still exists" \
  "a warning says existence could not be checked"
expect_eq "$(uid clusterrole "$role")" "" "the unlistable ClusterRole is not recreated"
expect_rc 0 "diff as that user: the unlistable ClusterRole is not a missing row" kubectl tazuna state diff --as "$user"
expect_eq "$OUT" "No changes detected." "diff as that user: no rows"
expect_contains "$ERR" "Warning: cannot check that unchanged object ClusterRole" "diff as that user: the same warning"
expect_rc 0 "a sync by an admin recreates it" kubectl tazuna state sync
expect_contains "$OUT" "$role_line created (was missing)" "admin sync: ClusterRole created (was missing)"

kubectl delete clusterrolebinding,clusterrole "$user" >/dev/null
kubectl delete clusterrole "$role" >/dev/null 2>&1
kubectl delete namespace "$ns" --wait=false >/dev/null
kubectl delete crd "widgets.$group" --wait=false >/dev/null
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null
finish
