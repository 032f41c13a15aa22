#!/usr/bin/env bash
# state status against the local control plane, whose kwok nodes run pods (scripts/cluster): every recorded
# object judged now by the rules a sync waits with (Current, InProgress, Failed, NotFound, Terminating),
# exit 0 only when all are Current; -m reads a state whose manifest tazuna.yaml no longer lists; -w waits
# until all are Current or --timeout; reads go one per kind and namespace, never one per object.
source "$(dirname "$0")/lib.sh"

ns=$(new_namespace st)
kubectl create namespace "$ns" >/dev/null
s=$RANDOM
repo=$E2E_TMP/repo; mkdir -p "$repo/ok" "$repo/mixed"
tazuna_yaml "$repo" "{name: ok$s, type: manifests, path: ./ok}" "{name: mixed$s, type: manifests, path: ./mixed}"
{ cm_doc plain "$ns"; cm_doc other "$ns"; } > "$repo/ok/cm.yaml"
cat > "$repo/mixed/objs.yaml" <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: runs, namespace: $ns}
spec:
  replicas: 2
  selector: {matchLabels: {app: runs}}
  template:
    metadata: {labels: {app: runs}}
    spec: {containers: [{name: app, image: example.invalid/app:1}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: stuck, namespace: $ns}
spec:
  replicas: 1
  selector: {matchLabels: {app: stuck}}
  template:
    metadata: {labels: {app: stuck}}
    spec:
      nodeSelector: {tazuna-e2e: nowhere}
      containers: [{name: app, image: example.invalid/app:1}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: doomed, namespace: $ns}
spec:
  backoffLimit: 0
  activeDeadlineSeconds: 1
  template:
    spec:
      restartPolicy: Never
      nodeSelector: {tazuna-e2e: nowhere}
      containers: [{name: app, image: example.invalid/app:1}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: held, namespace: $ns, finalizers: [example.com/hold]}
data: {v: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: gone, namespace: $ns}
data: {v: "1"}
EOF
cd "$repo"
expect_rc 0 "sync" kubectl tazuna state sync
# --- 1. Each state, read now.
job_failed() { [ "$(jget job doomed -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="Failed")].status}')" = True ]; }
runs_available() { [ "$(jget deploy runs -n "$ns" -o jsonpath='{.status.availableReplicas}')" = 2 ]; }
poll_until job_failed
poll_until runs_available
kubectl delete cm gone -n "$ns" >/dev/null
kubectl delete cm held -n "$ns" --wait=false >/dev/null
held_uid=$(uid cm held -n "$ns")
expect_rc 1 "status: not everything is Current" kubectl tazuna state status -o json
row() { echo "$OUT" | python3 -c "import json,sys; r=[i for i in json.load(sys.stdin)['items'] if i['name']=='$1'][0]; print(r['status'] + '|' + r['message'])"; }
expect_eq "$(row plain | cut -d'|' -f1)" "Current" "a ConfigMap is Current"
expect_eq "$(row runs | cut -d'|' -f1)" "Current" "a Deployment whose pods kwok runs is Current"
expect_contains "$(row stuck)" "InProgress|" "a Deployment that cannot be scheduled is InProgress"
expect_contains "$(row doomed)" "Failed|" "a Job past its deadline is Failed"
expect_eq "$(row gone)" "NotFound|not found" "a ConfigMap deleted by hand is NotFound"
expect_contains "$(row held)" "Terminating|being deleted" "a ConfigMap held by a finalizer is Terminating"
expect_contains "$(row held)" "example.com/hold" "naming its finalizer"
expect_eq "$(echo "$OUT" | python3 -c "import json,sys; print([i.get('uid') for i in json.load(sys.stdin)['items'] if i['name']=='held'][0])")" \
  "$held_uid" "the row carries the live uid"
expect_eq "$(echo "$OUT" | python3 -c "import json,sys; print(sorted({i['manifest'] for i in json.load(sys.stdin)['items']}))")" \
  "['mixed$s', 'ok$s']" "every manifest of tazuna.yaml"
expect_rc 1 "table" kubectl tazuna state status
expect_contains "$OUT" "MANIFEST" "headers"
expect_contains "$(echo "$OUT" | grep " stuck ")" "InProgress" "table row of the stuck Deployment"
expect_rc 0 "one manifest, all Current: exit 0" kubectl tazuna state status -m "ok$s"
expect_eq "$(echo "$OUT" | grep -c Current)" "2" "two Current rows"
expect_rc 0 "-o name" kubectl tazuna state status -m "ok$s" -o name
expect_eq "$OUT" $'configmap/other\nconfigmap/plain' "names"

# --- 2. One request per kind and namespace, never one per object: five ConfigMaps cost one LIST.
expect_rc 1 "status -v 6" kubectl tazuna state status -m "mixed$s" -v 6
expect_eq "$(echo "$ERR" | grep -c "/namespaces/$ns/configmaps")" "1" "ConfigMaps: one request"
expect_eq "$(echo "$ERR" | grep -c "/namespaces/$ns/deployments")" "1" "Deployments: one LIST for two"

# --- 3. A manifest tazuna.yaml no longer lists is still read by -m; an unknown one is an error.
tazuna_yaml "$repo" "{name: ok$s, type: manifests, path: ./ok}"
expect_rc 1 "-m a state no longer in tazuna.yaml" kubectl tazuna state status -m "mixed$s"
expect_contains "$OUT" "doomed" "its rows"
expect_rc 0 "without -m: tazuna.yaml's manifests only" kubectl tazuna state status
expect_not_contains "$OUT" "mixed$s" "the removed manifest is not read"
expect_rc 1 "--all reads every state" kubectl tazuna state status --all
expect_contains "$OUT" "mixed$s" "--all includes it"
expect_rc 2 "-m without a state" kubectl tazuna state status -m "nosuch$s"
expect_contains "$ERR" "error: manifest \"nosuch$s\" has no state" "one error line"
expect_rc 2 "--all with -m" kubectl tazuna state status --all -m "ok$s"
expect_rc 2 "a bad --timeout" kubectl tazuna state status --timeout 5x
expect_contains "$ERR" 'invalid --timeout "5x"' "names the flag"

# --- 4. -w: waits until everything is Current (a Deployment kwok runs after a moment), or --timeout.
tazuna_yaml "$repo" "{name: ok$s, type: manifests, path: ./ok}" "{name: later$s, type: manifests, path: ./later}"
mkdir -p "$repo/later"
deployment_doc soon "$ns" > "$repo/later/d.yaml"
expect_rc 0 "sync a new Deployment (no wait)" kubectl tazuna state sync -m "later$s"
timed_rc 0 "status -w: Current once kwok runs its pod" "" kubectl tazuna state status -m "later$s" -w --timeout 60s
took_within "" "30" "returned once Current"
expect_contains "$OUT" "Current" "its row"
expect_eq "$(jget deploy soon -n "$ns" -o jsonpath='{.status.availableReplicas}')" "1" "it really is available"
timed_rc 1 "status -w on a stuck object times out" "" kubectl tazuna state status -m "mixed$s" -w --timeout 3s
took_within "3" "10" "after --timeout"
expect_contains "$ERR" "Timed out after 3s" "says so"

# --- 5. The finalizer goes: the object is gone; the status says NotFound.
kubectl patch cm held -n "$ns" --type=json -p '[{"op":"remove","path":"/metadata/finalizers"}]' >/dev/null
expect_rc 1 "status after the finalizer went" kubectl tazuna state status -m "mixed$s" -o json
expect_eq "$(row held)" "NotFound|not found" "NotFound"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
finish
