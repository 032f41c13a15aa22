#!/usr/bin/env bash
# An ORAS manifest, timed (#49): prometheus-operator v0.79.2's kustomize base (its kustomization.yaml and
# bundle.yaml, fetched as a Go module) packed as one tar.gz layer and pushed with `oras push` to a CNCF
# distribution registry on loopback (plain HTTP), then rendered by `kubectl tazuna build`:
#   first      nothing cached (a fresh XDG_CACHE_HOME each run): resolve, fetch, check, unpack, render
#   cached     the artifact and the render cached: the tag resolved, nothing fetched or rendered
#   pulled     the artifact cached, the render not (--no-render-cache): resolve, kustomize
#   by-digest  the reference pinned by digest, everything cached: no registry round trip at all
#   peer       what a user does by hand, as the Go tool does: `oras pull` into a fresh directory, tar xzf,
#              `kubectl kustomize`
# Each RUNS times (alternating), medians and ratios against the peer printed. No cluster (--kubeconfig /dev/null).
# Usage: bench/oras.sh [RUNS]        TAZUNA=path/to/kubectl-tazuna (default build/kubectl-tazuna)
#        ORAS_SMOKE=1: one run of each, checks that every way gives the peer's objects (what CI runs; no timing)
set -euo pipefail
repo_dir=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-5}
tazuna=${TAZUNA:-$repo_dir/build/kubectl-tazuna}
work=$(mktemp -d "${TMPDIR:-/tmp}/tazuna-oras-bench.XXXXXX")
registry_pid=""
trap '[ -z "$registry_pid" ] || kill "$registry_pid" 2>/dev/null; rm -rf "$work"' EXIT
say() { echo "oras-bench: $*" >&2; }
export GOFLAGS=-mod=mod DOCKER_CONFIG=$work/docker
mkdir -p "$work/bin" "$DOCKER_CONFIG"
ln -s "$("$repo_dir/scripts/lib/install-oras")" "$work/bin/oras"
registry_bin=$("$repo_dir/scripts/lib/install-registry")
# The control plane's kubectl (for `kubectl kustomize`, ours and the peer's), not a version dispatcher on PATH.
export PATH=$work/bin:${TAZUNA_K8S_BIN_DIR:-$HOME/.cache/kubectl-tazuna/k8s-1.33.13}:$PATH

# ---------------------------------------------------------------- the registry and the artifact
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
printf 'version: 0.1\nlog: {level: error}\nstorage: {filesystem: {rootdirectory: %s/registry}}\nhttp: {addr: "127.0.0.1:%s"}\n' \
  "$work" "$port" > "$work/registry.yml"
"$registry_bin" serve "$work/registry.yml" > "$work/registry.log" 2>&1 &
registry_pid=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/v2/" && break; sleep 0.1; done
PO=$(cd "$work" && go mod download -json github.com/prometheus-operator/prometheus-operator@v0.79.2 |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')
mkdir -p "$work/base" && cp "$PO/kustomization.yaml" "$PO/bundle.yaml" "$work/base/" && chmod -R u+w "$work/base"
tar czf "$work/layer.tar.gz" -C "$work/base" .
ref=127.0.0.1:$port/prometheus-operator:v0.79.2
(cd "$work" && oras push --plain-http "$ref" layer.tar.gz:application/vnd.oci.image.layer.v1.tar+gzip >/dev/null)
digest=$(oras resolve --plain-http "$ref")
layer_bytes=$(stat -c %s "$work/layer.tar.gz")
for r in tag digest; do
  mkdir -p "$work/$r"
  want=$ref; [ "$r" = digest ] && want=127.0.0.1:$port/prometheus-operator@$digest
  printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n  - {name: po, type: oras, path: ., oras: {reference: "%s", plainHTTP: true, delegate: {type: kustomize}}}\n' \
    "$want" > "$work/$r/tazuna.yaml"
done

# ---------------------------------------------------------------- the ways, each a command writing the objects
tz() { "$tazuna" build --kubeconfig /dev/null -f "$work/$1/tazuna.yaml" "${@:2}"; }
first() { rm -rf "$work/cache-first"; XDG_CACHE_HOME=$work/cache-first tz tag; }
cached() { XDG_CACHE_HOME=$work/cache-warm tz tag; }
pulled() { XDG_CACHE_HOME=$work/cache-warm tz tag --no-render-cache; }
by_digest() { XDG_CACHE_HOME=$work/cache-warm tz digest; }
peer() {
  rm -rf "$work/peer" && mkdir -p "$work/peer/tree"
  (cd "$work/peer" && oras pull --plain-http "$ref" >/dev/null && tar xzf layer.tar.gz -C tree && kubectl kustomize tree)
}
ways=(first cached pulled by_digest peer)
XDG_CACHE_HOME=$work/cache-warm tz digest > /dev/null  # warm: the artifact and both renders
XDG_CACHE_HOME=$work/cache-warm tz tag > /dev/null

count() { grep -c '^kind: ' "$1"; }  # the objects of a render (kustomize and we print each document's kind at column 0)
if [ "${ORAS_SMOKE:-0}" = 1 ]; then
  peer > "$work/peer.yaml"
  want=$(count "$work/peer.yaml")
  [ "$want" -gt 10 ] || { say "smoke: the peer rendered only $want objects"; exit 1; }
  for w in "${ways[@]}"; do
    "$w" > "$work/$w.yaml" || { say "smoke: $w failed"; exit 1; }
    got=$(count "$work/$w.yaml")
    [ "$got" = "$want" ] || { say "smoke: $w rendered $got objects, the peer $want"; exit 1; }
  done
  for w in cached pulled by_digest; do
    cmp -s "$work/first.yaml" "$work/$w.yaml" || { say "smoke: $w differs from first"; exit 1; }
  done
  say "smoke: $want objects from the artifact, the same every way"
  exit 0
fi

declare -A times
for i in $(seq "$runs"); do
  for w in "${ways[@]}"; do
    s=$(date +%s.%N)
    "$w" > /dev/null
    e=$(date +%s.%N)
    times[$w]="${times[$w]:-} $(python3 -c "print(f'{$e-$s:.3f}')")"
  done
done
median() { python3 -c 'import statistics,sys; print(f"{statistics.median(float(x) for x in sys.argv[1:]):.3f}")' $1; }
peer_s=$(median "${times[peer]}")
echo "ORAS manifest: prometheus-operator v0.79.2's kustomize base as one tar.gz layer ($layer_bytes bytes), kubectl tazuna build,"
echo "median of $runs runs (peer: oras pull + tar xzf + kubectl kustomize)"
for w in "${ways[@]}"; do
  m=$(median "${times[$w]}")
  printf '  %-10s %7s s   %5sx the peer   (%s)\n' "$w" "$m" "$(python3 -c "print(f'{$m/$peer_s:.2f}')")" "${times[$w]# }"
done
