#!/usr/bin/env bash
# The rest of kstatus's rules and ours beyond them (issue 26, part 3), against the local control plane
# (kwok runs pods; the disruption controller computes PodDisruptionBudgets; no load-balancer controller):
# a StatefulSet scaled down waits while its extra pods terminate; a PodDisruptionBudget waits until the
# disruption controller computed it for its generation; a LoadBalancer Service waits for an address, or
# with no load-balancer controller at all, counts as ready after the grace period with a warning.
# Each case compares the sync's timing with the live objects' transitions. About 40 s.
source "$(dirname "$0")/lib.sh"

ns=$(new_namespace kst)
kubectl create namespace "$ns" >/dev/null
s=$RANDOM

# --- 1. A StatefulSet scaled down is not ready while its extra pods are still terminating (a finalizer
# holds them here); the dependent layer changes only after they are gone.
t_case=$(date +%s)
two_layers "$E2E_TMP/sts" "sts$s" "sts-top$s"
statefulset() {
  cat <<EOF
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: $ns}
spec:
  replicas: $1
  podManagementPolicy: Parallel
  serviceName: db
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}, finalizers: [example.com/hold]}
    spec:
      containers: [{name: db, image: example.invalid/db:1}]
EOF
}
statefulset 3 > base/sts.yaml
configmap after-db > top/cm.yaml
expect_rc 0 "StatefulSet of 3" kubectl tazuna state sync --timeout 60s
statefulset 1 > base/sts.yaml
configmap after-db 2 > top/cm.yaml
release() {  # removes the finalizer of the pods being deleted, once there are any, after 4 s
  n=0
  until [ -n "$(jget pods -n "$ns" -l app=db -o jsonpath='{.items[?(@.metadata.deletionTimestamp)].metadata.name}')" ] ||
    [ $((n += 1)) -gt 450 ]; do sleep 0.2; done
  sleep 4; now > "$E2E_TMP/released"
  for p in $(jget pods -n "$ns" -l app=db -o jsonpath='{.items[?(@.metadata.deletionTimestamp)].metadata.name}'); do
    kubectl patch pod "$p" -n "$ns" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null
  done
}
release &
timed_rc 0 "scaled down to 1: waits for the extra pods" $! kubectl tazuna state sync --timeout 60s
took_within 4 "" "waited while pods terminated"
expect_contains "$ERR" "wait: statefulset.apps/db -n $ns: 2 pods pending termination" "the wait says what it waits for"
expect_eq "$(jget pods -n "$ns" -l app=db -o jsonpath='{.items[*].metadata.name}')" "db-0" "one pod left"
not_before "$(cm_written after-db)" "$(cat "$E2E_TMP/released")" "the dependent layer changed after the pods were released"
kubectl patch pod db-0 -n "$ns" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null
echo "# case 1 (StatefulSet extra pods): $(elapsed_since "$t_case")s"

# --- 2. A PodDisruptionBudget the disruption controller cannot compute (maxUnavailable over a pod whose
# controller has no scale subresource: SyncFailed, with no observedGeneration) is not ready, however long
# past its grace period; computed for its generation, it is.
t_case=$(date +%s)
kubectl create configmap owner -n "$ns" >/dev/null
cat <<EOF | kubectl apply -f - >/dev/null
apiVersion: v1
kind: Pod
metadata:
  name: lone
  namespace: $ns
  labels: {app: lone}
  ownerReferences: [{apiVersion: v1, kind: ConfigMap, name: owner, uid: $(uid cm owner -n "$ns"), controller: true}]
spec:
  containers: [{name: app, image: example.invalid/app:1}]
EOF
two_layers "$E2E_TMP/pdb" "pdb$s" "pdb-top$s" "statusGraceSeconds: 1"
pdb() { printf 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: guard, namespace: %s}\nspec:\n  %s\n  selector: {matchLabels: {app: lone}}\n' "$ns" "$1"; }
pdb 'maxUnavailable: 1' > base/pdb.yaml
configmap after-pdb > top/cm.yaml
expect_rc 1 "a PodDisruptionBudget that cannot be computed is not ready" kubectl tazuna state sync --timeout 5s
expect_contains "$ERR" "poddisruptionbudget.policy/guard -n $ns: applied, but not ready after 5s: DisruptionAllowed=False SyncFailed" \
  "names the controller's condition"
expect_eq "$(jget pdb guard -n "$ns" -o jsonpath='{.status.conditions[0].reason}')" "SyncFailed" "the live PDB says SyncFailed"
expect_eq "$(jget cm after-pdb -n "$ns" -o name)" "" "the dependent layer was skipped"
pdb 'minAvailable: 1' > base/pdb.yaml
expect_rc 0 "computed for its new generation: ready" kubectl tazuna state sync --timeout 30s
expect_eq "$(jget pdb guard -n "$ns" -o jsonpath='{.status.observedGeneration}')" "$(jget pdb guard -n "$ns" -o jsonpath='{.metadata.generation}')" \
  "the live PDB was observed at its generation"
not_before "$(jget cm after-pdb -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')" \
  "$(jget pdb guard -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="DisruptionAllowed")].lastTransitionTime}')" \
  "the dependent layer was created after the PDB was computed"
echo "# case 2 (PodDisruptionBudget): $(elapsed_since "$t_case")s"

# --- 3. A LoadBalancer Service: with no load-balancer controller it is ready after the grace period,
# with a warning; one a controller took (its finalizer) waits for the address the controller writes.
t_case=$(date +%s)
two_layers "$E2E_TMP/lb" "lb$s" "lb-top$s" "statusGraceSeconds: 2"
service() { printf 'apiVersion: v1\nkind: Service\nmetadata: {name: %s, namespace: %s%s}\nspec:\n  type: LoadBalancer\n  selector: {app: lone}\n  ports: [{port: 80}]\n' "$1" "$ns" "${2:+, finalizers: [$2]}"; }
service public > base/svc.yaml
configmap after-lb > top/cm.yaml
timed_rc 0 "no load-balancer controller: ready after the grace period" "" kubectl tazuna state sync --timeout 60s
took_within 2 8 "waited the grace period"
expect_contains "$ERR" "warning: service/public -n $ns: no load balancer controller gave it an address within 2s; counted as ready" \
  "the warning names it"
expect_eq "$(jget svc public -n "$ns" -o jsonpath='{.status.loadBalancer.ingress}')" "" "it has no address"
{ service public; echo ---; service taken service.kubernetes.io/load-balancer-cleanup; } > base/svc.yaml
configmap after-lb 2 > top/cm.yaml
(poll_until jget svc taken -n "$ns" -o name; sleep 4
 kubectl patch svc taken -n "$ns" --subresource=status --type=merge -p '{"status":{"loadBalancer":{"ingress":[{"ip":"192.0.2.10"}]}}}' >/dev/null) &
timed_rc 0 "a Service a controller took waits for its address, past the grace period" $! kubectl tazuna state sync --timeout 60s
took_within 4 "" "waited for the address"
expect_contains "$ERR" "wait: service/taken -n $ns: waiting for a load balancer address" "the wait says what it waits for"
expect_not_contains "$ERR" "warning: service/taken" "no grace for a Service a controller took"
address_at=$(jget svc taken -n "$ns" -o jsonpath='{.metadata.managedFields[?(@.subresource=="status")].time}')
not_before "$(cm_written after-lb)" "$address_at" "the dependent layer changed after the address was written"
kubectl patch svc taken -n "$ns" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null
echo "# case 3 (LoadBalancer Service): $(elapsed_since "$t_case")s"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
finish
