#!/usr/bin/env bash
# Writes are bound by the lease (issue 47): a validating webhook (this script's own, over HTTPS) holds a
# sync's apply of ConfigMap c with value "slow" for 25 s, longer than the lease (15 s) has left, while the
# sync loses its lock:
# 1. the sync is stopped (SIGSTOP) and a second sync (of another manifest, d) takes the lock over after the
#    lease duration;
# 2. the sync is killed as Ctrl-C kills it (SIGINT) and a second sync starts at once on the same machine,
#    where a holder whose process is gone is taken over without waiting the whole lease.
# Each time the held write must never commit after the second sync took the lock: its ?timeout= ends it
# inside the server by 5/6 of the lease after its last renewal (before any takeover), and the takeover after
# Ctrl-C waits for that bound. On a binary without the bound the held write commits at 25 s, under the
# second sync's lock (c becomes "slow"). Takes ~70 s.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
m=lb$s
ns=$(new_namespace lb)
hook=$E2E_TMP/hook
mkdir -p "$hook"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$hook/key.pem" -out "$hook/cert.pem" -days 1 -subj /CN=127.0.0.1 \
  -addext subjectAltName=IP:127.0.0.1 >/dev/null 2>&1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The webhook allows everything; an object whose data.v is "slow" only after 25 s. It logs each arrival.
python3 - "$port" "$hook" > "$hook/server.log" 2>&1 <<'EOF' &
import json, ssl, sys, time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
port, d = int(sys.argv[1]), sys.argv[2]
class H(BaseHTTPRequestHandler):
    def do_POST(self):
        review = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        req = review["request"]
        v = ((req.get("object") or {}).get("data") or {}).get("v")
        with open(d + "/arrivals", "a") as f: f.write("%s %s\n" % (v, time.time()))
        if v == "slow": time.sleep(25)
        body = json.dumps({"apiVersion": "admission.k8s.io/v1", "kind": "AdmissionReview",
                           "response": {"uid": req["uid"], "allowed": True}}).encode()
        try:
            self.send_response(200); self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
        except OSError:
            pass  # the apiserver gave up on it
    def log_message(self, *a): pass
srv = ThreadingHTTPServer(("127.0.0.1", port), H)
ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER); ctx.load_cert_chain(d + "/cert.pem", d + "/key.pem")
srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
srv.serve_forever()
EOF
server=$!
trap 'kill $server 2>/dev/null; kubectl delete validatingwebhookconfiguration "lb-$s" >/dev/null 2>&1; rm -rf "$E2E_TMP"' EXIT

kubectl create namespace "$ns" >/dev/null
kubectl label namespace "$ns" "tazuna-e2e-slow=$s" >/dev/null
kubectl apply -f - >/dev/null <<EOF
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: lb-$s}
webhooks:
  - name: slow.lb$s.tazuna.e2e
    clientConfig: {url: "https://127.0.0.1:$port/validate", caBundle: "$(base64 -w0 < "$hook/cert.pem")"}
    rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [configmaps]}]
    namespaceSelector: {matchLabels: {tazuna-e2e-slow: "$s"}}
    sideEffects: None
    admissionReviewVersions: [v1]
    timeoutSeconds: 30
    failurePolicy: Fail
EOF

repo=$E2E_TMP/repo
mkdir -p "$repo/objs" "$repo/other"
tazuna_yaml "$repo" "{name: $m, type: manifests, path: ./objs}" "{name: $m-d, type: manifests, path: ./other}"
repo_at "$repo" "https://github.com/e2e-lease/$m.git"
value() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: %s}\ndata: {v: "%s"}\n' "$ns" "$1" > "$repo/objs/c.yaml"; }
other() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d, namespace: %s}\ndata: {v: "%s"}\n' "$ns" "$1" > "$repo/other/d.yaml"; }
cd "$repo"
value one
other one
# The webhook answers once it is registered (the apiserver may take a moment to call it).
for _ in $(seq 50); do kubectl tazuna state sync >/dev/null 2>&1 && break; sleep 0.2; done
expect_eq "$(kubectl get cm c -n "$ns" -o jsonpath='{.data.v}')" "one" "a first sync through the webhook"

# slow_sync: starts a sync of value "slow" (SIGINT at its default action, as from a terminal) in the
# background as $held, and returns once the webhook holds its apply.
slow_sync() {
  value slow
  : > "$hook/arrivals"
  python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
    kubectl-tazuna state sync -m "$m" > "$E2E_TMP/held.out" 2> "$E2E_TMP/held.err" &
  held=$!
  for _ in $(seq 150); do grep -q '^slow ' "$hook/arrivals" 2>/dev/null && return 0; sleep 0.1; done
  fail "the webhook never held the slow apply"; cat "$E2E_TMP/held.err"
}

# settled DESC: once the webhook has let the held apply go (25 s after it arrived, and a moment), c still
# holds "one": the held write never committed.
settled() {
  local arrived
  arrived=$(awk '$1 == "slow" {print $2; exit}' "$hook/arrivals")
  python3 -c 'import sys, time; time.sleep(max(0, float(sys.argv[1]) + 27 - time.time()))' "$arrived"
  expect_eq "$(kubectl get cm c -n "$ns" -o jsonpath='{.data.v}')" "one" "$1"
}

# --- 1. Stopped past the lease: the second sync takes over after the lease duration; the held write dies.
slow_sync
kill -STOP "$held"
other second
t0=$(date +%s)
expect_rc 0 "a second sync takes the stopped sync's lock" kubectl tazuna state sync -m "$m-d" --lock-timeout 60s
expect_contains "$ERR" "waiting for the sync lock held by" "it waited for the lock"
expect_eq "$(kubectl get cm d -n "$ns" -o jsonpath='{.data.v}')" "second" "the second sync applied its value"
echo "  (the second sync took $(( $(date +%s) - t0 )) s)"
settled "the held write of the stopped sync never committed under the second sync's lock"
kill -KILL "$held" 2>/dev/null; wait "$held" 2>/dev/null
value one
expect_rc 0 "c is one again" kubectl tazuna state sync -m "$m"

# --- 2. Ctrl-C, then a second sync at once: the holder is gone here, but its held write is waited out.
slow_sync
kill -INT "$held"; wait "$held"; rc=$?
expect_eq "$rc" "130" "the first sync died of SIGINT"
other third
t0=$(date +%s%N)
expect_rc 0 "a second sync right after Ctrl-C" kubectl tazuna state sync -m "$m-d" --lock-timeout 60s
waited=$(( ($(date +%s%N) - t0) / 1000000 ))
expect_eq "$(kubectl get cm d -n "$ns" -o jsonpath='{.data.v}')" "third" "the second sync applied its value"
echo "  (the second sync took ${waited} ms: the held write's bound, not a whole lease seen unchanged)"
settled "the held write of the killed sync never committed under the second sync's lock"

value one
expect_rc 0 "the state is the last sync's" kubectl tazuna state diff
kubectl delete validatingwebhookconfiguration "lb-$s" >/dev/null 2>&1
kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" "tazuna-state-$m-d" >/dev/null 2>&1
finish
