#!/usr/bin/env bash
# Adversarial input catalogue: bad tazuna.yaml files and manifests, state ConfigMaps edited by hand, broken
# credential plugins, unreachable and misbehaving servers, and RBAC denial halfway through a sync. Every
# case asserts the exit code, one error line in kubectl's form (`error: ...`, or kubectl's own `Error from
# server ...` / `Unable to connect to the server: ...`) naming the file or object, and that the cluster
# and the state are unchanged: the resourceVersions of everything this test owns are compared.
# (kubectl-style `Warning: ...` lines on stderr are allowed besides the error line.)
source "$(dirname "$0")/lib.sh"

sfx=$(date +%s%N | tail -c 6)$RANDOM
m=bad$sfx
ns=bad-$sfx
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
cd "$repo" || exit 1
TAZUNA_HEAD='apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:'
cat > tazuna.yaml <<EOF
$TAZUNA_HEAD
  manifests:
    - name: $m
      type: manifests
      path: ./objs
EOF
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" > objs/00-ns.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: %s}\ndata: {a: "1"}\n' "$ns" > objs/10-cm.yaml

# snapshot: "Kind namespace/name resourceVersion" of everything this test owns (its names carry $sfx).
snapshot() {
  kubectl get namespaces,configmaps,secrets -A \
    -o jsonpath='{range .items[*]}{.kind} {.metadata.namespace}/{.metadata.name} {.metadata.resourceVersion}{"\n"}{end}' |
    grep -F -- "$sfx" | sort
}

CASES=0
# bad DESC RC WANT CMD...: one catalogue case. CMD exits RC, prints exactly one error line containing WANT,
# and nothing this test owns changed since BASE was taken.
bad() {
  local desc=$1 rc=$2 want=$3; shift 3
  CASES=$((CASES + 1))
  expect_rc "$rc" "$desc" "$@"
  ERR=$(printf '%s\n' "$ERR" | grep -v '^Warning: ')  # kubectl-style warnings are not errors
  if [[ "$ERR" != *$'\n'* && ("$ERR" == "error: "* || "$ERR" == "Error from server"* ||
        "$ERR" == "Unable to connect to the server: "* || "$ERR" == "The connection to the server "*) ]]; then
    pass "$desc: one error line"
  else
    fail "$desc: want one error line"; echo "  stderr: ${ERR:0:2000}"
  fi
  expect_contains "$ERR" "$want" "$desc: names the file or object"
  expect_eq "$(snapshot)" "$BASE" "$desc: cluster and state unchanged"
}

expect_rc 0 "setup: first sync" kubectl tazuna state sync
BASE=$(snapshot)
expect_contains "$BASE" "ConfigMap tazuna/tazuna-state-$m " "setup: state recorded"
expect_contains "$BASE" "ConfigMap $ns/cm " "setup: object applied"

# --- tazuna.yaml: syntax and encoding (written to t.yaml, loaded with -f) ---
tfile() { printf '%b' "$1" > t.yaml; }
# bad_tfile CONTENT DESC WANT: with t.yaml holding CONTENT (printf %b), `state sync -f t.yaml` is bad case "tazuna.yaml: DESC".
bad_tfile() { tfile "$1"; bad "tazuna.yaml: $2" 2 "$3" kubectl tazuna state sync -f t.yaml; }
good_spec="  manifests:\n    - {name: $m, type: manifests, path: ./objs}\n"
head_e=${TAZUNA_HEAD//$'\n'/\\n}\\n
bad_tfile "$head_e  manifests: [\n" "malformed YAML" "t.yaml:5:1: invalid YAML"
bad_tfile "$head_e  manifests:\n    - name: \"$m" "truncated in a quoted string" "t.yaml:5:"
bad_tfile "$head_e\tmanifests: []\n" "tab indentation" "t.yaml:4:"
tfile "$head_e$good_spec"
python3 -c 'import sys; t=open("t.yaml").read(); open("t.yaml","wb").write(b"\xff\xfe" + t.encode("utf-16-le"))'
bad "tazuna.yaml: UTF-16 with a BOM" 2 "t.yaml:1:1: invalid UTF-8 in YAML input" kubectl tazuna state sync -f t.yaml
bad_tfile "apiVersion: tazuna.pepabo.com/v1\nkind: \xef\xbb\xbfTazuna\nspec:\n$good_spec" \
  "BOM inside the document" "t.yaml:2:7: kind: must be Tazuna"
tfile "\xef\xbb\xbf$head_e$good_spec"  # the control: a UTF-8 BOM at the start is fine, as for goyaml.v2
expect_rc 0 "tazuna.yaml: a BOM at the start is accepted" kubectl tazuna build -f t.yaml
bad_tfile "apiVersion: tazuna.pepabo.com/v1\nkind: Taz\0000una\nspec:\n$good_spec" \
  "NUL byte" "t.yaml:2:10: control characters are not allowed (character 0x00)"
{ printf '%b' "$head_e  manifests: "; python3 -c 'print("[" * 10000 + "]" * 10000)'; } > t.yaml
bad "tazuna.yaml: nesting 10,000 deep" 2 "t.yaml:" kubectl tazuna state sync -f t.yaml
expect_contains "$ERR" "nesting too deep" "tazuna.yaml: nesting 10,000 deep: says why"
bad_tfile "$head_e  manifests:\n    - name: $m\n      type: manifests\n      type: kustomize\n      path: ./objs\n" \
  "duplicate key" "t.yaml:7:7: spec.manifests[0].type: key repeated in one mapping"
bad_tfile "$head_e  x0: &a [y, y, y, y, y, y, y, y, y, y]\n  x1: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n  x2: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n  x3: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n$good_spec" \
  "alias bomb" "t.yaml:4:3: spec: unknown field \"x0\""
bad_tfile "$head_e  manifests:\n    - {name: Web_App, type: manifests, path: ./objs}\n" \
  "manifest name that cannot name a ConfigMap" "t.yaml:5:14: spec.manifests[0].name: \"Web_App\""
bad_tfile "$head_e  manifests:\n    - {name: $m, type: kustomize, path: ./objs, kustomize: {defaultNamespace: Team_A}}\n" \
  "defaultNamespace not a namespace" "spec.manifests[0].kustomize.defaultNamespace: invalid namespace \"Team_A\""

# --- tazuna.yaml: a value of the wrong type for every field ---
# wrong_type FIELD-PATH SPEC-BODY: SPEC-BODY (printf %b) follows `spec:`; the error names FIELD-PATH.
wrong_type() {
  bad_tfile "$head_e$2" "wrong type for $1" "$1: "
  [[ "$ERR" == "error: t.yaml:"* ]] || fail "wrong type for $1: position in t.yaml missing"
}
mf="  manifests:\n    - name: $m\n"
bad_tfile "apiVersion: [tazuna.pepabo.com/v1]\nkind: Tazuna\nspec:\n$good_spec" \
  "wrong type for apiVersion" "t.yaml:1:13: apiVersion: "
bad_tfile "apiVersion: tazuna.pepabo.com/v1\nkind: {a: b}\nspec:\n$good_spec" "wrong type for kind" "t.yaml:2:7: kind: "
bad_tfile "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec: [a]\n" "wrong type for spec" "t.yaml:3:7: spec: "
wrong_type "spec.manifests" "  manifests: x\n"
wrong_type "spec.manifests[0]" "  manifests: [x]\n"
wrong_type "spec.context_matches" "  context_matches: x\n$good_spec"
wrong_type "spec.context_match_mode" "  context_match_mode: [or]\n$good_spec"
wrong_type "spec.environments" "  environments: [dev]\n$good_spec"
wrong_type "spec.environments.dev" "  environments: {dev: [a]}\n$good_spec"
wrong_type "spec.providers" "  providers: {a: b}\n$good_spec"
wrong_type "spec.providers[0].envfile" "  providers: [{name: e, type: envfile, envfile: x}]\n$good_spec"
wrong_type "spec.minimumSupportedTazunaVersion" "  minimumSupportedTazunaVersion: [1]\n$good_spec"
wrong_type "spec.manifests[0].name" "  manifests:\n    - {name: [a], type: manifests, path: ./objs}\n"
wrong_type "spec.manifests[0].description" "$mf      description: {a: b}\n      type: manifests\n      path: ./objs\n"
wrong_type "spec.manifests[0].type" "$mf      type: {a: b}\n      path: ./objs\n"
wrong_type "spec.manifests[0].path" "$mf      type: manifests\n      path: [./objs]\n"
wrong_type "spec.manifests[0].tags" "$mf      type: manifests\n      path: ./objs\n      tags: {a: b}\n"
wrong_type "spec.manifests[0].dependsOn" "$mf      type: manifests\n      path: ./objs\n      dependsOn: {a: b}\n"
wrong_type "spec.manifests[0].includes" "  manifests:\n    - includes: x\n"
wrong_type "spec.manifests[0].includes[0].path" "  manifests:\n    - includes: [{path: [x]}]\n"
wrong_type "spec.manifests[0].kustomize" "$mf      type: kustomize\n      path: ./objs\n      kustomize: [x]\n"
wrong_type "spec.manifests[0].kustomize.defaultNamespace" \
  "$mf      type: kustomize\n      path: ./objs\n      kustomize: {defaultNamespace: [x]}\n"
wrong_type "spec.manifests[0].manifests" "$mf      type: manifests\n      path: ./objs\n      manifests: x\n"
wrong_type "spec.manifests[0].helmfile" "$mf      type: helmfile\n      path: ./h\n      helmfile: x\n"
wrong_type "spec.manifests[0].helmfile.includeCRDs" "$mf      type: helmfile\n      path: ./h\n      helmfile: {includeCRDs: [x]}\n"
wrong_type "spec.manifests[0].helmfile.vars" "$mf      type: helmfile\n      path: ./h\n      helmfile: {vars: [x]}\n"
wrong_type "spec.manifests[0].helmfile.vars.v.from" \
  "$mf      type: helmfile\n      path: ./h\n      helmfile: {vars: {v: {from: [env]}}}\n"
wrong_type "spec.manifests[0].helmfile.extraValueFiles" \
  "$mf      type: helmfile\n      path: ./h\n      helmfile: {extraValueFiles: x}\n"
wrong_type "spec.manifests[0].helmfile.kubeVersion" "$mf      type: helmfile\n      path: ./h\n      helmfile: {kubeVersion: {a: b}}\n"
wrong_type "spec.manifests[0].helmfile.wait" "$mf      type: helmfile\n      path: ./h\n      helmfile: {wait: maybe}\n"
wrong_type "spec.manifests[0].helmfile.timeoutSeconds" \
  "$mf      type: helmfile\n      path: ./h\n      helmfile: {timeoutSeconds: soon}\n"
wrong_type "spec.manifests[0].oras" "$mf      type: oras\n      oras: x\n"
wrong_type "spec.manifests[0].oras.reference" "$mf      type: oras\n      oras: {reference: [x], delegate: {type: kustomize}}\n"
wrong_type "spec.manifests[0].oras.plainHTTP" \
  "$mf      type: oras\n      oras: {reference: r, plainHTTP: [x], delegate: {type: kustomize}}\n"
wrong_type "spec.manifests[0].oras.delegate" "$mf      type: oras\n      oras: {reference: r, delegate: x}\n"
wrong_type "spec.manifests[0].genesisSecret" "$mf      type: genesissecret\n      path: s.yaml\n      genesisSecret: x\n"
rm -f t.yaml

# --- manifests: one bad file among good ones (objs/20-bad.yaml); the error names the manifest and file ---
at="error: manifest \"$m\": objs/20-bad.yaml"
# bad_obj DESC WANT: state sync fails with WANT (after "$at") and writes nothing; the file is removed after.
bad_obj() {
  bad "manifest: $1" 2 "$at$2" kubectl tazuna state sync
  rm -f objs/20-bad.yaml
}
cm() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\n' "$1" "$ns"; }
{ cm ok; printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: x\n'; } > objs/20-bad.yaml
bad_obj "malformed YAML" ":8:1: end of map flow not found"
{ cm ok; printf -- '---\n'; cm ok2 | head -c 60; } > objs/20-bad.yaml
bad_obj "truncated YAML" ":"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n\tname: tab\n' > objs/20-bad.yaml
bad_obj "tab indentation" ":4:"
{ cm ok; printf -- '---\n\xef\xbb\xbf'; cm bom; } > objs/20-bad.yaml
bad_obj "BOM inside the stream" ":"
cm utf16 | python3 -c 'import sys; sys.stdout.buffer.write(b"\xff\xfe" + sys.stdin.read().encode("utf-16-le"))' > objs/20-bad.yaml
bad_obj "UTF-16 file" ":1:1: invalid UTF-8 in YAML input"
{ cm ok; printf 'data: {a: "x\0y"}\n'; } > objs/20-bad.yaml
bad_obj "NUL byte" ":4:"
expect_contains "$ERR" "control characters are not allowed (character 0x00)" "manifest: NUL byte: says why"
{ cm ok; printf 'data:\n  a: '; python3 -c 'print("[" * 10000 + "]" * 10000)'; } > objs/20-bad.yaml
bad_obj "nesting 10,000 deep" ":"
expect_contains "$ERR" "nesting too deep" "manifest: nesting 10,000 deep: says why"
{ cm ok; printf 'data:\n  a: a\n  b: b\n  a: again\n'; } > objs/20-bad.yaml
bad_obj "duplicate key" ":7:3: duplicate key \"a\""
{ printf 'x0: &a [y, y, y, y, y, y, y, y, y, y]\n'
  for i in 1 2 3 4 5 6 7 8; do printf 'x%d: &x%d [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n' $i $i \
    $(for _ in $(seq 10); do if [ $i = 1 ]; then echo a; else echo "x$((i - 1))"; fi; done); done
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\n'; } > objs/20-bad.yaml
bad_obj "alias bomb" ":"
expect_contains "$ERR" "nodes after alias expansion" "manifest: alias bomb: says why"
{ cm ok; printf -- '---\n'; cm 'a/b'; } > objs/20-bad.yaml
bad_obj "object name with a slash" ": document 2 (kind ConfigMap): invalid metadata.name \"a/b\""
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: Bad_NS}\n' > objs/20-bad.yaml
bad_obj "invalid namespace" ": document 1 (kind ConfigMap): invalid namespace \"Bad_NS\""
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: team.%s}\n' "$sfx" > objs/20-bad.yaml
bad_obj "Namespace name not a label" ": document 1 (kind Namespace): invalid namespace \"team.$sfx\""
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [c], namespace: %s}\n' "$ns" > objs/20-bad.yaml
bad_obj "name of the wrong type" ": document 1 (kind ConfigMap): metadata.name must be a string"
printf 'apiVersion: v1\nkind: List\nitems: {a: b}\n' > objs/20-bad.yaml
bad_obj "List items not a list" ": document 1 (kind List): items must be a list"
python3 - "$ns" > objs/20-bad.yaml <<'PY'
import sys
# One ConfigMap of 50 MiB: over the API server's 3 MiB request limit, so it can never be applied.
sys.stdout.write("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: huge, namespace: %s}\ndata:\n  blob: " % sys.argv[1])
sys.stdout.write("x" * (50 * 1024 * 1024) + "\n")
PY
start=$(date +%s)
bad_obj "a 50 MiB document" ": document 1 (kind ConfigMap): object is larger than the 3 MiB"
echo "     (50 MiB document rejected in $(( $(date +%s) - start ))s)"
python3 - "$ns" "$sfx" > objs/20-bad.yaml <<'PY'
import sys
ns, sfx = sys.argv[1], sys.argv[2]
# 10,000 documents; only the last one lacks metadata.name.
for i in range(9999):
    sys.stdout.write("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: many-%s-%d, namespace: %s}\n---\n" % (sfx, i, ns))
sys.stdout.write("apiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: %s}\n" % ns)
PY
start=$(date +%s)
bad_obj "10,000 documents, the last without a name" ": document 10000 (kind ConfigMap): missing metadata.name"
echo "     (10,000 documents checked in $(( $(date +%s) - start ))s)"

# --- state ConfigMaps edited by hand: reading them fails, naming the ConfigMap, and nothing is written ---
state_cm=tazuna-state-$m
kubectl get configmap -n tazuna "$state_cm" -o json |
  python3 -c 'import json,sys; o=json.load(sys.stdin); m=o["metadata"]; [m.pop(k, None) for k in ("resourceVersion","uid","creationTimestamp","managedFields")]; print(json.dumps(o))' \
  > "$E2E_TMP/state.json"
key=${m}____v1__ConfigMap__${ns}__cm
zeros=0000000000000000000000000000000000000000000000000000000000000000
# hand_edit DESC WANT DATA-JSON: merges DATA-JSON into the state's data, checks state sync and state diff
# fail with WANT and change nothing, then puts the state back.
hand_edit() {
  local desc=$1 want=$2 patch=$3
  kubectl patch configmap -n tazuna "$state_cm" --type=merge -p "{\"data\":$patch}" >/dev/null
  BASE=$(snapshot)
  bad "state edited by hand: $desc" 2 "$want" kubectl tazuna state sync
  bad "state edited by hand: $desc (state diff)" 2 "$want" kubectl tazuna state diff
  kubectl replace -f "$E2E_TMP/state.json" >/dev/null
  BASE=$(snapshot)
}
hand_edit "entry not JSON" "configmap $state_cm key $key: invalid state entry \"{not json\": not valid JSON" \
  "{\"$key\":\"{not json\"}"
hand_edit "hash of the wrong length" "configmap $state_cm key $key: invalid state entry" \
  "{\"$key\":\"{\\\"contentHash\\\":\\\"abc123\\\"}\"}"
expect_contains "$ERR" 'contentHash "abc123" is not 64 lowercase hex digits' "wrong hash length: says why"
hand_edit "entry without contentHash" "configmap $state_cm key $key: invalid state entry" \
  "{\"$key\":\"{\\\"hash\\\":\\\"$zeros\\\"}\"}"
hand_edit "unknown data key" "configmap $state_cm key hello: invalid state key \"hello\"" \
  "{\"hello\":\"{\\\"contentHash\\\":\\\"$zeros\\\"}\"}"
hand_edit "key of another manifest" "configmap $state_cm key other____v1__ConfigMap__${ns}__cm: state key" \
  "{\"other____v1__ConfigMap__${ns}__cm\":\"{\\\"contentHash\\\":\\\"$zeros\\\"}\"}"
hand_edit "_metadata not JSON" "configmap $state_cm: _metadata is not a JSON object" '{"_metadata":"{"}'
hand_edit "_metadata shards not a list" "configmap $state_cm: _metadata shards is not a list of names" \
  '{"_metadata":"{\"gitCommitHash\":\"\",\"lastSyncedAt\":\"2026-01-01T00:00:00Z\",\"shards\":\"many\"}"}'
hand_edit "a missing shard" "state of manifest \"$m\" is incomplete: configmap tazuna/$state_cm.deadbeef.1 named by $state_cm is missing" \
  "{\"_metadata\":\"{\\\"gitCommitHash\\\":\\\"\\\",\\\"lastSyncedAt\\\":\\\"2026-01-01T00:00:00Z\\\",\\\"shards\\\":[\\\"$state_cm.deadbeef.1\\\"]}\"}"
expect_rc 0 "state put back: state diff finds no changes" kubectl tazuna state diff

# --- credential plugins that misbehave (a kubeconfig copy with one more user and context) ---
exec_kc=$E2E_TMP/exec.kubeconfig
cp "$KUBECONFIG" "$exec_kc"
# exec_case DESC WANT PLUGIN-STDOUT: the credential plugin prints PLUGIN-STDOUT; state sync fails with WANT.
exec_case() {
  local desc=$1 want=$2
  # In a subdirectory: kubectl config stores the path relative to the kubeconfig, and a bare name would be
  # looked up on PATH (client-go's rule).
  mkdir -p "$E2E_TMP/bin"
  printf '#!/bin/sh\necho called >> %s/exec.calls\ncat <<"JSON"\n%s\nJSON\n' "$E2E_TMP" "$3" > "$E2E_TMP/bin/plugin"
  chmod +x "$E2E_TMP/bin/plugin"
  kubectl --kubeconfig "$exec_kc" config set-credentials badexec --exec-api-version=client.authentication.k8s.io/v1 \
    --exec-command="$E2E_TMP/bin/plugin" --exec-interactive-mode=Never >/dev/null
  kubectl --kubeconfig "$exec_kc" config set-context badexec --cluster=local --user=badexec >/dev/null
  rm -f "$E2E_TMP/exec.calls"
  bad "credential plugin: $desc" 2 "$want" kubectl tazuna state sync --kubeconfig "$exec_kc" --context badexec
}
exec_case "bad JSON" "getting credentials: decoding stdout" \
  '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":'
exec_case "token of the wrong type" "decoding stdout: json: cannot unmarshal number into Go struct field" \
  '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":7}}'
exec_case "bad expirationTimestamp" "decoding stdout: invalid expirationTimestamp \"yesterday\"" \
  '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"t","expirationTimestamp":"yesterday"}}'
exec_case "an expired credential the server refuses" "You must be logged in to the server (Unauthorized)" \
  '{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential","status":{"token":"stale","expirationTimestamp":"2020-01-01T00:00:00Z"}}'
calls=$(wc -l < "$E2E_TMP/exec.calls")
if [ "$calls" -ge 2 ]; then pass "expired credential: plugin run again after the 401 ($calls runs)"; else
  fail "expired credential: plugin ran $calls times, want a refresh after the 401"; fi

# --- servers that cannot be reached or misbehave ---
bad "server: unreachable" 2 "The connection to the server 127.0.0.1:1 was refused" \
  kubectl tazuna state sync --server https://127.0.0.1:1 --insecure-skip-tls-verify --token t
cat > "$E2E_TMP/server.py" <<'PY'
# A tiny HTTP "API server" on 127.0.0.1 that misbehaves as argv[1] says; prints its port.
import socket, sys
mode = sys.argv[1]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(64)
print(s.getsockname()[1], flush=True)
def ok(body):
    return b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body)
replies = {
    "garbage": b"\x00\xff\xfenot http at all\r\n\r\n" * 40,
    # Promises 4096 bytes, sends a few, closes.
    "truncated": ok(b"{" + b" " * 4095)[:120],
    "notjson": ok(b"<html>oops</html>\r\n"),
    "wrongjson": ok(b'{"versions":[1,{},null]}'),
}
while True:
    conn, _ = s.accept()
    try:
        conn.settimeout(5)
        conn.recv(65536)
        conn.sendall(replies[mode])
    except OSError:
        pass
    finally:
        conn.close()
PY
# fake_server MODE DESC WANT: state sync against a server answering every request as MODE fails with WANT.
fake_server() {
  local mode=$1 desc=$2 want=$3
  python3 "$E2E_TMP/server.py" "$mode" > "$E2E_TMP/port" &
  local pid=$!
  for _ in $(seq 50); do [ -s "$E2E_TMP/port" ] && break; sleep 0.1; done
  cat > "$E2E_TMP/fake.kubeconfig" <<KC
apiVersion: v1
kind: Config
clusters: [{name: fake, cluster: {server: "http://127.0.0.1:$(cat "$E2E_TMP/port")"}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: fake, context: {cluster: fake, user: u}}]
current-context: fake
KC
  # A discovery cache of its own: another run's cache for a server that was on this port would answer for it.
  bad "server: $desc" 2 "$want" kubectl tazuna state sync --kubeconfig "$E2E_TMP/fake.kubeconfig" --request-timeout 10s \
    --cache-dir "$E2E_TMP/fake-cache-$mode"
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  rm -f "$E2E_TMP/port"
}
fake_server garbage "sends garbage" "Unable to connect to the server"
fake_server truncated "closes mid-response" "Unable to connect to the server"
fake_server notjson "answers with HTML" "Error from server: invalid JSON in the response to GET /api"
fake_server wrongjson "answers JSON of the wrong shape" "Error from server: invalid discovery document from the server"

# --- RBAC denial halfway through a sync: a user (impersonated with --as) may write ConfigMaps in $ns only ---
user=tazuna-e2e-$sfx
deny=bad-$sfx-deny
m2=rbac$sfx
kubectl create namespace "$deny" >/dev/null
kubectl create role "$user" -n "$ns" --verb='*' --resource=configmaps >/dev/null
kubectl create rolebinding "$user" -n "$ns" --role="$user" --user="$user" >/dev/null
kubectl create role "$user" -n tazuna --verb='*' --resource=configmaps,secrets,leases.coordination.k8s.io >/dev/null
kubectl create rolebinding "$user" -n tazuna --role="$user" --user="$user" >/dev/null
# The state store reads namespace tazuna before its first write; that needs one cluster-scoped grant.
kubectl create clusterrole "$user" --verb=get --resource=namespaces --resource-name=tazuna >/dev/null
kubectl create clusterrolebinding "$user" --clusterrole="$user" --user="$user" >/dev/null
mkdir -p objs-rbac
printf '%s\n' "$TAZUNA_HEAD" "  manifests:" "    - {name: $m2, type: manifests, path: ./objs-rbac}" > rbac.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: allowed-%s, namespace: %s}\n---\n' "$sfx" "$ns" > objs-rbac/a.yaml
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: denied-%s, namespace: %s}\n' "$sfx" "$deny" >> objs-rbac/a.yaml
BASE=$(snapshot)
CASES=$((CASES + 1))
expect_rc 1 "RBAC denial halfway: state sync fails" kubectl tazuna state sync -f rbac.yaml --as "$user"
errors=$(printf '%s\n' "$ERR" | grep -c '^error: ')
expect_eq "$errors" "1" "RBAC denial halfway: one error line"
expect_contains "$ERR" "error: manifest \"$m2\": configmap/denied-$sfx -n $deny: Error from server (Forbidden)" \
  "RBAC denial halfway: the error names the manifest and the object"
expect_contains "$OUT" "configmap/allowed-$sfx -n $ns created" "RBAC denial halfway: the allowed object was applied"
expect_contains "$OUT" "configmap/denied-$sfx -n $deny failed" "RBAC denial halfway: the denied object failed"
expect_rc 1 "RBAC denial halfway: the denied object does not exist" kubectl get configmap -n "$deny" "denied-$sfx"
run kubectl get configmap -n tazuna "tazuna-state-$m2" -o jsonpath='{.data}'
expect_contains "$OUT" "${m2}____v1__ConfigMap__${ns}__allowed-$sfx" "RBAC denial halfway: state records what was applied"
expect_not_contains "$OUT" "denied-$sfx" "RBAC denial halfway: state does not record the denied object"
expect_eq "$(snapshot | grep -v -e " $ns/allowed-$sfx " -e " tazuna/tazuna-state-$m2 ")" "$BASE" \
  "RBAC denial halfway: nothing else changed"
kubectl delete clusterrolebinding,clusterrole "$user" >/dev/null
kubectl delete rolebinding,role -n tazuna "$user" >/dev/null
kubectl delete namespace "$deny" --wait=false >/dev/null
kubectl delete configmap -n tazuna "tazuna-state-$m2" >/dev/null

echo "$CASES catalogue cases"
if [ "$CASES" -ge 40 ]; then pass "catalogue holds at least 40 cases"; else fail "catalogue holds only $CASES cases"; fi
cd "$E2E_TMP" || exit 1
kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete configmap -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
