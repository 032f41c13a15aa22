#!/usr/bin/env bash
# Crash safety: a sync of 300+ objects killed with SIGKILL at 10 different points, each followed by a
# rerun, always ends with state equal to the rendered hashes and every object present.
source "$(dirname "$0")/lib.sh"

m=crash$RANDOM
ns=$(new_namespace cr)
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
printf 'spec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' "$m" > "$repo/tazuna.yaml"
gen() {  # gen GENERATION: 320 ConfigMaps whose data depends on the generation
  {
    printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns"
    for i in $(seq 1 320); do
      printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%03d, namespace: %s}\ndata: {gen: "%s", i: "%d"}\n' "$i" "$ns" "$1" "$i"
    done
  } > "$repo/objs/all.yaml"
}
cd "$repo"
check_converged() {  # after a clean rerun: no diff, every object present with the current generation
  run kubectl tazuna state diff
  expect_eq "$RC:$OUT" "0:No changes detected." "$1: state equals the rendered hashes"
  local n
  n=$(kubectl get cm -n "$ns" -o jsonpath="{range .items[?(@.data.gen==\"$2\")]}{.metadata.name}{\"\\n\"}{end}" | grep -c '^cm-')
  expect_eq "$n" "320" "$1: all 320 objects present at generation $2"
}

# Time one full sync (every object changed) and spread the 10 kill points over it.
gen base
expect_rc 0 "initial sync" kubectl tazuna state sync --concurrency 2
span_ms=999999
for t in timing1 timing2 timing3; do  # the fastest of three full syncs
  gen "$t"
  t0=$(date +%s%N)
  expect_rc 0 "timed sync ($t)" kubectl tazuna state sync --concurrency 2
  ms=$(( ($(date +%s%N) - t0) / 1000000 ))
  [ "$ms" -lt "$span_ms" ] && span_ms=$ms
done
delays=()
for k in $(seq 1 10); do delays+=("$(awk -v s="$span_ms" -v k="$k" 'BEGIN { printf "%.3f", s * k / 11 / 1000 }')"); done
echo "full sync takes ${span_ms} ms; kill points: ${delays[*]}"
kills=0
for k in "${!delays[@]}"; do
  # A run faster than the calibrated ones may end before its kill point: the point is tried again, a little
  # earlier each time (at most 3 tries), so that late kill points still land late in a sync.
  delay=${delays[$k]}
  for try in 1 2 3; do
    gen "$k.$try"
    kubectl tazuna state sync --concurrency 2 >/dev/null 2>&1 &
    pid=$!
    sleep "$delay"
    if kill -9 "$pid" 2>/dev/null; then killed=killed; else killed="finished first"; fi
    wait "$pid" 2>/dev/null
    # The killed run's lease expires; the rerun takes it over.
    run kubectl tazuna state sync --lock-timeout 60s
    expect_eq "$RC" "0" "kill #$((k + 1)) after ${delay}s ($killed): rerun succeeds"
    check_converged "kill #$((k + 1))" "$k.$try"
    [ "$killed" = killed ] && { kills=$((kills + 1)); break; }
    delay=$(awk -v d="$delay" 'BEGIN { printf "%.3f", d * 0.85 }')
  done
done

if [ "$kills" -ge 8 ]; then pass "$kills of 10 runs were killed mid-sync"; else fail "only $kills of 10 runs were killed mid-sync"; fi
kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
