#!/usr/bin/env bash
# Two syncs started together on the same file: the second waits or fails naming the holder; no entry is lost.
source "$(dirname "$0")/lib.sh"

m=lock$RANDOM
ns=$(new_namespace lk)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
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
hold_sync_lease someone-else 30
expect_rc 2 "held lock: fails after --lock-timeout" kubectl tazuna state sync --lock-timeout 2s
expect_contains "$ERR" "holder someone-else" "error names the holder"
# A lease nobody renews is taken over once this process has seen it unchanged for its duration, whatever
# its renewTime says (another machine's clock is never compared with ours).
future=$(date -u -d '+1 hour' +%Y-%m-%dT%H:%M:%S.000000Z)
kubectl patch lease -n tazuna tazuna-sync --type=merge \
  -p "{\"spec\":{\"renewTime\":\"$future\",\"leaseDurationSeconds\":3}}" >/dev/null
t0=$(date +%s%N)
expect_rc 0 "a silent lease is taken over after its duration" kubectl tazuna state sync --lock-timeout 20s
waited=$(( ($(date +%s%N) - t0) / 1000000 ))
if [ "$waited" -ge 3000 ]; then pass "waited the lease duration (${waited} ms) despite a renewTime in the future"
else fail "took over after ${waited} ms"; fi

# Fencing: a sync stopped (SIGSTOP) past the lease duration loses the lock to a second sync; continued, it
# writes nothing more and exits 1 naming the holder; the state is the second's.
repo_b=$E2E_TMP/b/repo  # a second checkout of the same repository (same origin: the directory name)
mkdir -p "$repo_b/objs"
cp "$repo/tazuna.yaml" "$repo_b/"
big() {  # big VALUE: a Namespace and 1,000 ConfigMaps
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns"
  for i in $(seq 1 1000); do
    printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d, namespace: %s}\ndata: {v: "%s"}\n' "$i" "$ns" "$1"
  done
}
big first > "$repo/objs/all.yaml"
big second > "$repo_b/objs/all.yaml"
kubectl tazuna state sync --concurrency 1 > "$E2E_TMP/f.out" 2> "$E2E_TMP/f.err" & first=$!
for _ in $(seq 100); do
  [ -n "$(kubectl get lease -n tazuna tazuna-sync -o jsonpath='{.spec.holderIdentity}' 2>/dev/null)" ] && break
  sleep 0.1
done
sleep 0.5
kill -STOP "$first"
(cd "$repo_b" && kubectl tazuna state sync --lock-timeout 60s > "$E2E_TMP/s.out" 2> "$E2E_TMP/s.err"); rs=$?
expect_eq "$rs" "0" "the second sync takes the lock of the stopped one and finishes"
kill -CONT "$first"
wait "$first"; rf=$?
expect_eq "$rf" "3" "the continued first sync, its lock lost while applying, exits 3 (stopped part-way)"
expect_contains "$(cat "$E2E_TMP/f.err")" "lost the sync lock (lease tazuna/tazuna-sync) to holder " "it names the lock and the holder"
values=$(kubectl get cm -n "$ns" -o jsonpath='{range .items[*]}{.data.v}{"\n"}{end}' | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')
expect_eq "$values" "second:1000 " "every object has the second sync's value"
cd "$repo_b"
expect_rc 0 "state is the second sync's result" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "no changes against the second sync's files"
cd "$repo"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
