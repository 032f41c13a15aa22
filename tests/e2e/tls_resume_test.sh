#!/usr/bin/env bash
# A server that refuses TLS session resumption instead of falling back to a full handshake costs a sync nothing
# (tls_resume_proxy.py in front of the apiserver answers every ClientHello that offers a session with an alert,
# or, as some load balancers do, resets the connection). Writes go out on fresh connections (lock, state,
# revision record), which offer the session cached from the first connection; once such a handshake fails, the
# plugin stops resuming and tries the request again with a full handshake (nothing went out before the
# handshake ended). For each kind of refusal: the proxy did refuse resumptions, a sync and a second one succeed
# through it, the objects and state are there, and `state diff` finds nothing. Before the fix, the reset kind
# failed every write until the 60-second retry window ended. ~5 s.
source "$(dirname "$0")/lib.sh"

M=tr$RANDOM
ns=$(new_namespace tr)
server=$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}')
upstream=${server#https://}
upstream=${upstream%%/*}
cluster=$(kubectl config view --minify -o jsonpath='{.contexts[0].context.cluster}')
proxy=""
trap 'kill $proxy 2>/dev/null; rm -rf "$E2E_TMP"' EXIT
# proxy_start MODE: a proxy refusing resumption by MODE (alert|reset); sets kc (a kubeconfig through it) and
# counts (the file of its connections)
proxy_start() {
  local port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  counts=$E2E_TMP/connections-$1
  : > "$counts"
  python3 "$E2E_DIR/tls_resume_proxy.py" "$port" "$upstream" "$counts" "$1" 2> "$E2E_TMP/proxy-$1.log" &
  proxy=$!
  for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port))" 2>/dev/null && break
    sleep 0.1; done
  kc=$E2E_TMP/proxied-$1.kubeconfig
  kubectl config view --raw --flatten > "$kc" && chmod 600 "$kc"
  kubectl --kubeconfig "$kc" config set-cluster "$cluster" --server "https://127.0.0.1:$port" > /dev/null
}

repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
cd "$repo" || exit 1
tazuna_yaml "$repo" "{name: $M, type: manifests, path: ./objs}"
# objects VALUE: the Namespace and 40 ConfigMaps, c1 holding VALUE
objects() {
  printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns"
  for i in $(seq 1 40); do
    printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d, namespace: %s}\ndata: {v: "%s"}\n' "$i" "$ns" \
      "$([ "$i" = 1 ] && echo "$1" || echo "$i")"
  done
}

for mode in alert reset; do
  proxy_start "$mode"
  objects "$mode-1" > objs/all.yaml
  expect_rc 0 "$mode: a sync through a server that refuses resumption" kubectl tazuna state sync --kubeconfig "$kc"
  expect_contains "$ERR" " 0 failed in" "$mode: the summary has no failure"
  objects "$mode-2" > objs/all.yaml
  expect_rc 0 "$mode: a second sync through it" kubectl tazuna state sync --kubeconfig "$kc"
  expect_contains "$ERR" "1 configured" "$mode: the change is applied"
  refused=$(grep -c '^refused$' "$counts")
  if [ "$refused" -gt 0 ]; then pass "$mode: the proxy refused $refused resumption(s) of $(wc -l < "$counts") connections"
  else fail "$mode: no connection offered a session to resume: the case is not exercised"; cat "$counts"; fi
  expect_eq "$(kubectl get cm c1 -n "$ns" -o jsonpath='{.data.v}')" "$mode-2" "$mode: the live value is the new one"
  expect_eq "$(kubectl get cm -n "$ns" --no-headers 2>/dev/null | grep -c '^c')" 40 "$mode: the ConfigMaps are live"
  expect_eq "$(state_keys "$M" | wc -w)" 41 "$mode: the state holds every object"
  expect_rc 0 "$mode: state diff through it finds nothing" kubectl tazuna state diff --kubeconfig "$kc"
  kill "$proxy" 2>/dev/null
done
kubectl delete cm -n tazuna "tazuna-state-$M" > /dev/null 2>&1
kubectl delete ns "$ns" --wait=false > /dev/null 2>&1
finish
