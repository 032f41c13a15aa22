#!/usr/bin/env bash
# Compares kube::LoadRestConfig (through tests/tools/kubeconfig_probe) with kubectl's own resolution of the
# same KUBECONFIG and flags: `kubectl config view --minify --raw -o json` for context/cluster/user/server/
# namespace/CA, `kubectl get --raw -v=6` for --server overrides, and a client dry-run for -n.
# Usage: tests/e2e/kubeconfig_parity.sh [PROBE]   (default: build/kubeconfig_probe)
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
probe=${1:-$repo/build/kubeconfig_probe}
fx=$repo/tests/testdata/kube/parity
passed=0 failed=0

kubectl_view() {  # KUBECONFIG-env flags... -> normalised JSON like the probe's
  local kc=$1; shift
  KUBECONFIG=$kc kubectl config view --minify --raw -o json "$@" 2>/dev/null | jq -c '{
    context: ."current-context", cluster: .contexts[0].context.cluster, user: .contexts[0].context.user,
    server: .clusters[0].cluster.server, namespace: (.contexts[0].context.namespace // "default"),
    ca: ((.clusters[0].cluster."certificate-authority" // .clusters[0].cluster."certificate-authority-data" // "") != ""),
    insecure: (.clusters[0].cluster."insecure-skip-tls-verify" // false),
    tlsServerName: (.clusters[0].cluster."tls-server-name" // "")}'
}

probe_view() {
  local kc=$1; shift
  KUBECONFIG=$kc "$probe" "$@" | jq -c '{context, cluster, user, server, namespace,
    ca: (.caFile != "" or .caData), insecure, tlsServerName}'
}

check() {  # name got want
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1)); echo "ok   $1"
  else
    failed=$((failed + 1)); echo "FAIL $1"; echo "  probe:   $2"; echo "  kubectl: $3"
  fi
}

view_case() {  # name KUBECONFIG flags...
  local name=$1 kc=$2; shift 2
  check "$name" "$(cd "$fx" && probe_view "$kc" "$@")" "$(cd "$fx" && kubectl_view "$kc" "$@")"
}

server_case() {  # name KUBECONFIG flags... : the URL kubectl requests vs the probe's server
  local name=$1 kc=$2; shift 2
  local got want
  got=$(cd "$fx" && KUBECONFIG=$kc "$probe" "$@" | jq -r '.server + "/version"')
  want=$(cd "$fx" && KUBECONFIG=$kc timeout 10 kubectl get --raw /version -v=6 --request-timeout=2s "$@" 2>&1 |
    sed -n 's/.*GET \(https\?:[^ ?]*\).*/\1/p' | head -1)
  check "$name" "$got" "$want"
}

namespace_case() {  # name KUBECONFIG flags... : -n as kubectl applies it to a new object
  local name=$1 kc=$2; shift 2
  got=$(cd "$fx" && KUBECONFIG=$kc "$probe" "$@" | jq -r .namespace)
  want=$(cd "$fx" && KUBECONFIG=$kc kubectl create configmap parity --dry-run=client -o 'jsonpath={.metadata.namespace}' "$@")
  check "$name" "$got" "$want"
}

A=$fx/a.yaml B=$fx/sub/b.yaml C=$fx/c.yaml
view_case "current-context from the second file" "$A:$B"
view_case "first file wins cluster and user" "$A:$B" --context ctx-a
view_case "reversed order" "$B:$A" --context ctx-a
view_case "missing files skipped" "$fx/missing.yaml:$A" --context ctx-a
view_case "duplicate entries dropped" "$A:$A:$B"
view_case "--kubeconfig alone" "$B" --kubeconfig "$A" --context ctx-a
view_case "--kubeconfig with current-context" "$A" --kubeconfig "$B"
view_case "namespace defaults to default" "$A:$B" --context ctx-nons
view_case "first current-context wins (b:c)" "$B:$C"
view_case "first current-context wins (c:b)" "$C:$B"
view_case "context stanza taken whole from the first file" "$A:$B" --context ctx-shared
view_case "context stanza whole, reversed" "$B:$A" --context ctx-shared
view_case "CA data and tls-server-name" "$B"
view_case "insecure cluster" "$C:$A"
view_case "relative KUBECONFIG entries" "a.yaml:sub/b.yaml" --context ctx-a
view_case "empty entries skipped" ":$C::$A:"
server_case "--server override" "$C:$A" --server https://127.0.0.1:4
server_case "--server with --context" "$A:$B" --context ctx-a --server https://127.0.0.1:5
server_case "server from kubeconfig" "$A:$B" --context ctx-a
namespace_case "-n override" "$C:$A" -n flag-ns
namespace_case "-n with --context" "$A:$B" --context ctx-a -n other

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
