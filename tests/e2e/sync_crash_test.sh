#!/usr/bin/env bash
# Crash safety: a sync of 300+ objects killed with SIGKILL at 10 different points, each followed by a
# rerun, always ends with state equal to the rendered hashes and every object present. A sync killed
# after applying an object under another group (a moved CRD group) still records it for a later prune.
source "$(dirname "$0")/lib.sh"
# A short sync lease: each rerun after a kill takes the killed sync's lock once its writes' time limit (5/6
# of this lease) has passed, about 6 s instead of 13 s with the default 15 s lease.
export TAZUNA_LOCK_LEASE_DURATION=6s

m=crash$RANDOM
ns=$(new_namespace cr)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
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
# The sanitizer pass kills at 5 of the 10 points (the odd ones; each rerun waits out the killed sync's lease).
points=$(seq 1 10)
sanitizer_build && points=$(seq 1 2 10)
for k in $points; do delays+=("$(awk -v s="$span_ms" -v k="$k" 'BEGIN { printf "%.3f", s * k / 11 / 1000 }')"); done
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

n=${#delays[@]}
if [ "$kills" -ge $((n * 4 / 5)) ]; then pass "$kills of $n runs were killed mid-sync"; else fail "only $kills of $n runs were killed mid-sync"; fi

# A sync killed after it applied an object under another group (its old group's CRD is gone: the same
# object by PairGroupMoves) still records it: a later prune finds it and deletes it. Recorded only under
# the old key, whose group serves nothing any more, the prune would find nothing, forget the row and leave
# the object behind. Repository g: gadgets applied after x keep the sync busy after its apply.
g=gmove$RANDOM; gns=$(new_namespace gm); ga=ga$g.tazuna.io; gb=gb$g.tazuna.io
{ crd_doc gadgets "$ga" Gadget Namespaced v1:true:true; echo "---"; crd_doc gadgets "$gb" Gadget Namespaced v1:true:true; } | kubectl apply -f - >/dev/null
established "gadgets.$ga" "gadgets.$gb"
kubectl create namespace "$gns" >/dev/null
grepo=$E2E_TMP/gmove; one_manifest "$grepo" "$g"
gadget() { printf 'apiVersion: %s/v1\nkind: Gadget\nmetadata: {name: x, namespace: %s}\nspec: {size: 1}\n' "$1" "$gns" > "$grepo/objs/00-gadget.yaml"; }
busy() {  # busy SIZE: 300 gadgets of group gb after x, changed together (modified rows go after added ones)
  for i in $(seq 1 300); do
    printf -- '---\napiVersion: %s/v1\nkind: Gadget\nmetadata: {name: y-%03d, namespace: %s}\nspec: {size: %d}\n' "$gb" "$i" "$gns" "$1"
  done > "$grepo/objs/10-busy.yaml"
}
cd "$grepo"
gadget "$ga"; busy 1
expect_rc 0 "the gadget is synced under group $ga" kubectl tazuna state sync
kubectl delete crd "gadgets.$ga" --wait=true >/dev/null
gadget "$gb"; busy 2
# A fresh discovery cache: the one of the first sync still serves the old group, so nothing pairs the rows.
expect_rc 1 "diff: the gadget moved group (one modified row)" kubectl tazuna state diff --cache-dir "$E2E_TMP/gmove-cache"
expect_eq "$(printf '%s\n' "$OUT" | grep -c "modified *gb$g.tazuna.io/v1 *Gadget *$gns *x$")" "1" "the rows are paired"
kubectl tazuna state sync --concurrency 1 --cache-dir "$E2E_TMP/gmove-cache" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 400); do kubectl get "gadgets.$gb" -n "$gns" x >/dev/null 2>&1 && break; sleep 0.05; done
kill -9 "$pid" 2>/dev/null && killed=yes || killed=no
wait "$pid" 2>/dev/null
expect_eq "$killed" "yes" "the sync was killed after it applied the gadget under $gb"
expect_contains "$(state_keys "$g")" "gb$g.tazuna.io__v1__Gadget__${gns}__x" "the state records the gadget under its new group"
rm "$grepo/objs/00-gadget.yaml"
expect_rc 0 "the gadget removed: sync --prune (after the killed sync's lease)" kubectl tazuna state sync --prune --lock-timeout 60s --cache-dir "$E2E_TMP/gmove-cache"
expect_eq "$(kubectl get "gadgets.$gb" -n "$gns" x -o name 2>/dev/null)" "" "the prune deleted the gadget"
cd "$repo"
kubectl delete ns "$gns" --wait=false >/dev/null 2>&1
kubectl delete crd "gadgets.$gb" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$g" >/dev/null 2>&1
kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
