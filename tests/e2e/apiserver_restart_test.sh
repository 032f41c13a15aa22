#!/usr/bin/env bash
# kube-apiserver killed (SIGKILL) in the middle of a sync and started again (scripts/cluster kill-apiserver,
# start-apiserver; etcd keeps running): the sync finishes after the restart or fails with one error line, and
# the next sync converges with nothing lost (live objects equal the rendered ones, state list holds exactly
# the rendered keys, every shard a base names exists, no diff). One round keeps the apiserver down past the
# lock's renew deadline (10 s): writes wait for the renewal, which proves nobody took the lock meanwhile.
# Then a small throttled case: the apiserver restarted with one mutating request in flight.
# Needs the cluster of scripts/cluster (KUBECONFIG in its directory). Takes ~1 minute.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/converge.sh"

cluster_dir=$(dirname "$KUBECONFIG")
if [ ! -f "$cluster_dir/apiserver.args" ] || ! grep -q '^kube-apiserver ' "$cluster_dir/pids" 2>/dev/null; then
  fail "KUBECONFIG ($KUBECONFIG) is not a cluster of scripts/cluster: cannot restart its apiserver"
  finish; exit 1
fi
cluster() { TAZUNA_CLUSTER_DIR=$cluster_dir "$REPO_DIR/scripts/cluster" "$@"; }

new_repo rs

# gen ROUND: big: 2,300 ConfigMaps with 250-character names (1.1 MiB of state, spilled), a quarter of them
# changed each round; small: a window of 200 that moves (creates and prunes). expected.json: every rendered
# ConfigMap's name -> value.
gen() {
  python3 - "$repo" "$ns" "$1" <<'PY'
import json, os, sys
repo, ns, r = sys.argv[1], sys.argv[2], int(sys.argv[3])
expected = {}
def cm(name, value):
    expected[name] = value
    return f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}, namespace: {ns}}}\ndata: {{v: \"r{value}\"}}\n"
with open(os.path.join(repo, "big", "all.yaml"), "w") as f:
    # Object i last changed in the latest round r' <= r with r' = i (mod 4) (round 0 wrote them all).
    f.writelines(cm(f"b{i:04d}-" + "x" * 244, max([0] + [q for q in range(1, r + 1) if q % 4 == i % 4])) for i in range(2300))
with open(os.path.join(repo, "small", "all.yaml"), "w") as f:
    f.write(f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n")
    f.writelines(cm(f"s{k:04d}", r) for k in range(r * 50, r * 50 + 200))
json.dump({k: f"r{v}" for k, v in expected.items()}, open(os.path.join(repo, "expected.json"), "w"))
PY
}

gen 0
expect_rc 0 "setup: first sync" kubectl tazuna state sync --prune

# Rounds: "kill point in ms after the sync took its lock, downtime in ms". The last keeps the apiserver down
# past the renew deadline.
rounds=("$(( RANDOM % 1500 + 300 )) 500" "$(( RANDOM % 1500 + 300 )) 2500" "$(( RANDOM % 1500 + 300 )) 13000")
if sanitizer_build; then rounds=("${rounds[@]:1}"); fi  # the sanitizer pass: the longer two
for i in "${!rounds[@]}"; do
  r=$((i + 1))
  read -r kill_at down <<< "${rounds[$i]}"
  gen "$r"
  kubectl tazuna state sync --prune > "$E2E_TMP/sync.out" 2> "$E2E_TMP/sync.err" & pid=$!
  for _ in $(seq 200); do
    [ "$(kubectl get lease -n tazuna tazuna-sync -o jsonpath='{.spec.holderIdentity}' 2>/dev/null)" != "" ] && break
    sleep 0.05
  done
  sleep "$(awk -v m="$kill_at" 'BEGIN { printf "%.3f", m / 1000 }')"
  if kill -0 "$pid" 2>/dev/null; then when="mid-sync"; else when="after the sync ended"; fi
  cluster kill-apiserver
  sleep "$(awk -v m="$down" 'BEGIN { printf "%.3f", m / 1000 }')"
  cluster start-apiserver > /dev/null || { fail "round $r: the apiserver did not come back"; break; }
  wait "$pid"; rc=$?
  errors=$(grep -v -E '^(Warning: |waiting for |sync: )' "$E2E_TMP/sync.err" | grep -c .)
  summary=$(grep -m1 '^sync: ' "$E2E_TMP/sync.err")
  echo "round $r: killed ${kill_at} ms after the lock was taken ($when), down ${down} ms: exit $rc, $errors error line(s); ${summary:-no summary}"
  grep -E '^Warning: (the sync lock|could not renew)' "$E2E_TMP/sync.err" | sed 's/^/  /'
  if [ "$rc" = 0 ] || { [ "$rc" = 1 ] && [ "$errors" = 1 ]; }; then
    pass "round $r: the sync finished after the restart or failed with one error line (exit $rc)"
  else
    fail "round $r: exit $rc with $errors error lines"; head -5 "$E2E_TMP/sync.err"
  fi
  [ "$rc" = 0 ] || grep -v -E '^(Warning: |waiting for |sync: )' "$E2E_TMP/sync.err" | sed 's/^/  error: /'
  run kubectl tazuna state sync --prune
  expect_eq "$RC" "0" "round $r: the next sync succeeds"
  converged "round $r"
done

# Throttling, a small case (scripts/bench measures 5,000 objects): the apiserver restarted with one mutating
# request in flight, a sync as a ServiceAccount (system:masters is exempt from the limit) meets 429s, adapts
# its requests in flight, completes, and loses nothing.
kubectl create serviceaccount e2e-throttled -n "$ns" >/dev/null
kubectl create clusterrolebinding "e2e-throttled-$ns" --clusterrole=cluster-admin --serviceaccount="$ns:e2e-throttled" >/dev/null
kc=$E2E_TMP/throttled.kubeconfig
kubectl config view --raw --flatten --minify > "$kc"
kubectl --kubeconfig "$kc" config set-credentials e2e-throttled --token="$(kubectl create token e2e-throttled -n "$ns")" >/dev/null
kubectl --kubeconfig "$kc" config set-context --current --user=e2e-throttled >/dev/null
trap 'cluster restart-apiserver >/dev/null 2>&1; rm -rf "$E2E_TMP"' EXIT
cluster restart-apiserver --enable-priority-and-fairness=false --max-requests-inflight=2 --max-mutating-requests-inflight=1 >/dev/null
gen 4
run kubectl tazuna state sync --prune --kubeconfig "$kc"
summary=$(echo "$ERR" | grep -m1 '^sync: ')
echo "throttled: $summary"
expect_eq "$RC" "0" "throttled: the sync completes"
expect_contains "$summary" " throttled (429), requests in flight adapted from " "throttled: it met 429s and adapted"
cluster restart-apiserver >/dev/null
trap 'rm -rf "$E2E_TMP"' EXIT
converged "throttled"

# The controllers, scheduler and kwok relist with backoff after the restarts: the tests after this one need
# Deployments to become ready again, so this test ends only once a new Deployment does.
t_probe=$SECONDS
kubectl create deployment restart-probe --image=registry.example/probe:1 -n "$ns" >/dev/null
if kubectl wait --for=condition=Available deploy/restart-probe -n "$ns" --timeout=300s >/dev/null 2>&1; then
  pass "the control plane runs workloads again after the restarts ($((SECONDS - t_probe))s)"
else
  fail "a Deployment made after the restarts is not available within 300s"
fi

kubectl delete clusterrolebinding "e2e-throttled-$ns" >/dev/null 2>&1
kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$big" "tazuna-state-$small" >/dev/null 2>&1
kubectl delete cm -n tazuna -l "tazuna.pepabo.com/state-shard-of=$big" >/dev/null 2>&1
finish
