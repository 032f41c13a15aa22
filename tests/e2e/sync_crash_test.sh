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

delays=(0.05 0.15 0.3 0.5 0.8 1.1 1.5 2.0 2.6 3.3)
for k in "${!delays[@]}"; do
  gen "$k"
  kubectl tazuna state sync --concurrency 4 >/dev/null 2>&1 &
  pid=$!
  sleep "${delays[$k]}"
  kill -9 "$pid" 2>/dev/null && killed=killed || killed="finished first"
  wait "$pid" 2>/dev/null
  # The killed run's lease expires; the rerun takes it over.
  run kubectl tazuna state sync --lock-timeout 60s
  expect_eq "$RC" "0" "kill #$((k + 1)) after ${delays[$k]}s ($killed): rerun succeeds"
  check_converged "kill #$((k + 1))" "$k"
done

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
