#!/usr/bin/env bash
# Real bundles, fetched as Go modules at pinned versions, synced and diffed by us and by kubectl on the
# same control plane. Called by scripts/bench (which starts the cluster and builds our binary); can also
# be run alone against a running cluster:
#   KUBECONFIG=... bench/bundles.sh PATH/TO/kubectl-tazuna [RUNS]
# Environment: BENCH_BUNDLES (names below; default all), BENCH_WORK, BENCH_LOGS.
# Scenarios, tools alternating run by run (ours, kubectl, ours, ...):
#   sync-fresh  `state sync` | `kubectl apply --server-side -f DIR`   (before each: objects and state deleted)
#   sync-noop   `state sync`, nothing changed
#   diff-none   `state diff` | `kubectl diff --server-side --force-conflicts -f DIR`
# Prints a table (median and range of wall time, peak RSS, ours/kubectl) and appends JSON lines to
# $BENCH_LOGS/bundles.jsonl.
set -euo pipefail
ours=$1
runs=${2:-5}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=${BENCH_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/kubectl-tazuna/bench}/bundles
logs=${BENCH_LOGS:-$work/logs}
mkdir -p "$work" "$logs"
out=$logs/bundles.jsonl

# name -> "module@version files..." (files relative to the module root)
declare -A bundles=(
  [prometheus-operator]="github.com/prometheus-operator/prometheus-operator@v0.79.2 bundle.yaml"
  [gateway-api]="sigs.k8s.io/gateway-api@v1.2.1 config/crd/experimental/gateway.networking.k8s.io_*.yaml"
)
names=${BENCH_BUNDLES:-prometheus-operator gateway-api}

say() { echo "bench: $*" >&2; }

prepare() {  # prepare NAME: $work/NAME/{m/*.yaml,tazuna.yaml}
  local name=$1 spec=${bundles[$1]} module dir f
  module=${spec%% *}
  dir=$(cd "$work" && GOFLAGS=-mod=mod go mod download -json "$module" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
  rm -rf "${work:?}/$name" && mkdir -p "$work/$name/m"
  for f in ${spec#* }; do
    # shellcheck disable=SC2086
    cp $dir/$f "$work/$name/m/"
  done
  chmod -R u+w "$work/$name"
  printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n    - name: bb-%s\n      type: manifests\n      path: ./m\n' \
    "$name" > "$work/$name/tazuna.yaml"
}

reset() {  # reset NAME: no objects of the bundle, no state
  kubectl delete -f "$work/$1/m" --ignore-not-found --wait=true --timeout=180s >/dev/null 2>&1 || true
  kubectl delete cm -n tazuna "tazuna-state-bb-$1" --ignore-not-found >/dev/null 2>&1 || true
}

measure() {  # measure NAME SCENARIO TOOL RUN CMD...
  local name=$1 scen=$2 tool=$3 run=$4 base t0 t1 rc=0; shift 4
  base=$logs/bundle-$name-$scen-$tool-$run
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$base.rss" "$@" >"$base.out" 2>"$base.err" || rc=$?
  t1=$(date +%s%N)
  python3 -c 'import json,sys
a = sys.argv
print(json.dumps({"bundle": a[1], "scenario": a[2], "tool": a[3], "run": int(a[4]), "wall_s": int(a[5]) / 1e9,
                  "rc": int(a[6]), "peak_rss_kb": int(open(a[7]).read().split()[-1]), "log": a[8]}))' \
    "$name" "$scen" "$tool" "$run" "$((t1 - t0))" "$rc" "$base.rss" "$base" >> "$out"
  case "$scen:$tool:$rc" in
    *:*:0 | diff-none:kubectl:1) ;;
    *) say "FAILED ($name $scen $tool run $run): exit $rc: $*"; sed -n '1,3p' "$base.err" >&2 ;;
  esac
}

: > "$out"
for name in $names; do
  [ -n "${bundles[$name]:-}" ] || { say "unknown bundle $name (known: ${!bundles[*]})"; exit 2; }
  say "bundle $name: ${bundles[$name]}"
  prepare "$name"
  d=$work/$name
  for run in $(seq 1 "$runs"); do
    reset "$name"; measure "$name" sync-fresh ours "$run" "$ours" state sync -f "$d/tazuna.yaml"
    reset "$name"; measure "$name" sync-fresh kubectl "$run" kubectl apply --server-side -f "$d/m"
  done
  reset "$name"
  "$ours" state sync -f "$d/tazuna.yaml" >/dev/null 2>&1
  for run in $(seq 1 "$runs"); do
    measure "$name" sync-noop ours "$run" "$ours" state sync -f "$d/tazuna.yaml"
    measure "$name" diff-none ours "$run" "$ours" state diff -f "$d/tazuna.yaml"
    measure "$name" diff-none kubectl "$run" kubectl diff --server-side --force-conflicts -f "$d/m"
  done
  reset "$name"
done

python3 - "$out" <<'PY'
import json, statistics, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
def med(b, s, t):
    w = [r["wall_s"] for r in rows if (r["bundle"], r["scenario"], r["tool"]) == (b, s, t)]
    return statistics.median(w) if w else None
lines = [("BUNDLE", "SCENARIO", "TOOL", "RUNS", "MEDIAN", "MIN-MAX", "PEAK-RSS", "OURS/THIS")]
for b in dict.fromkeys(r["bundle"] for r in rows):
    for s in ("sync-fresh", "sync-noop", "diff-none"):
        for t in ("ours", "kubectl"):
            rs = [r for r in rows if (r["bundle"], r["scenario"], r["tool"]) == (b, s, t)]
            if not rs:
                continue
            w = sorted(r["wall_s"] for r in rs)
            ratio = "" if t == "ours" or not med(b, s, "ours") else f"{med(b, s, 'ours') / med(b, s, t):.2f}"
            lines.append((b, s, t, str(len(rs)), f"{statistics.median(w):.2f}s", f"{w[0]:.2f}-{w[-1]:.2f}",
                          f"{max(r['peak_rss_kb'] for r in rs) / 1024:.0f} MB", ratio))
widths = [max(len(l[i]) for l in lines) + 2 for i in range(len(lines[0]))]
for l in lines:
    print("".join(c.ljust(w) for c, w in zip(l, widths)).rstrip())
po = "prometheus-operator"
if med(po, "sync-fresh", "ours"):
    print("\nTargets (issue 18, reported, not asserted):")
    r = med(po, "sync-fresh", "ours") / med(po, "sync-fresh", "kubectl")
    print(f"  {'met    ' if r <= 0.6 else 'not met'}  prometheus-operator sync-fresh <= 0.6x kubectl: {r:.2f}")
    d = med(po, "diff-none", "ours")
    print(f"  {'met    ' if d <= 0.2 else 'not met'}  prometheus-operator diff-none <= 0.2 s: {d:.2f} s")
    rss = max(r["peak_rss_kb"] for r in rows if r["bundle"] == po and r["tool"] == "ours") / 1024
    print(f"  {'met    ' if rss <= 40 else 'not met'}  prometheus-operator peak RSS <= 40 MB: {rss:.0f} MB")
PY
