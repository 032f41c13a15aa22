#!/usr/bin/env bash
# The sync lock and containers: two CI jobs on one node share the kernel's boot id but not their PID
# namespaces, so a pid seen from one says nothing about the other. A lock holder counts as gone only when its
# record names this boot, host name and PID namespace and its process is gone (it is then taken over once its
# writes' time limit has passed); otherwise its lease must expire. Then two real syncs, the second in its own PID namespace (unshare): it waits for the first,
# which finishes without losing the lock. Takes ~60 s.
source "$(dirname "$0")/lib.sh"

m=lc$RANDOM
ns=$(new_namespace lc)
repo=$E2E_TMP/a/repo
mkdir -p "$repo/objs"
printf 'spec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' "$m" > "$repo/tazuna.yaml"
objects() {  # objects VALUE: a Namespace and 800 ConfigMaps
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns"
  for i in $(seq 1 800); do
    printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d, namespace: %s}\ndata: {v: "%s"}\n' "$i" "$ns" "$1"
  done
}
objects zero > "$repo/objs/all.yaml"
cd "$repo"
expect_rc 0 "setup sync" kubectl tazuna state sync

boot=$(cat /proc/sys/kernel/random/boot_id)
host=$(hostname)
pidns=$(readlink /proc/self/ns/pid)
dead=$(( $(cat /proc/sys/kernel/pid_max) - 7 ))  # a pid no process has here
kill -0 "$dead" 2>/dev/null && dead=$(( dead - 1 ))
hold() {  # hold RECORD [AGO]: a lease held by `other`, renewed AGO seconds ago (default 0), whose process record is RECORD
  local now; now=$(date -u -d "-${2:-0} seconds" +%Y-%m-%dT%H:%M:%S.000000Z)
  kubectl apply --server-side --force-conflicts --field-manager e2e -f - >/dev/null <<EOF
apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: tazuna-sync
  namespace: tazuna
  annotations: {tazuna.pepabo.com/holder-process: "$1"}
spec: {holderIdentity: other, leaseDurationSeconds: 30, renewTime: "$now", acquireTime: "$now"}
EOF
}
for case in "another PID namespace|other $boot $dead $host pid:[4026599999]" \
            "another host name|other $boot $dead $host-elsewhere $pidns" \
            "an older record without host and namespace|other $boot $dead"; do
  hold "${case#*|}"
  expect_rc 2 "a dead pid in ${case%%|*}: the lease is not taken at once" kubectl tazuna state sync --lock-timeout 2s
  expect_contains "$ERR" "another sync holds the lock (lease tazuna/tazuna-sync, holder other)" "${case%%|*}: the holder is named"
done
# Gone from this very place, last renewed 26 s ago: its writes' time limit (5/6 of its 30 s lease after that
# renewal) has passed, so the lease is taken over at once.
hold "other $boot $dead $host $pidns" 26
t0=$(date +%s%N)
expect_rc 0 "a dead pid in this very place: the lease is taken over at once" kubectl tazuna state sync --lock-timeout 20s
waited=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$waited" -lt 10000 ]; then pass "taken over after ${waited} ms, not the lease's 30 s"; else fail "took ${waited} ms"; fi
# Renewed just now: a write it sent may still be inside the server until that limit (25 s) and a second;
# the lease is taken once it has passed, before the 30 s a lease seen unchanged would take.
hold "other $boot $dead $host $pidns" 0
t0=$(date +%s%N)
expect_rc 0 "a dead pid renewed just now: taken over once its writes' time limit passed" kubectl tazuna state sync --lock-timeout 40s
waited=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$waited" -ge 24000 ] && [ "$waited" -lt 30000 ]; then pass "taken over after ${waited} ms: past the 25 s limit, before 30 s"
else fail "took ${waited} ms"; fi

# Two real syncs on this machine, the second in its own PID namespace, as two CI jobs on one node.
if ! unshare -Urpf true 2>/dev/null; then
  echo "skip - unshare cannot make a PID namespace here; the real two-namespace case is left out"
  kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
  kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
  finish; exit
fi
repo_b=$E2E_TMP/b/repo  # a second checkout of the same repository (same origin: the directory name)
mkdir -p "$repo_b/objs"
cp "$repo/tazuna.yaml" "$repo_b/"
objects first > "$repo/objs/all.yaml"
objects second > "$repo_b/objs/all.yaml"
kubectl tazuna state sync --concurrency 1 > "$E2E_TMP/first.out" 2> "$E2E_TMP/first.err" & first=$!
for _ in $(seq 100); do
  [ "$(kubectl get lease -n tazuna tazuna-sync -o jsonpath='{.spec.holderIdentity}' 2>/dev/null)" != "" ] && break
  sleep 0.1
done
sleep 0.5
(cd "$repo_b" && unshare -Urpf env PATH="$PATH" KUBECONFIG="$KUBECONFIG" NO_COLOR=1 \
   kubectl tazuna state sync --lock-timeout 120s > "$E2E_TMP/second.out" 2> "$E2E_TMP/second.err"); rs=$?
wait "$first"; rf=$?
expect_eq "$rf:$rs" "0:0" "both syncs succeed"
expect_not_contains "$(cat "$E2E_TMP/first.err")" "lost the sync lock" "the first sync kept its lock"
expect_contains "$(cat "$E2E_TMP/second.err")" "waiting for the sync lock held by" "the second sync, in its own PID namespace, waited"
values=$(kubectl get cm -n "$ns" -o jsonpath='{range .items[*]}{.data.v}{"\n"}{end}' | grep . | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
expect_eq "$values" "second:800 " "every object has the value of the second sync, which ran after the first"
cd "$repo_b"
run kubectl tazuna state diff
expect_eq "$RC:$OUT" "0:No changes detected." "the state is the second sync's"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
