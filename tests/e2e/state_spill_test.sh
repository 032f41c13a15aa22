#!/usr/bin/env bash
# Spilled state (over 1.2 MiB) is crash-safe: SIGKILL at 10 points spread over a sync that grows the state
# into shards and at 10 over one that shrinks it back (prune): every rerun converges, `state list` holds
# exactly the rendered keys, leftover shards never block a sync and are collected, and a manifest `<m>-1`
# lives next to a spilled manifest `<m>`.
source "$(dirname "$0")/lib.sh"
# A short sync lease: each rerun after a kill takes the killed sync's lock once its writes' time limit (5/6
# of this lease) has passed, about 6 s instead of 13 s with the default 15 s lease.
export TAZUNA_LOCK_LEASE_DURATION=6s

m=sp$RANDOM
ns=$(new_namespace sp)
repo=$E2E_TMP/repo
mkdir -p "$repo/big" "$repo/neighbour"
printf 'spec:\n  manifests:\n    - {name: %s, type: manifests, path: ./big}\n    - {name: %s-1, type: manifests, path: ./neighbour}\n' \
  "$m" "$m" > "$repo/tazuna.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: neighbour, namespace: %s}\n' "$ns" > "$repo/neighbour/n.yaml"
# 253-character names give ~470-byte state entries: 2,800 of them are ~1.25 MiB, 1,300 stay in the base.
python3 - "$repo" "$ns" <<'PY'
import sys
repo, ns = sys.argv[1:]
def write(path, n):
    with open(path, "w") as f:
        f.write(f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n")
        for i in range(n):
            name = f"c{i:05d}-" + "x" * 246
            f.write(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}, namespace: {ns}}}\n")
write(f"{repo}/big.yaml", 2800)
write(f"{repo}/small.yaml", 1300)
PY
cd "$repo"
use() { cp "$repo/$1.yaml" "$repo/big/all.yaml"; }
expected() { grep -c '^kind:' "$repo/$1.yaml"; }
shards_named() {  # the shards the base names, sorted
  kubectl get cm -n tazuna "tazuna-state-$m" -o jsonpath='{.data._metadata}' |
    python3 -c 'import json,sys; print(" ".join(sorted(json.load(sys.stdin).get("shards", []))))'
}
shards_present() {
  kubectl get cm -n tazuna -l "tazuna.pepabo.com/state-shard-of=$m" -o jsonpath='{range .items[*]}{.metadata.name}{" "}{end}' |
    tr ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//'
}
check() {  # check WHAT FILE: state list holds exactly the rendered keys, and no shard is left over
  local want got
  want=$(expected "$2")
  run kubectl tazuna state list -m "$m" -o json
  got=$(echo "$OUT" | python3 -c 'import json,sys; print(len({i["key"] for i in json.load(sys.stdin)["items"]}))' 2>/dev/null)
  expect_eq "$RC:$got" "0:$want" "$1: state list holds exactly the $want rendered keys"
  run kubectl tazuna state diff -m "$m"
  expect_eq "$RC:$OUT" "0:No changes detected." "$1: no diff"
  expect_eq "$(shards_present)" "$(shards_named)" "$1: the shards present are exactly those the base names"
}

use big
expect_rc 0 "first sync: spills" kubectl tazuna state sync
check "spilled" big
expect_contains "$(shards_named)" "tazuna-state-$m." "shards are named with a '.' no manifest name has"
run kubectl tazuna state list -m "$m-1" -o json
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; print([i["name"] for i in json.load(sys.stdin)["items"]])')" \
  "['neighbour']" "manifest $m-1 holds only its own object next to the spilled $m"

# Time a shrink (prune back into the base) and a grow (spill again); spread 10 kill points over each.
t0=$(date +%s%N); use small; expect_rc 0 "timed shrink" kubectl tazuna state sync --prune
shrink_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
check "shrunk" small
t0=$(date +%s%N); use big; expect_rc 0 "timed grow" kubectl tazuna state sync
grow_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
echo "# shrink ${shrink_ms} ms, grow ${grow_ms} ms"

killed_run() {  # killed_run DELAY ARGS...: a sync killed with SIGKILL after DELAY seconds
  local delay=$1; shift
  kubectl tazuna state sync "$@" >/dev/null 2>&1 & local pid=$!
  sleep "$delay"
  pkill -KILL -P "$pid" 2>/dev/null; kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
}
# The sanitizer pass spreads 5 (at the odd points of the 10; each rerun waits out the killed sync's lease).
points=$(seq 1 10)
sanitizer_build && points=$(seq 1 2 10)
for k in $points; do
  d=$(awk -v s="$shrink_ms" -v k="$k" 'BEGIN { printf "%.3f", s * k / 11 / 1000 }')
  use small; killed_run "$d" --prune
  expect_rc 0 "shrink killed at ${d}s: rerun" kubectl tazuna state sync --prune
  check "shrink killed at ${d}s" small
  d=$(awk -v s="$grow_ms" -v k="$k" 'BEGIN { printf "%.3f", s * k / 11 / 1000 }')
  use big; killed_run "$d"
  expect_rc 0 "grow killed at ${d}s: rerun" kubectl tazuna state sync
  check "grow killed at ${d}s" big
done

# A shard a killed write left behind (not named by the base) blocks nothing and is collected.
kubectl create configmap -n tazuna "tazuna-state-$m.deadbeef.1" --from-literal=x=y >/dev/null
kubectl label configmap -n tazuna "tazuna-state-$m.deadbeef.1" "tazuna.pepabo.com/state-shard-of=$m" >/dev/null
use small
expect_rc 0 "a sync with a leftover shard present" kubectl tazuna state sync --prune
check "leftover collected" small
# A shard the base names but that is gone is an error, never a smaller state.
use big
expect_rc 0 "spill again" kubectl tazuna state sync
first=$(shards_named | cut -d' ' -f1)
kubectl delete cm -n tazuna "$first" >/dev/null
expect_rc 2 "a missing shard fails diff" kubectl tazuna state diff -m "$m"
expect_contains "$ERR" "state of manifest \"$m\" is incomplete: configmap tazuna/$first named by tazuna-state-$m is missing" \
  "error names the missing shard"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
for c in $(kubectl get cm -n tazuna -o name | grep "tazuna-state-$m"); do kubectl delete -n tazuna "$c" >/dev/null; done
finish
