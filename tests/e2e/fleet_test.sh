#!/usr/bin/env bash
# Fleet (--contexts): one command over three real control planes (the suite's cluster, context admin, plus a
# second and a third this test starts and stops itself, contexts fb-admin and fc-admin) and an unreachable
# context: diff, list and -o json, a sync rollout that stops at the first failure, exit codes, and the
# refusal of a sync over two contexts of one cluster. Live objects are checked in each cluster afterwards.
# Time budget: about 30 s (the two extra control planes start in ~5 s each, without workload controllers);
# ctest TIMEOUT 180 (CMakeLists.txt).
source "$(dirname "$0")/lib.sh"

# scripts/cluster would build missing binaries (~25 min): without them this test cannot start its clusters.
bins=${TAZUNA_K8S_BIN_DIR:-$(ls -d "${XDG_CACHE_HOME:-$HOME/.cache}"/kubectl-tazuna/k8s-*/ 2>/dev/null | tail -1)}
if [ -z "$bins" ] || [ ! -f "$bins/.complete" ] || [ ! -x "$bins/kube-apiserver" ]; then
  echo "skip: no built control plane binaries (TAZUNA_K8S_BIN_DIR), cannot start a second cluster"; exit 77
fi
export TAZUNA_K8S_BIN_DIR=${bins%/}
fleet_dir=$E2E_TMP/fleet
cluster() {  # cluster NAME up|down: the extra control plane NAME in its own directory, ports and certificates
  TAZUNA_CLUSTER_DIR=$fleet_dir/$1 TAZUNA_CLUSTER_NAME=$1 TAZUNA_CLUSTER_WORKLOADS=0 \
    "$REPO_DIR/scripts/cluster" "$2" >/dev/null
}
trap 'cluster fb down; cluster fc down; rm -rf "$E2E_TMP"' EXIT
for c in fb fc; do
  cluster "$c" up || { echo "FAIL - could not start the control plane $c"; exit 1; }
done
# An API server that is not there: nothing listens on the port (bound, then closed).
down_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$E2E_TMP/down.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- {name: down, cluster: {server: "https://127.0.0.1:$down_port", insecure-skip-tls-verify: true}}
users:
- {name: down, user: {token: nothing}}
contexts:
- {name: fz-down, context: {cluster: down, user: down, namespace: default}}
EOF
# One user, its token from an exec credential plugin, in a context on each of fb and fc.
cat > "$E2E_TMP/sso.kubeconfig" <<EOF
apiVersion: v1
kind: Config
users:
- name: fleet-sso
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: "$REPO_DIR/scripts/lib/exec-credential-plugin", args: [admin-token], interactiveMode: Never}
contexts:
- {name: fb-sso, context: {cluster: fb, user: fleet-sso, namespace: default}}
- {name: fc-sso, context: {cluster: fc, user: fleet-sso, namespace: default}}
EOF
default_kubeconfig=$KUBECONFIG
export KUBECONFIG=$default_kubeconfig:$fleet_dir/fb/kubeconfig:$fleet_dir/fc/kubeconfig:$E2E_TMP/down.kubeconfig
KUBECONFIG=$KUBECONFIG:$E2E_TMP/sso.kubeconfig
k() { kubectl --context "$1" "${@:2}"; }  # k CONTEXT ARGS...: kubectl in one cluster

m=fleet$RANDOM
ns=$(new_namespace fleet)
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
repo_at "$repo" "https://example.com/fleet-$m.git"
write_objs() {  # write_objs VALUE
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cfg, namespace: %s}\ndata: {v: "%s"}\n' \
    "$ns" "$ns" "$1" > "$repo/objs/objs.yaml"
}
write_objs one
tazuna_yaml "$repo" "{name: $m, type: manifests, path: ./objs}"
cd "$repo" || exit 1

# The suite's cluster alone, as today: one context, no CONTEXT column.
expect_rc 0 "single-context sync as today" kubectl tazuna state sync --context admin
expect_not_contains "$OUT" "CONTEXT" "single-context output has no CONTEXT column"

# diff over three clusters: one table, CONTEXT first; a line per context; exit 1 (changes).
expect_rc 1 "diff over three clusters finds changes" kubectl tazuna state diff --contexts 'admin,f[bc]-admin'
expect_eq "$(echo "$OUT" | head -1 | awk '{print $1, $2, $3}')" "CONTEXT MANIFEST CHANGE" "CONTEXT is the first column"
expect_eq "$(echo "$OUT" | awk 'NR>1 {print $1, $3, $5}' | sort | tr '\n' ' ')" \
  "fb-admin added ConfigMap fb-admin added Namespace fc-admin added ConfigMap fc-admin added Namespace " \
  "the table has the two new clusters' rows, none for the synced one"
expect_contains "$ERR" "admin: no changes" "the synced context says it has no changes"
expect_contains "$ERR" "fb-admin: 2 changes" "a line per context with its count"

# An unreachable context never stops the others; the exit code says an error happened (2).
expect_rc 2 "diff with an unreachable context" kubectl tazuna state diff --contexts 'fb-admin,fz-*,fc-admin'
expect_contains "$ERR" "fz-down: unreachable: " "the unreachable context is named"
expect_eq "$(echo "$OUT" | awk 'NR>1 {print $1}' | sort -u | tr '\n' ' ')" "fb-admin fc-admin " \
  "the reachable contexts still report their rows"
expect_rc 2 "list with an unreachable context exits 2" kubectl tazuna state list --contexts 'admin,fz-down'
expect_contains "$OUT" "admin " "list still prints the reachable context's rows"
expect_rc 2 "list over --all-contexts (viewers are forbidden, one is down)" kubectl tazuna state list --all-contexts -m "$m"
expect_contains "$ERR" "fb-viewer: Error from server (Forbidden)" "a forbidden context says so"
expect_contains "$OUT" "admin-token " "every context of the kubeconfig took part"

# A rollout over a context whose cluster cannot be identified (here: unreachable) is refused before any write.
expect_rc 2 "a sync rollout over an unreachable context is refused" kubectl tazuna state sync --contexts fb-admin,fz-down,fc-admin
expect_contains "$ERR" 'cannot tell which cluster context "fz-down" reaches' "names the context that cannot be identified"
expect_eq "$(k fb-admin get ns "$ns" -o name 2>/dev/null)" "" "fb was not touched"

# With the risk accepted, a sync rollout in the order given stops at the first failure: fb synced, fz fails,
# fc never starts.
expect_rc 3 "sync rollout stops at the unreachable context" \
  kubectl tazuna state sync --contexts fb-admin,fz-down,fc-admin --insecure-skip-cluster-identity
expect_contains "$ERR" "fc-admin: skipped (an earlier context failed)" "the context after the failure is skipped"
expect_eq "$(k fb-admin get cm cfg -n "$ns" -o jsonpath='{.data.v}' 2>&1)" "one" "fb has the object"
expect_eq "$(k fc-admin get ns "$ns" -o name 2>/dev/null)" "" "fc was not touched"
expect_contains "$OUT" "fb-admin " "the sync's rows carry their context"

# The rest of the rollout, two at a time; each context gets its own history revision.
expect_rc 0 "sync rollout with --max-parallel 2" kubectl tazuna state sync --contexts 'f[bc]-admin' --max-parallel 2
expect_eq "$(k fc-admin get cm cfg -n "$ns" -o jsonpath='{.data.v}' 2>&1)" "one" "fc has the object now"
expect_rc 0 "history over the fleet" kubectl tazuna state history --contexts 'admin,f[bc]-admin' -o json -m "$m"
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys,collections
c=collections.Counter(i["context"] for i in json.load(sys.stdin)["items"]); print(" ".join(f"{k}={v}" for k,v in sorted(c.items())))')" \
  "admin=1 fb-admin=1 fc-admin=1" "one revision per sync that changed something (fb's second sync, all unchanged, wrote none)"
expect_rc 0 "diff over the fleet is clean" kubectl tazuna state diff --contexts 'admin,f[bc]-admin'
expect_eq "$OUT" "No changes detected." "one 'No changes detected.' for the fleet"

# -o json: one List, items carry their context.
expect_rc 0 "list -o json over three clusters" kubectl tazuna state list --contexts 'admin,f[bc]-admin' -m "$m" -o json
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["kind"], sorted((i["context"], i["kind"]) for i in d["items"]))')" \
  "List [('admin', 'ConfigMap'), ('admin', 'Namespace'), ('fb-admin', 'ConfigMap'), ('fb-admin', 'Namespace'), ('fc-admin', 'ConfigMap'), ('fc-admin', 'Namespace')]" \
  "the List holds every context's rows"

# Two contexts of one cluster are refused before anything is written (a pruning sync would ping-pong).
write_objs two
expect_rc 2 "sync over two contexts of one cluster is refused" kubectl tazuna state sync --prune --contexts fb-admin,fb-admin-token
expect_contains "$ERR" 'contexts "fb-admin" and "fb-admin-token" reach the same cluster' "the error names both contexts"
expect_eq "$(k fb-admin get cm cfg -n "$ns" -o jsonpath='{.data.v}')" "one" "nothing was written"

# A plan over the fleet: one file pinning every context's state; applied context by context.
expect_rc 1 "diff --out over two clusters" kubectl tazuna state diff --contexts 'f[bc]-admin' --out "$E2E_TMP/fleet.plan"
expect_eq "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["kind"], [p["context"] for p in d["plans"]])' "$E2E_TMP/fleet.plan")" \
  "FleetPlan ['fb-admin', 'fc-admin']" "the plan holds each context's own plan"
expect_rc 2 "--plan for other contexts is refused" kubectl tazuna state sync --contexts 'admin,f[bc]-admin' --plan "$E2E_TMP/fleet.plan"
expect_contains "$ERR" "was made for contexts fb-admin, fc-admin, not admin, fb-admin, fc-admin" "it names both sets"
kubectl tazuna state diff --context fb-admin --out "$E2E_TMP/single.plan" >/dev/null 2>&1
expect_rc 2 "a single-context plan is refused over a fleet" kubectl tazuna state sync --contexts fb-admin --plan "$E2E_TMP/single.plan"
expect_contains "$ERR" "is not a plan over contexts" "it says what a fleet needs"
expect_eq "$(k fb-admin get cm cfg -n "$ns" -o jsonpath='{.data.v}')" "one" "nothing was written"

# Changes in two of three: exit 1; a sync of the plan rolls them out and the live objects change in each cluster.
expect_rc 1 "diff after an edit" kubectl tazuna state diff --contexts 'f[bc]-admin'
expect_rc 0 "sync the edit over the two clusters, as planned" kubectl tazuna state sync --contexts 'f[bc]-admin' --plan "$E2E_TMP/fleet.plan"
for c in fb-admin fc-admin; do
  expect_eq "$(k "$c" get cm cfg -n "$ns" -o jsonpath='{.data.v}')" "two" "$c has the new value"
done
expect_eq "$(k admin get cm cfg -n "$ns" -o jsonpath='{.data.v}')" "one" "the suite's cluster kept its value"

# Contexts sharing a user run its exec credential plugin once, not once per context.
expect_rc 0 "diff over two contexts of one exec user" env EXEC_PLUGIN_LOG="$E2E_TMP/exec.log" \
  kubectl tazuna state diff --contexts 'f?-sso'
expect_contains "$ERR" "fc-sso: no changes" "the exec user's contexts both answered"
expect_eq "$(wc -l < "$E2E_TMP/exec.log" | tr -d ' ')" "1" "the exec plugin ran once for both contexts"

# A sync that fails in part in fc (an immutable ConfigMap of someone else's is in the way): fc's rows are still
# in the table, the rollout stops there and fb, next in order, is not touched.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen, namespace: %s}\nimmutable: true\ndata: {v: theirs}\n' "$ns" |
  k fc-admin create -f - >/dev/null
printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: frozen, namespace: %s}\ndata: {v: ours}\n' "$ns" >> "$repo/objs/objs.yaml"
expect_rc 1 "a rollout whose first context fails in part" kubectl tazuna state sync --contexts fc-admin,fb-admin
expect_contains "$OUT" "fc-admin " "the failing context's rows are in the table"
expect_contains "$ERR" "fb-admin: skipped (an earlier context failed)" "the next context is skipped"
expect_eq "$(k fc-admin get cm frozen -n "$ns" -o jsonpath='{.data.v}')" "theirs" "fc's immutable object is as it was"
expect_eq "$(k fb-admin get cm frozen -n "$ns" -o name 2>/dev/null)" "" "fb was not touched"
write_objs two

# The fleet benchmark, smoke-run cheaply on these clusters (20 objects, one run of each way).
expect_rc 0 "bench/fleet.sh smoke run" env BENCH_FLEET_OBJECTS=20 BENCH_FLEET_RUNS=1 BENCH_FLEET_CONTEXTS=admin,fb-admin,fc-admin \
  BENCH_TAZUNA="$TAZUNA_BUILD_DIR/kubectl-tazuna" BENCH_FLEET_RESULTS="$E2E_TMP/bench" bash "$REPO_DIR/bench/fleet.sh"
expect_contains "$OUT" "3 sequential single-context runs" "the benchmark reports both ways"

# Clean up the suite's cluster (the other two are stopped by the trap).
printf 'spec: {manifests: [{name: %s, type: manifests, path: ./none}]}\n' "$m" > "$repo/empty.yaml"
mkdir -p "$repo/none"
kubectl tazuna state sync --context admin --prune --allow-empty -f "$repo/empty.yaml" >/dev/null 2>&1
kubectl --context admin delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl --context admin delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1

echo "passed=$E2E_PASSED failed=$E2E_FAILED"
[ "$E2E_FAILED" = 0 ]
