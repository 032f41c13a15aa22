#!/usr/bin/env bash
# A real platform repository, timed (#27): gateway-api v1.2.1's CRDs, prometheus-operator v0.79.2's bundle and
# kwok v0.8.0's kustomize base, each through kustomize, and cert-manager v1.16.2's chart through helmfile, all
# fetched as Go modules at those versions and vendored into one git repository (as a platform repository holds
# them). Scenarios, each run RUNS times alternating the tools, medians printed:
#   build          ours (render caches on), ours --no-render-cache
#   sync-fresh     ours, kubectl apply --server-side (-k per kustomize manifest, helm template | apply for the
#                  chart); before each run the namespaced objects and states are deleted (CRDs stay)
#   diff-none      after a sync: ours, ours --no-render-cache, kubectl diff --server-side (same inputs)
#   diff-change    after one value of prometheus-operator's kustomization changed: the same three
#   diff-values    after that change is undone and one value of cert-manager's values.yaml changed: the same three
# plus ours' peak RSS in diff-none. Starts a control plane of its own (scripts/cluster, a fresh directory; objects
# land in kube-system, default and new namespaces, and states are deleted between runs) and stops it at exit.
# Needs Go, helm and helmfile (scripts/lib/install-helm, install-helmfile) and the k8s binaries scripts/cluster builds.
# Usage: bench/realrepo.sh [RUNS]      TAZUNA=path/to/kubectl-tazuna (default build/kubectl-tazuna)
#        REALREPO_RENDERERS=1: times the renderers instead (standalone kustomize against kubectl kustomize, helm
#        template against helmfile template, manifests rendered one by one against in parallel; no cluster)
#        REALREPO_SMOKE=1: renders the repository offline with and without the caches and compares (what CI
#        runs; no cluster, no timing)
set -euo pipefail
repo_dir=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
tazuna=${TAZUNA:-$repo_dir/build/kubectl-tazuna}
work=$(mktemp -d "${TMPDIR:-/tmp}/tazuna-realrepo.XXXXXX")
export TAZUNA_CLUSTER_DIR=$work/cluster
trap 'scripts_cluster down >/dev/null 2>&1; rm -rf "$work"' EXIT
scripts_cluster() { "$repo_dir/scripts/cluster" "$@"; }
export GOFLAGS=-mod=mod
say() { echo "realrepo: $*" >&2; }

module_dir() { (cd "$work" && go mod download -json "$1") | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])'; }

# ---------------------------------------------------------------- the repository
R=$work/platform
mkdir -p "$R"/{gateway-api,prometheus-operator,kwok,cert-manager/charts}
GW=$(module_dir sigs.k8s.io/gateway-api@v1.2.1)
PO=$(module_dir github.com/prometheus-operator/prometheus-operator@v0.79.2)
KW=$(module_dir sigs.k8s.io/kwok@v0.8.0)
CM=$(module_dir github.com/cert-manager/cert-manager@v1.16.2)
cp "$GW"/config/crd/standard/*.yaml "$R/gateway-api/"
(cd "$R/gateway-api" && { echo "resources:"; ls *.yaml | grep -v kustomization | sed 's/^/- /'; } > kustomization.yaml)
cp "$PO/bundle.yaml" "$R/prometheus-operator/"
printf 'resources:\n- bundle.yaml\ncommonLabels:\n  platform/tier: base\n' > "$R/prometheus-operator/kustomization.yaml"
cp -r "$KW/kustomize" "$R/kwok/base" && mkdir -p "$R/kwok/overlay"
printf 'namespace: kwok-bench\nresources:\n- ../base/kwok\n' > "$R/kwok/overlay/kustomization.yaml"
cp -r "$CM/deploy/charts/cert-manager" "$R/cert-manager/charts/"
sed -e 's/v0\.0\.0/v1.16.2/g' -e 's/{{IS_PRERELEASE}}/false/' "$R/cert-manager/charts/cert-manager/Chart.template.yaml" \
  > "$R/cert-manager/charts/cert-manager/Chart.yaml"
printf 'releases:\n  - name: cm\n    namespace: cert-manager\n    chart: ./charts/cert-manager\n    values: [values.yaml]\n' \
  > "$R/cert-manager/helmfile.yaml"
printf 'replicaCount: 1\n' > "$R/cert-manager/values.yaml"
chmod -R u+w "$R"
cat > "$R/tazuna.yaml" <<'EOF'
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - {name: gateway-api, type: kustomize, path: ./gateway-api}
    - {name: prometheus-operator, type: kustomize, path: ./prometheus-operator}
    - {name: kwok, type: kustomize, path: ./kwok/overlay}
    - {name: cert-manager-ns, type: manifests, path: ./cert-manager-ns}
    - {name: cert-manager, type: helmfile, path: ./cert-manager, dependsOn: [cert-manager-ns]}
EOF
mkdir -p "$R/cert-manager-ns"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: cert-manager}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: kwok-bench}\n' \
  > "$R/cert-manager-ns/ns.yaml"
git -C "$R" init -q && git -C "$R" remote add origin https://example.invalid/platform
say "repository: $(du -sh "$R" | cut -f1), $(find "$R" -type f | wc -l) files"

# ---------------------------------------------------------------- timing
export PATH="$(dirname "$("$repo_dir/scripts/lib/install-helm")"):$PATH"
export PATH="$(dirname "$("$repo_dir/scripts/lib/install-helmfile")"):$PATH"
# A real kubectl for `kubectl kustomize` (the control plane's): a version dispatcher (Google Cloud SDK's kubectl) picks
# another kubectl per cluster, so the render digest refuses it and every kustomize manifest would render.
export PATH="${TAZUNA_K8S_BIN_DIR:-$HOME/.cache/kubectl-tazuna/k8s-1.33.13}:$PATH"
# The plugin's render cache starts empty (its own XDG_CACHE_HOME; tools and control plane use the usual one).
tz() { XDG_CACHE_HOME=$work/cache "$tazuna" "$@"; }
declare -A times=()
timed() {  # timed LABEL CMD...: runs CMD in the repository, appends its wall time to times[LABEL]
  local label=$1; shift
  local s e
  s=$(date +%s.%N)
  (cd "$R" && "$@") > "$work/out" 2> "$work/err" || [ $? -le 1 ] || { say "$label failed: $(tail -3 "$work/err")"; }
  e=$(date +%s.%N)
  times[$label]="${times[$label]:-} $(python3 -c "print(f'{$e-$s:.3f}')")"
}
median() { python3 -c 'import statistics,sys; v=[float(x) for x in sys.argv[1:]]; print(f"{statistics.median(v):.3f}" if v else "n/a")' $1; }
peer_diff() {  # kubectl's view of the same inputs
  for k in gateway-api prometheus-operator kwok/overlay; do kubectl diff --server-side -k "$k" >/dev/null || true; done
  helm template cm cert-manager/charts/cert-manager -n cert-manager -f cert-manager/values.yaml --kube-version v1.33.0 |
    kubectl diff --server-side -f - >/dev/null || true
}
peer_apply() {
  kubectl apply --server-side --force-conflicts -f cert-manager-ns/ns.yaml >/dev/null
  for k in gateway-api prometheus-operator kwok/overlay; do kubectl apply --server-side --force-conflicts -k "$k" >/dev/null; done
  helm template cm cert-manager/charts/cert-manager -n cert-manager -f cert-manager/values.yaml --kube-version v1.33.0 |
    kubectl apply --server-side --force-conflicts -f - >/dev/null
}
three_diffs() {  # three_diffs SCENARIO: ours, ours without the caches and kubectl, runs times alternating
  for i in $(seq "$runs"); do
    timed "$1-ours" tz state diff
    timed "$1-nocache" tz state diff --no-render-cache
    timed "$1-kubectl" peer_diff
  done
}
cleanup() {  # namespaced objects and states go; CRDs stay (the cluster's own kwok uses kwok's)
  kubectl delete ns cert-manager kwok-bench --wait=true --ignore-not-found >/dev/null 2>&1 || true
  kubectl delete -f "$R/prometheus-operator/bundle.yaml" --ignore-not-found --wait=true >/dev/null 2>&1 || true
  kubectl get crd -o name | grep -q prometheuses || true
  kubectl delete cm -n tazuna -l '!tazuna.pepabo.com/state-shard-of' --ignore-not-found >/dev/null 2>&1 || true
}

if [ "${REALREPO_RENDERERS:-0}" = 1 ]; then  # part 3 of #27: which renderer, and how much in parallel
  kustomize=$("$repo_dir/scripts/lib/install-kustomize")
  kubectl_bin=${TAZUNA_K8S_BIN_DIR:-$HOME/.cache/kubectl-tazuna/k8s-1.33.13}/kubectl
  helmfile_bin=$(command -v helmfile)
  for i in $(seq "$runs"); do
    timed kubectl-kustomize-bundle "$kubectl_bin" kustomize prometheus-operator
    timed kustomize-build-bundle "$kustomize" build prometheus-operator
    timed kubectl-kustomize-kwok "$kubectl_bin" kustomize kwok/overlay
    timed kustomize-build-kwok "$kustomize" build kwok/overlay
    timed helm-template-cm helm template cm cert-manager/charts/cert-manager -n cert-manager \
      -f cert-manager/values.yaml --kube-version v1.33.13
    timed helmfile-template-cm "$helmfile_bin" --file cert-manager/helmfile.yaml template --kube-version v1.33.13
    timed build-one-by-one sh -c 'for m in gateway-api prometheus-operator kwok cert-manager-ns cert-manager; do
      "$0" build --kubeconfig /dev/null --no-render-cache -m "$m" >/dev/null || exit 2; done' "$tazuna"
    timed build-in-parallel tz build --kubeconfig /dev/null --no-render-cache
  done
  printf '%-26s %8s   %s\n' RENDER MEDIAN RUNS
  for k in "${!times[@]}"; do printf '%-26s %7ss  %s\n' "$k" "$(median "${times[$k]}")" "${times[$k]}"; done | sort
  exit 0
fi
if [ "${REALREPO_SMOKE:-0}" = 1 ]; then  # the repository renders, offline, with and without the caches
  (cd "$R" && tz build --kubeconfig /dev/null > "$work/a" && tz build --kubeconfig /dev/null > "$work/b" &&
    tz build --kubeconfig /dev/null --no-render-cache > "$work/c")
  cmp -s "$work/a" "$work/b" && cmp -s "$work/a" "$work/c" || { say "smoke: builds differ"; exit 1; }
  objects=$(grep -c '^kind:' "$work/a")
  [ "$objects" -gt 50 ] || { say "smoke: only $objects objects rendered"; exit 1; }
  # Every manifest of the repository is skippable (its digest accounts for all it reads), and what the cache
  # answers is what rendering gives (--verify-render-cache renders each again and compares).
  (cd "$R" && TAZUNA_VERIFY_RENDER_CACHE=1 tz build --kubeconfig /dev/null -v 2 > "$work/d" 2> "$work/log") ||
    { say "smoke: build --verify-render-cache failed: $(grep -v '^manifest\|^I' "$work/log" | tail -3)"; exit 1; }
  cmp -s "$work/a" "$work/d" || { say "smoke: the verified build differs"; exit 1; }
  if grep 'rendered every time' "$work/log" | grep -v ': --no-render-cache$' >&2; then  # (the verifying renders)
    say "smoke: a manifest of the repository cannot be skipped"; exit 1
  fi
  verified=$(grep -c 'rendered again to verify the cache, the same' "$work/log")
  [ "$verified" -ge 5 ] || { say "smoke: only $verified manifests read from the cache and verified"; exit 1; }
  say "smoke: $objects objects, the same with and without the render caches; $verified manifests verified"
  exit 0
fi
for i in $(seq "$runs"); do
  timed build tz build --kubeconfig /dev/null
  timed build-nocache tz build --kubeconfig /dev/null --no-render-cache
done
if true; then
  eval "$(scripts_cluster up)"
  export PATH="$TAZUNA_K8S_BIN_DIR:$PATH"
  for i in $(seq "$runs"); do
    cleanup; timed sync-fresh-ours tz state sync --wait=false
    cleanup; timed sync-fresh-kubectl peer_apply
  done
  tz state sync --wait=false -f "$R/tazuna.yaml" >/dev/null 2>&1 || true
  three_diffs diff-none
  for i in $(seq "$runs"); do timed diff-none-norepair tz state diff --repair=none; done  # without the existence LISTs
  (cd "$R" && tz state diff --verify-render-cache >/dev/null) || { say "state diff --verify-render-cache failed"; exit 1; }
  rss=$(cd "$R" && XDG_CACHE_HOME=$work/cache /usr/bin/time -f %M "$tazuna" state diff 2>&1 >/dev/null | tail -1)
  sed -i 's/platform\/tier: base/platform\/tier: changed/' "$R/prometheus-operator/kustomization.yaml"
  three_diffs diff-change
  sed -i 's/platform\/tier: changed/platform\/tier: base/' "$R/prometheus-operator/kustomization.yaml"
  sed -i 's/replicaCount: 1/replicaCount: 2/' "$R/cert-manager/values.yaml"
  three_diffs diff-values
fi

printf '%-22s %8s   %s\n' SCENARIO MEDIAN RUNS
for k in build build-nocache sync-fresh-ours sync-fresh-kubectl diff-none-ours diff-none-norepair diff-none-nocache diff-none-kubectl \
         diff-change-ours diff-change-nocache diff-change-kubectl diff-values-ours diff-values-nocache \
         diff-values-kubectl; do
  [ -n "${times[$k]:-}" ] || continue
  printf '%-22s %7ss  %s\n' "$k" "$(median "${times[$k]}")" "${times[$k]}"
done
[ -n "${rss:-}" ] && echo "peak RSS of ours, diff-none: $((rss / 1024)) MiB"
exit 0
