#!/usr/bin/env bash
# Two syncs started together on the same file: the second waits or fails naming the holder; no entry is lost.
source "$(dirname "$0")/lib.sh"

m=lock$RANDOM
ns=$(new_namespace lk)
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
printf 'spec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' "$m" > "$repo/tazuna.yaml"
{
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns"
  for i in $(seq 1 200); do printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d, namespace: %s}\ndata: {i: "%d"}\n' "$i" "$ns" "$i"; done
} > "$repo/objs/all.yaml"
cd "$repo"

kubectl tazuna state sync --concurrency 2 > "$E2E_TMP/a.out" 2> "$E2E_TMP/a.err" & a=$!
kubectl tazuna state sync --concurrency 2 > "$E2E_TMP/b.out" 2> "$E2E_TMP/b.err" & b=$!
wait $a; ra=$?; wait $b; rb=$?
expect_eq "$ra:$rb" "0:0" "both syncs succeed (the second waits for the lock)"
if grep -q "waiting for the sync lock held by" "$E2E_TMP/a.err" "$E2E_TMP/b.err"; then pass "one sync waited, naming the holder"; else fail "no sync reported waiting"; cat "$E2E_TMP/a.err" "$E2E_TMP/b.err"; fi
expect_rc 0 "no entry lost" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "state complete after concurrent syncs"

# A held lease makes a sync with a short --lock-timeout fail with the holder named.
now=$(date -u +%Y-%m-%dT%H:%M:%S.000000Z)
kubectl apply -f - >/dev/null <<EOF
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata: {name: tazuna-sync, namespace: tazuna}
spec: {holderIdentity: someone-else, leaseDurationSeconds: 30, renewTime: "$now", acquireTime: "$now"}
EOF
expect_rc 1 "held lock: fails after --lock-timeout" kubectl tazuna state sync --lock-timeout 2s
expect_contains "$ERR" "holder someone-else" "error names the holder"
# An expired lease is taken over.
old=$(date -u -d '-5 minutes' +%Y-%m-%dT%H:%M:%S.000000Z)
kubectl patch lease -n tazuna tazuna-sync --type=merge -p "{\"spec\":{\"renewTime\":\"$old\"}}" >/dev/null
expect_rc 0 "expired lease is taken over" kubectl tazuna state sync --lock-timeout 2s

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
