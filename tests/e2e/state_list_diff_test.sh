#!/usr/bin/env bash
# state list and state diff against state written with kubectl in the Go tool's format.
source "$(dirname "$0")/lib.sh"

m=ldstate$RANDOM
ns=$(new_namespace ld)
repo=$E2E_TMP/repo
secret_repo "$repo" "$m" API_TOKEN "$ns"
for n in keep change new; do
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: %s\ndata:\n  v: "%s"\n---\n' "$n" "$ns" "$n" >> "$repo/objs/cms.yaml"
done
cd "$repo"

expect_rc 1 "diff with no state: everything added" kubectl tazuna state diff -m "$m" -o json
hash_of() { echo "$OUT" | python3 -c "import json,sys; print([i['newHash'] for i in json.load(sys.stdin)['items'] if i['name']=='$1'][0])"; }
h_keep=$(hash_of keep); h_change=$(hash_of change); h_new=$(hash_of new)
[ ${#h_keep} -eq 64 ] && pass "hash is 64 hex digits" || fail "bad hash '$h_keep'"

# State in the Go tool's format: encoded keys, {"contentHash":...} values, _metadata.
kubectl create namespace tazuna >/dev/null 2>&1
old=0000000000000000000000000000000000000000000000000000000000000000
gone=1111111111111111111111111111111111111111111111111111111111111111
go_state "$m" 2026-01-02T03:04:05Z abc123def4567890 "${m}____v1__ConfigMap__${ns}__keep=$h_keep" \
  "${m}____v1__ConfigMap__${ns}__change=$old" "${m}____v1__ConfigMap__${ns}__gone=$gone"

pad() { printf '%*s' $(( $1 )) ''; }
expect_rc 0 "state list" kubectl tazuna state list -m "$m"
want=$(printf '%s\n' \
  "MANIFEST$(pad $(( ${#m} + 3 - 8 )))APIVERSION   KIND        NAMESPACE$(pad $(( ${#ns} + 3 - 9 )))NAME     HASH" \
  "$m   v1           ConfigMap   $ns   change   ${old:0:12}" \
  "$m   v1           ConfigMap   $ns   gone     ${gone:0:12}" \
  "$m   v1           ConfigMap   $ns   keep     ${h_keep:0:12}")
expect_eq "$OUT" "$want" "state list prints the Go tool's state exactly"

expect_rc 0 "state list -o wide" kubectl tazuna state list -m "$m" -o wide
expect_contains "$OUT" "$h_keep" "wide shows the full hash"
expect_contains "$OUT" "2026-01-02T03:04:05Z" "wide shows LAST-SYNCED"
expect_contains "$OUT" "abc123def456" "wide shows COMMIT"

mkdir -p "$E2E_TMP/empty" && cd "$E2E_TMP/empty"
expect_rc 0 "state list without a tazuna.yaml lists every state ConfigMap" kubectl tazuna state list -o wide
expect_contains "$OUT" "$m " "cluster-wide list includes our manifest"
cd "$repo"

expect_rc 1 "state diff finds all four change types" kubectl tazuna state diff
for change in added modified removed always-sync; do expect_contains "$OUT" " $change " "diff shows $change"; done
rows=$(echo "$OUT" | awk 'NR>1 {print $2 ":" $6}' | tr '\n' ' ')
# keep is recorded with its hash but was never applied here: a missing row (--repair=missing), sorted last.
expect_eq "$rows" "added:new modified:change removed:gone always-sync:api missing:keep " "rows sorted by change type"

expect_rc 1 "state diff -o json" kubectl tazuna state diff -o json
rows=$(echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["kind"]=="List"; print(" ".join(i["change"]+":"+i["name"] for i in d["items"]))')
expect_eq "$rows" "added:new modified:change removed:gone always-sync:api missing:keep" "json rows match the table"

# Record exactly what is rendered: no changes of hashes (the objects were never applied: --repair=none).
go_state "$m" 2026-01-02T03:04:05Z "" "${m}____v1__ConfigMap__${ns}__keep=$h_keep" \
  "${m}____v1__ConfigMap__${ns}__change=$h_change" "${m}____v1__ConfigMap__${ns}__new=$h_new"
expect_rc 0 "state diff with nothing changed" kubectl tazuna state diff -m "$m" --repair=none
expect_eq "$OUT" "No changes detected." "No changes detected."

expect_rc 2 "viewer: state diff fails with exit 2" kubectl tazuna state diff -m "$m" --context viewer
expect_contains "$ERR" "Error from server (Forbidden)" "viewer gets Forbidden"
expect_rc 2 "viewer: state list fails with exit 2" kubectl tazuna state list -m "$m" --context viewer
expect_contains "$ERR" "Error from server (Forbidden): configmaps" "viewer Forbidden on configmaps in tazuna"

expect_rc 2 "bad flag on diff exits 2" kubectl tazuna state diff --bogus
expect_contains "$ERR" "unknown flag: --bogus" "unknown flag message"
expect_rc 2 "bad -o" kubectl tazuna state list -o foo
expect_contains "$ERR" 'unable to match a printer suitable for the output format "foo"' "bad -o message"

# -o name: kubectl's resource/name form, the same lines `kubectl get -o name` prints for the same objects
# (a namespaced core kind, a namespaced kind with a group, a cluster-scoped kind).
k=${m}-kinds
kubectl create namespace "$ns" >/dev/null
mkdir -p "$repo/kinds"
cat > "$repo/kinds/objs.yaml" <<EOF
apiVersion: v1
kind: ConfigMap
metadata: {name: names-cm, namespace: $ns}
data: {v: "1"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: names-web, namespace: $ns}
spec:
  replicas: 0
  selector: {matchLabels: {app: names-web}}
  template:
    metadata: {labels: {app: names-web}}
    spec: {containers: [{name: web, image: registry.example/web:1}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: $k-reader}
rules: [{apiGroups: [""], resources: [configmaps], verbs: [get]}]
EOF
echo "    - {name: $k, type: manifests, path: ./kinds}" >> "$repo/tazuna.yaml"
expect_rc 0 "state sync -o name" kubectl tazuna state sync -m "$k" -o name --wait=false
expect_contains "$ERR" "sync: 3 created" "sync -o name: the summary stays on stderr"
synced=$(printf '%s\n' "$OUT" | sort)
live=$(kubectl get -n "$ns" configmap/names-cm deployment.apps/names-web "clusterrole/$k-reader" -o name | sort)
expect_eq "$(printf '%s\n' "$live" | wc -l)" "3" "kubectl get -o name finds the three objects"
expect_eq "$synced" "$live" "sync -o name: one line per object, as kubectl get -o name"
expect_rc 0 "state list -o name" kubectl tazuna state list -m "$k" -o name
listed=$OUT
expect_eq "$(printf '%s\n' "$listed" | sort)" "$live" "state list -o name prints kubectl get -o name's lines"
expect_rc 0 "state list -o json" kubectl tazuna state list -m "$k" -o json
in_rows=$(echo "$OUT" | python3 -c 'import json,sys
for i in json.load(sys.stdin)["items"]:
    g = i["apiVersion"].rpartition("/")[0]
    print(i["kind"].lower() + ("." + g if g else "") + "/" + i["name"])')
expect_eq "$listed" "$in_rows" "state list -o name keeps the row order, no headers"
expect_rc 0 "state diff -o name with nothing changed" kubectl tazuna state diff -m "$k" -o name
expect_eq "$OUT" "" "nothing changed: no names"
sed -i 's/v: "1"/v: "2"/' "$repo/kinds/objs.yaml"
expect_rc 1 "state diff -o name (exit 1 still means differences)" kubectl tazuna state diff -m "$k" -o name
expect_eq "$OUT" "configmap/names-cm" "diff -o name: the modified object"
kubectl delete clusterrole "$k-reader" >/dev/null 2>&1
kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete configmap -n tazuna "tazuna-state-$k" >/dev/null 2>&1

kubectl delete configmap -n tazuna "tazuna-state-$m" >/dev/null
finish
