# toxiproxy between the plugin and the apiserver, for fault tests. Source after lib.sh.
#   toxi_start              build (once) and start toxiproxy-server, and a proxy to the current context's
#                           apiserver; sets TOXI_API and PROXIED_KUBECONFIG (the kubeconfig with the current
#                           context's server pointed at the proxy; the serving certificate is valid for
#                           127.0.0.1, so TLS verifies through it)
#   toxi_inject STREAM      one random toxic on that stream (upstream: requests, downstream: answers), held for a
#                           while, then removed; its kind is appended to $E2E_TMP/faults
#   toxi_injector STREAM [MAX]  toxi_inject again and again until $E2E_TMP/stop-injecting exists or
#                           $E2E_TMP/faults has MAX lines
#   toxi_reset              remove every toxic
TOXI_API=""
PROXIED_KUBECONFIG=""
TOXI_PID=""

toxi_stop() { [ -z "$TOXI_PID" ] || kill "$TOXI_PID" 2>/dev/null; rm -rf "$E2E_TMP"; }

toxi_start() {
  local bin server upstream api_port proxy_port cluster
  bin=$("$REPO_DIR/scripts/lib/install-toxiproxy") || return 1
  read -r api_port proxy_port <<< "$(python3 -c 'import socket
s=[socket.socket() for _ in range(2)]
[x.bind(("127.0.0.1",0)) for x in s]
print(*[x.getsockname()[1] for x in s])')"
  "$bin" -host 127.0.0.1 -port "$api_port" > "$E2E_TMP/toxiproxy.log" 2>&1 &
  TOXI_PID=$!
  trap toxi_stop EXIT
  TOXI_API=http://127.0.0.1:$api_port
  for _ in $(seq 100); do curl -fsS -o /dev/null "$TOXI_API/version" 2>/dev/null && break; sleep 0.1; done
  server=$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}')
  upstream=${server#https://}
  upstream=${upstream%%/*}
  curl -fsS -o /dev/null -X POST "$TOXI_API/proxies" \
    -d "{\"name\":\"kube\",\"listen\":\"127.0.0.1:$proxy_port\",\"upstream\":\"$upstream\",\"enabled\":true}" || return 1
  cluster=$(kubectl config view --minify -o jsonpath='{.contexts[0].context.cluster}')
  PROXIED_KUBECONFIG=$E2E_TMP/proxied.kubeconfig
  kubectl config view --raw --flatten > "$PROXIED_KUBECONFIG"
  chmod 600 "$PROXIED_KUBECONFIG"
  kubectl --kubeconfig "$PROXIED_KUBECONFIG" config set-cluster "$cluster" --server "https://127.0.0.1:$proxy_port" >/dev/null
}

toxi_reset() { curl -fsS -o /dev/null -X POST "$TOXI_API/reset"; }

# rand LO HI: a random integer in [LO, HI]
rand() { echo $(( $1 + RANDOM % ($2 - $1 + 1) )); }
# ms N: N milliseconds as seconds for sleep
ms() { printf '%d.%03d' $(( $1 / 1000 )) $(( $1 % 1000 )); }

toxi_inject() {
  local stream=$1 kind attrs hold name="f$RANDOM$RANDOM"
  case $(( RANDOM % 5 )) in
    # The connection is reset (RST) once data passes, after 0-50 ms.
    0) kind=reset_peer; attrs="{\"timeout\":$(rand 0 50)}"; hold=$(rand 100 300) ;;
    # Nothing passes; the connection is closed after the timeout (or when the toxic goes).
    1) kind=timeout; local t; t=$(rand 100 800); attrs="{\"timeout\":$t}"; hold=$(( t + 100 )) ;;
    # The connection is closed after this many more bytes: downstream, an answer cut after the server
    # committed the write; upstream, a request body (a 900 KiB state ConfigMap) cut on its way.
    2) kind=limit_data; attrs="{\"bytes\":$(rand 0 400000)}"; hold=$(rand 150 500) ;;
    3) kind=latency; attrs="{\"latency\":$(rand 20 400),\"jitter\":$(rand 0 50)}"; hold=$(rand 200 800) ;;
    4) kind=slicer; attrs="{\"average_size\":$(rand 16 512),\"size_variation\":8,\"delay\":$(rand 0 300)}"; hold=$(rand 200 800) ;;
  esac
  curl -fsS -o /dev/null -X POST "$TOXI_API/proxies/kube/toxics" \
    -d "{\"name\":\"$name\",\"type\":\"$kind\",\"stream\":\"$stream\",\"toxicity\":1.0,\"attributes\":$attrs}" || return 0
  echo "$kind $stream" >> "$E2E_TMP/faults"
  sleep "$(ms "$hold")"
  curl -fsS -o /dev/null -X DELETE "$TOXI_API/proxies/kube/toxics/$name" || true
}

toxi_injector() {
  local max=${2:-1000000000}
  while [ ! -f "$E2E_TMP/stop-injecting" ] && [ "$(wc -l < "$E2E_TMP/faults")" -lt "$max" ]; do
    sleep "$(ms "$(rand 20 150)")"
    [ -f "$E2E_TMP/stop-injecting" ] || toxi_inject "$1"
  done
}
