#!/usr/bin/env bash
# The plugin is found by kubectl, every kubeconfig context works, and connection failures read like kubectl's.
source "$(dirname "$0")/lib.sh"

run kubectl plugin list
expect_contains "$OUT" "$TAZUNA_BUILD_DIR/kubectl-tazuna" "kubectl plugin list finds the plugin"
if [[ "$OUT$ERR" == *"$TAZUNA_BUILD_DIR/kubectl-tazuna"*"warning"* ]] || [[ "$ERR" == *"kubectl-tazuna"*"warning"* ]]; then
  fail "kubectl plugin list warns about kubectl-tazuna: $ERR"
else
  pass "no plugin warning for kubectl-tazuna"
fi

for ctx in admin admin-token exec viewer; do
  expect_rc 0 "kubectl --context $ctx get --raw /version" kubectl --context "$ctx" get --raw /version
  expect_rc 0 "kubectl tazuna version --context $ctx" kubectl tazuna version --context "$ctx"
  expect_contains "$OUT" "Server Version: v1." "server version through context $ctx"
done
expect_rc 1 "viewer cannot list configmaps with kubectl" kubectl --context viewer get cm -A
expect_contains "$ERR" "Error from server (Forbidden)" "viewer gets Forbidden from kubectl"

expect_rc 0 "version -o json" kubectl tazuna version -o json
if echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["clientVersion"]["gitVersion"].startswith("v"); assert d["serverVersion"]["major"]=="1"'; then
  pass "version -o json parses with client and server versions"; else fail "version -o json content: $OUT"; fi

# Every request carries a User-Agent shaped as kubectl's own (client-go's rule: the version without its
# -suffix, the commit cut to 7 characters). The local apiserver keeps no audit log, so the header the
# server receives is read from the plugin's -v 7 request-header logging.
client_version=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["gitVersion"])')
client_commit=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["gitCommit"])')
want_agent="kubectl-tazuna/${client_version%%-*} (linux/amd64) kubernetes/${client_commit:0:7}"
expect_rc 0 "version -v 7" kubectl tazuna version -v 7
expect_contains "$ERR" "User-Agent: $want_agent" "User-Agent names the version and commit"
expect_not_contains "$ERR" "kubectl-tazuna/v0.0.0 (linux/amd64) kubernetes/unknown" "User-Agent is not the placeholder"
expect_rc 0 "state list -v 7" kubectl tazuna state list --all -v 7
expect_contains "$ERR" "User-Agent: $want_agent" "state commands send the same User-Agent"

run kubectl tazuna --help
expect_contains "$OUT" "state sync" "--help lists state sync"

# Unreachable server: the client version is still printed, with a note.
expect_rc 0 "version against a closed port" kubectl tazuna version --server https://127.0.0.1:1 --request-timeout 3s
expect_contains "$OUT" "Client Version: v" "client version without a server"
expect_contains "$ERR" "The connection to the server 127.0.0.1:1 was refused" "refused connection in kubectl's words"

# A server that accepts connections but never answers: a clear error within --request-timeout.
python3 -c 'import socket,time
s=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1",0)); s.listen(5)
open("'"$E2E_TMP"'/port","w").write(str(s.getsockname()[1]))
conns=[]
end=time.time()+30
while time.time()<end:
    s.settimeout(1)
    try: conns.append(s.accept())
    except Exception: pass' &
sleeper=$!
for _ in $(seq 100); do [ -s "$E2E_TMP/port" ] && break; sleep 0.1; done  # python may start slowly on a busy machine
port=$(cat "$E2E_TMP/port")
start=$(date +%s)
run kubectl tazuna state list --all --server "https://127.0.0.1:$port" --insecure-skip-tls-verify --request-timeout 2s
elapsed=$(( $(date +%s) - start ))
kill "$sleeper" 2>/dev/null
expect_eq "$RC" "2" "slow server: exit 2 (refused before any write)"
expect_contains "$ERR" "Unable to connect to the server" "slow server: kubectl's wording"
if [ "$elapsed" -le 12 ]; then pass "slow server: gave up within the request timeout ($elapsed s)"; else fail "slow server took $elapsed s"; fi

# Exec plugins: a missing binary prints the installHint; a rejected first token is re-run once.
cfg=$E2E_TMP/exec.kubeconfig
server=$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}')
ca=$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.certificate-authority}')
cat > "$cfg" <<KC
apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "$server", certificate-authority: "$ca"}}]
users:
- name: missing
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: no-such-credential-helper, interactiveMode: Never,
           installHint: "install it with: apt install no-such-credential-helper"}
- name: flaky
  user:
    exec: {apiVersion: client.authentication.k8s.io/v1, command: "$REPO_DIR/scripts/lib/exec-credential-plugin",
           args: ["admin-token"], interactiveMode: Never}
contexts:
- {name: missing, context: {cluster: c, user: missing}}
- {name: flaky, context: {cluster: c, user: flaky}}
current-context: missing
KC
expect_rc 2 "missing exec binary fails" kubectl tazuna state list --all --kubeconfig "$cfg"
expect_contains "$ERR" "executable no-such-credential-helper not found" "missing exec binary named"
expect_contains "$ERR" "apt install no-such-credential-helper" "installHint shown"
export EXEC_PLUGIN_FIRST_TOKEN=bogus-token EXEC_PLUGIN_STATE=$E2E_TMP/exec-state EXEC_PLUGIN_LOG=$E2E_TMP/exec-log
expect_rc 0 "exec plugin whose first token is rejected: command still succeeds" \
  kubectl tazuna state list --all --kubeconfig "$cfg" --context flaky
calls=$(wc -l < "$E2E_TMP/exec-log")
expect_eq "$calls" "2" "exec plugin re-run once after the 401"
unset EXEC_PLUGIN_FIRST_TOKEN EXEC_PLUGIN_STATE EXEC_PLUGIN_LOG
finish
