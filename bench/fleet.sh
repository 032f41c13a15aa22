#!/usr/bin/env bash
# Fleet benchmark (#28): `state diff` over three clusters in one command (--contexts, parallel) against the same
# three diffs run one after another with --context, in one run, on the same objects (N ConfigMaps in one
# namespace per cluster, synced, then 10% edited so every diff has rows).
#
# Usage: bench/fleet.sh
# Environment:
#   BENCH_FLEET_OBJECTS=500        ConfigMaps per cluster
#   BENCH_FLEET_RUNS=3             timed runs of each way; they alternate (fleet, sequential, fleet, ...)
#   BENCH_FLEET_CONTEXTS=a,b,c     use these contexts of $KUBECONFIG (three running clusters) and start nothing;
#                                  unset: three control planes are started in a temporary directory and stopped
#   BENCH_TAZUNA=PATH              the kubectl-tazuna binary (default build/kubectl-tazuna)
#   BENCH_FLEET_RESULTS=DIR        where the JSON line goes (default bench/results)
# Output: a small table on stdout and one JSON line (DIR/fleet-<UTC timestamp>.json); exit 1 when a run did not
# exit as diff should (1: changes found). tests/e2e/fleet_test.sh smoke-runs it with 20 objects and 1 run.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
objects=${BENCH_FLEET_OBJECTS:-500}
runs=${BENCH_FLEET_RUNS:-3}
tazuna=${BENCH_TAZUNA:-$repo/build/kubectl-tazuna}
results=${BENCH_FLEET_RESULTS:-$repo/bench/results}
work=$(mktemp -d)
started=()
say() { echo "bench-fleet: $*" >&2; }

cleanup() {
  local c
  for c in "${started[@]}"; do
    TAZUNA_CLUSTER_DIR=$work/$c TAZUNA_CLUSTER_NAME=$c "$repo/scripts/cluster" down >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

[ -x "$tazuna" ] || { say "no $tazuna (scripts/build first, or BENCH_TAZUNA)"; exit 1; }
if [ -n "${BENCH_FLEET_CONTEXTS:-}" ]; then
  IFS=, read -r -a contexts <<< "$BENCH_FLEET_CONTEXTS"
else
  kubeconfigs=()
  for c in ba bb bc; do
    say "starting control plane $c"
    TAZUNA_CLUSTER_DIR=$work/$c TAZUNA_CLUSTER_NAME=$c TAZUNA_CLUSTER_WORKLOADS=0 "$repo/scripts/cluster" up >/dev/null
    started+=("$c")
    kubeconfigs+=("$work/$c/kubeconfig")
  done
  export KUBECONFIG=$(IFS=:; echo "${kubeconfigs[*]}")
  contexts=(ba-admin bb-admin bc-admin)
fi
list=$(IFS=,; echo "${contexts[*]}")

# The objects: one manifest, N ConfigMaps in their own namespace.
m=benchfleet$RANDOM
ns=bench-fleet-$RANDOM
write_objects() {  # write_objects EDITED: the first EDITED ConfigMaps get another value
  local i v
  { printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns"
    for ((i = 0; i < objects; i++)); do
      v=one; [ "$i" -lt "$1" ] && v=two
      printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d, namespace: %s}\ndata: {v: "%s"}\n' "$i" "$ns" "$v"
    done; } > "$work/repo/objs/objs.yaml"
}
mkdir -p "$work/repo/objs" "$work/repo/none"
git -C "$work/repo" init -q && git -C "$work/repo" remote add origin "https://example.com/$m.git"
printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' "$m" \
  > "$work/repo/tazuna.yaml"
printf 'spec: {manifests: [{name: %s, type: manifests, path: ./none}]}\n' "$m" > "$work/repo/empty.yaml"
cd "$work/repo"
write_objects 0
say "syncing $objects objects to ${#contexts[@]} clusters"
"$tazuna" state sync --contexts "$list" >/dev/null 2>"$work/sync.err" || { cat "$work/sync.err" >&2; exit 1; }
write_objects $((objects / 10))

now_ms() { date +%s%3N; }
fleet_ms=() seq_ms=() bad=0
for ((r = 0; r < runs; r++)); do
  t0=$(now_ms); rc=0
  "$tazuna" state diff --contexts "$list" >/dev/null 2>&1 || rc=$?
  fleet_ms+=($(( $(now_ms) - t0 ))); [ "$rc" = 1 ] || { say "fleet diff exited $rc"; bad=1; }
  t0=$(now_ms)
  for c in "${contexts[@]}"; do
    rc=0; "$tazuna" state diff --context "$c" >/dev/null 2>&1 || rc=$?
    [ "$rc" = 1 ] || { say "diff --context $c exited $rc"; bad=1; }
  done
  seq_ms+=($(( $(now_ms) - t0 )))
done

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
fleet=$(median "${fleet_ms[@]}") seq=$(median "${seq_ms[@]}")
printf 'state diff, %d ConfigMaps (10%% edited) x %d clusters, median of %d runs\n' "$objects" "${#contexts[@]}" "$runs"
awk -v f="$fleet" -v s="$seq" -v n="${#contexts[@]}" 'BEGIN {
  printf "  %-44s %8.2f s\n", "one command (--contexts, in parallel)", f / 1000
  printf "  %-44s %8.2f s\n", n " sequential single-context runs", s / 1000
  printf "  %-44s %8.2fx\n", "speed-up", s / (f > 0 ? f : 1) }'
mkdir -p "$results"
printf '{"bench":"fleet-diff","objects":%d,"clusters":%d,"runs":%d,"fleet_ms":[%s],"sequential_ms":[%s]}\n' \
  "$objects" "${#contexts[@]}" "$runs" "$(IFS=,; echo "${fleet_ms[*]}")" "$(IFS=,; echo "${seq_ms[*]}")" \
  > "$results/fleet-$(date -u +%Y%m%dT%H%M%SZ).json"

# Leave reused clusters as they were.
if [ ${#started[@]} = 0 ]; then
  "$tazuna" state sync --contexts "$list" --prune --allow-empty -f empty.yaml >/dev/null 2>&1 || true
  for c in "${contexts[@]}"; do
    kubectl --context "$c" delete ns "$ns" --wait=false >/dev/null 2>&1 || true
    kubectl --context "$c" delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1 || true
  done
fi
exit "$bad"
