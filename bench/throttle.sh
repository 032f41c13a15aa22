#!/usr/bin/env bash
# Throttled versus unthrottled: the same sync of N fresh objects (bench/gen.py's mix over 5 manifests) against
# the apiserver as started, then against it restarted (scripts/cluster restart-apiserver) with low in-flight
# limits, as a ServiceAccount bound to cluster-admin: system:masters, as which the local kubeconfig's admin
# connects, is exempt from every limit. After each run: exit 0, every object live, `state diff` finds nothing.
# The apiserver is restarted without the limits at the end.
#
# Usage: bench/throttle.sh TAZUNA_BINARY [N] [RUNS]   (N 5000, RUNS 3; KUBECONFIG of a scripts/cluster cluster)
# Environment:
#   BENCH_THROTTLE_ARGS  the limits (default: API Priority and Fairness off, --max-requests-inflight=2,
#                        --max-mutating-requests-inflight=1: the syncs meet many 429s)
#   BENCH_WORK, BENCH_LOGS  where objects and logs go (defaults under ~/.cache/kubectl-tazuna/bench and /tmp)
#   BENCH_CONCURRENCY    --concurrency for the syncs (default: the binary's)
# Output: a table on stdout (RENEWAL MISSES: lock renewals that missed their deadline, so that writes waited;
# LONGEST GAP: from a renewal's start to the end of the next, whose deadline is 2/3 of the 15 s lease);
# one JSON line per run in $BENCH_LOGS/throttle.jsonl.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
ours=$1
n=${2:-5000}
runs=${3:-3}
limits=${BENCH_THROTTLE_ARGS:---enable-priority-and-fairness=false --max-requests-inflight=2 --max-mutating-requests-inflight=1}
work=${BENCH_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-tazuna/bench}/throttle
logs=${BENCH_LOGS:-$(mktemp -d)}
cluster_dir=$(dirname "$KUBECONFIG")
say() { echo "throttle: $*" >&2; }
cluster() { TAZUNA_CLUSTER_DIR=$cluster_dir "$repo/scripts/cluster" "$@"; }
if [ ! -f "$cluster_dir/apiserver.args" ]; then
  say "n/a: $KUBECONFIG is not a cluster scripts/cluster started with restart support (no apiserver.args)"
  exit 0
fi
mkdir -p "$work" "$logs"

# A user the limits apply to: a ServiceAccount with cluster-admin, its token in a kubeconfig of its own.
kubectl create namespace tazuna-bench --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl create serviceaccount bench -n tazuna-bench --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kubectl create clusterrolebinding tazuna-bench --clusterrole=cluster-admin --serviceaccount=tazuna-bench:bench \
  --dry-run=client -o yaml | kubectl apply -f - >/dev/null
kc=$work/kubeconfig
kubectl config view --raw --flatten --minify > "$kc"
chmod 600 "$kc"
kubectl --kubeconfig "$kc" config set-credentials tazuna-bench --token="$(kubectl create token bench -n tazuna-bench --duration=3h)" >/dev/null
kubectl --kubeconfig "$kc" config set-context --current --user=tazuna-bench >/dev/null

: > "$logs/throttle.jsonl"
# one MODE RUN: a sync of N fresh objects (own namespaces), timed and checked
one() {
  local mode=$1 run=$2 prefix="bt-thr-$1-$2" d t0 t1 rc=0 summary ok=yes want live ns
  d=$work/$prefix
  rm -rf "$d"
  python3 "$repo/bench/gen.py" "$d" "$n" "$prefix" >/dev/null
  t0=$(date +%s%N)
  "$ours" state sync -f "$d/base/tazuna.yaml" --kubeconfig "$kc" -v=2 ${BENCH_CONCURRENCY:+--concurrency "$BENCH_CONCURRENCY"} \
    > "$logs/$prefix.out" 2> "$logs/$prefix.err" || rc=$?
  t1=$(date +%s%N)
  summary=$(grep -m1 '^sync: ' "$logs/$prefix.err" || true)
  # Nothing lost: every object live, and the state equal to the render.
  want=$(cat "$d"/base/manifests/m*/*.yaml | grep -c '^kind: ' || true)
  live=0
  for ns in "$prefix-m0" "$prefix-m1" "$prefix-m2" "$prefix-m3" "$prefix-m4"; do
    live=$(( live + 1 + $(kubectl get configmaps,secrets,services,deployments -n "$ns" --no-headers 2>/dev/null | grep -vc kube-root-ca.crt) ))
  done
  [ "$rc" = 0 ] && [ "$live" = "$want" ] || ok=no
  [ "$("$ours" state diff -f "$d/base/tazuna.yaml" 2>/dev/null)" = "No changes detected." ] || ok=no
  # Renewals that missed their deadline: each makes the sync's writes wait (a warning), or fails a renewal.
  misses=$(grep -c -e 'the sync lock was not renewed for' -e 'could not renew the sync lock' "$logs/$prefix.err" || true)
  # The longest time from one renewal's start to the end of the next (-v=2; its deadline is 2/3 of the lease).
  gap=$(grep -o '[0-9]*ms after the previous renewal began' "$logs/$prefix.err" | sort -n | tail -1 | grep -o '^[0-9]*' || true)
  python3 - "$mode" "$run" "$n" "$(( t1 - t0 ))" "$rc" "$ok" "$live" "$want" "$summary" "$misses" "${gap:-}" >> "$logs/throttle.jsonl" <<'PY'
import json, re, sys
mode, run, n, ns, rc, ok, live, want, summary, misses, gap = sys.argv[1:12]
m = re.search(r"\((\d+) API requests, (\d+) state writes\)(?:; (\d+) throttled \(429\), requests in flight adapted from (\d+) down to (\d+))?", summary)
print(json.dumps({"mode": mode, "run": int(run), "n": int(n), "seconds": int(ns) / 1e9, "rc": int(rc), "complete": ok == "yes",
                  "live": int(live), "want": int(want), "requests": int(m[1]) if m else None,
                  "throttled": int(m[3]) if m and m[3] else 0, "lowest": int(m[5]) if m and m[5] else None,
                  "renewal_misses": int(misses), "longest_renewal_gap_ms": int(gap) if gap else None}))
PY
  say "$mode run $run: exit $rc, $live/$want objects live, complete=$ok; $summary"
  kubectl delete namespace "$prefix-m0" "$prefix-m1" "$prefix-m2" "$prefix-m3" "$prefix-m4" --wait=false >/dev/null 2>&1 || true
  kubectl get cm -n tazuna -o name | grep "^configmap/tazuna-state-$prefix-" | xargs -r kubectl delete -n tazuna >/dev/null 2>&1 || true
}

for run in $(seq 1 "$runs"); do one unthrottled "$run"; done
say "restarting the apiserver with: $limits"
# shellcheck disable=SC2086
cluster restart-apiserver $limits >/dev/null
for run in $(seq 1 "$runs"); do one throttled "$run"; done
say "restarting the apiserver without the limits"
cluster restart-apiserver >/dev/null

python3 - "$logs/throttle.jsonl" "$limits" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
print(f"Throttled vs unthrottled: sync of {rows[0]['n']} fresh objects, {len(rows) // 2} runs each; limits: {sys.argv[2]}")
print(f"{'APISERVER':<13}{'MEDIAN':>9}{'MIN-MAX':>17}{'429s (median)':>15}{'IN FLIGHT (lowest)':>20}{'COMPLETE':>10}"
      f"{'RENEWAL MISSES':>16}{'LONGEST GAP':>13}")
med = {}
for mode in ("unthrottled", "throttled"):
    rs = [r for r in rows if r["mode"] == mode]
    if not rs:
        continue
    t = [r["seconds"] for r in rs]
    med[mode] = statistics.median(t)
    low = [r["lowest"] for r in rs if r["lowest"] is not None]
    span = f"{min(t):.1f}-{max(t):.1f}s"
    complete = f"{sum(r['complete'] for r in rs)}/{len(rs)}"
    lowest = str(min(low)) if low else "-"
    misses = sum(r.get("renewal_misses", 0) for r in rs)
    gaps = [r["longest_renewal_gap_ms"] for r in rs if r.get("longest_renewal_gap_ms") is not None]
    gap = f"{max(gaps) / 1000:.1f}s" if gaps else "-"
    print(f"{mode:<13}{med[mode]:>8.1f}s{span:>17}{statistics.median(r['throttled'] for r in rs):>15.0f}{lowest:>20}{complete:>10}"
          f"{misses:>16}{gap:>13}")
if len(med) == 2:
    print(f"throttled/unthrottled: {med['throttled'] / med['unthrottled']:.2f}x")
PY
