#!/usr/bin/env bash
# Secrets never leave the process (issue 25): Secrets first created with `kubectl apply` (so their values
# sit in last-applied-configuration) are adopted by a sync; a Go-format plain hash is put in the state; an
# apply of a Secret fails with a server error about its data. Every command runs at -v 10, and all its
# stdout, stderr and files (plans) are grepped for each value, its base64, and the plain SHA-256 of the
# Secret (whole, and as the 12-digit prefix tables print). Revision ConfigMaps are checked too. Then a
# value with a quote, a backslash, a tab and <>& that the server echoes in escapes, a mistyped Secret
# (stringData a string), and a server URL with user:password@ (request logs, plans, a refused connection). ~35 s.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
M=leak$s
ns=$(new_namespace lk)
value="leak-$s-Value-xyzzy"           # stringData of Secret "s"
value2="leak-$s-Data-plugh"           # data (base64) of Secret "d"
b64=$(printf %s "$value" | base64 -w0)
b64_2=$(printf %s "$value2" | base64 -w0)
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
cd "$repo"
printf 'spec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' "$M" > tazuna.yaml
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" > objs/00-ns.yaml
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: %s}\nstringData: {password: %s}\n' "$ns" "$value" \
  > objs/s.yaml
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: d, namespace: %s}\ndata: {token: %s}\n' "$ns" "$b64_2" > objs/d.yaml
kubectl create namespace "$ns" >/dev/null
expect_rc 0 "kubectl apply creates the Secrets first" kubectl apply -f objs/s.yaml -f objs/d.yaml
expect_contains "$(kubectl get secret s -n "$ns" -o jsonpath='{.metadata.annotations}')" "$value" \
  "precondition: the value sits in last-applied-configuration"
uid_s=$(kubectl get secret s -n "$ns" -o jsonpath='{.metadata.uid}')
# The plain SHA-256 (the Go tool's contentHash) of the rendered Secret "s": Go's canonical JSON of ASCII strings.
plain=$(python3 -c '
import hashlib, json, sys
o = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s", "namespace": sys.argv[1]},
     "stringData": {"password": sys.argv[2]}}
print(hashlib.sha256(json.dumps(o, sort_keys=True, separators=(",", ":")).encode()).hexdigest())' "$ns" "$value")

log=$E2E_TMP/all.log
: > "$log"
# v10 DESC RC CMD...: runs `kubectl tazuna CMD -v 10`, keeps all output in $log, checks the exit code.
v10() {
  local desc=$1 want=$2; shift 2
  expect_rc "$want" "$desc" kubectl tazuna "$@" -v 10
  { echo "### $*"; echo "$OUT"; echo "$ERR"; } >> "$log"
}
# A plan vouches for a Secret only with the state's hash key, which the first sync that writes a Secret makes:
# on a fresh cluster (this test run first) the key is made here, by a throwaway manifest's sync.
if ! kubectl get secret -n tazuna tazuna-state-key >/dev/null 2>&1; then
  mkdir -p "$E2E_TMP/keyrepo/objs"
  printf 'spec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' "${M}k" > "$E2E_TMP/keyrepo/tazuna.yaml"
  printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: key-maker, namespace: %s}\nstringData: {k: v}\n' "$ns" \
    > "$E2E_TMP/keyrepo/objs/s.yaml"
  (cd "$E2E_TMP/keyrepo" && kubectl tazuna state sync >/dev/null 2>&1)
  kubectl delete cm -n tazuna "tazuna-state-${M}k" >/dev/null 2>&1
  kubectl delete secret -n "$ns" key-maker >/dev/null 2>&1
fi
v10 "build" 0 build
v10 "diff" 1 state diff -o wide
v10 "diff --show-changes" 1 state diff --show-changes
v10 "diff -o json, writing a plan" 1 state diff -o json --out "$E2E_TMP/plan1.json"
v10 "sync --plan adopts the kubectl-made Secrets" 0 state sync --plan "$E2E_TMP/plan1.json"
expect_contains "$OUT" "secret/s -n $ns adopted" "Secret s adopted"
expect_eq "$(kubectl get secret s -n "$ns" -o jsonpath='{.metadata.uid}')" "$uid_s" "adopted in place (same uid)"
v10 "sync again" 0 state sync -o json
v10 "list" 0 state list -o wide
v10 "list -o json" 0 state list -o json
v10 "drift" 0 state drift -o wide
v10 "history" 0 state history -o wide
v10 "version" 0 version

# The state as the Go tool would have written it: the plain SHA-256 of Secret s.
key=$(kubectl get cm -n tazuna "tazuna-state-$M" -o json | python3 -c 'import json,sys; print([k for k in json.load(sys.stdin)["data"] if k.endswith("__s")][0])')
kubectl patch cm -n tazuna "tazuna-state-$M" --type merge -p "{\"data\":{\"$key\":\"{\\\"contentHash\\\":\\\"$plain\\\"}\"}}" >/dev/null
v10 "diff over a Go-format plain hash" 1 state diff -o wide
expect_contains "$OUT" "modified" "the plain hash reads as modified"
v10 "diff -o yaml over it, writing a plan" 1 state diff -o yaml --out "$E2E_TMP/plan2.json"
v10 "list over it" 0 state list -o json
v10 "drift over it" 0 state drift -o json
v10 "sync --plan over it" 0 state sync --plan "$E2E_TMP/plan2.json" -o json
v10 "history after it" 0 state history -o json
rev=$(kubectl get cm -n tazuna -l tazuna.pepabo.com/revision -o name | sort | tail -1)
v10 "history of that revision" 0 state history "${rev#configmap/tazuna-revision-}" -o wide

# A server error about a Secret's data: a value where the schema wants a string (the server echoes it).
mkdir -p bad/objs
printf 'spec:\n  manifests:\n    - {name: %sbad, type: manifests, path: ./objs}\n' "$M" > bad/tazuna.yaml
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: bad, namespace: %s}\nstringData:\n  password: [%s]\n  other: {nested: %s}\n' \
  "$ns" "$value" "$b64" > bad/objs/bad.yaml
cd bad
v10 "sync of a Secret the server refuses" 1 state sync
expect_contains "$ERR" "secret/bad -n $ns" "the error names the Secret"
expect_contains "$ERR" 'valueUnstructured{Value:[]interface {}{\"***\"}}' "the server's echo of the value is masked"
v10 "diff --show-changes of it" 2 state diff --show-changes
v10 "drift of it (never applied: live-missing)" 1 state drift
cd "$repo"

# A value holding a quote, a backslash, a tab and <>& that the server echoes Go-quoted inside JSON (as
# \u003c...); each marker word in it must never appear, whatever escaping is around it.
mkdir -p odd/objs
printf 'spec:\n  manifests:\n    - {name: %sodd, type: manifests, path: ./objs}\n' "$M" > odd/tazuna.yaml
odd_value=$(printf 'Odd%s-a"q\\b\tMid%s<>&x\\End%s' "$s" "$s" "$s")
python3 -c 'import json, sys; print("apiVersion: v1\nkind: Secret\nmetadata: {name: odd, namespace: %s}\n"
  "stringData: {password: [%s]}" % (sys.argv[1], json.dumps(sys.argv[2])))' "$ns" "$odd_value" > odd/objs/odd.yaml
cd odd
v10 "sync of a Secret with quotes, a backslash, a tab and <>& the server refuses" 1 state sync
expect_contains "$ERR" 'valueUnstructured{Value:[]interface {}{\"***\"}}' "the server's echo of the odd value is masked"
v10 "diff --show-changes of it" 2 state diff --show-changes
cd "$repo"

# A mistyped Secret: stringData a string, not a map.
mkdir -p typo/objs
printf 'spec:\n  manifests:\n    - {name: %styp, type: manifests, path: ./objs}\n' "$M" > typo/tazuna.yaml
typo_value="Typo$s-plover-value"
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: typo, namespace: %s}\nstringData: "%s"\n' "$ns" "$typo_value" \
  > typo/objs/typo.yaml
cd typo
v10 "build of a mistyped Secret" 0 build
expect_contains "$OUT" 'stringData: ' "build prints the mistyped Secret"
expect_contains "$OUT" '***' "build masks a stringData that is a string"
v10 "sync of a mistyped Secret" 1 state sync
cd "$repo"

# A kubeconfig whose server URL carries user:password@: request logs, plans and connection errors.
url_pw="Pw$s-xyzzy-pass"
kc=$E2E_TMP/userinfo.kubeconfig
sed -E "s#server: https://#server: https://tazuna-user:$url_pw@#" "$KUBECONFIG" > "$kc"
v10 "diff through a server URL with a password, writing a plan" 0 state diff --kubeconfig "$kc" --out "$E2E_TMP/plan3.json"
expect_contains "$ERR" "https://tazuna-user:***@" "request logs show the URL as user:***@host"
v10 "sync --plan through it" 0 state sync --kubeconfig "$kc" --plan "$E2E_TMP/plan3.json"
expect_contains "$(cat "$E2E_TMP/plan3.json")" '"server": "https://tazuna-user:***@' "the plan holds the URL masked"
sed -E "s#server: https://[^ ]*#server: https://tazuna-user:$url_pw@127.0.0.1:1#" "$KUBECONFIG" > "$kc.refused"
expect_rc 2 "a refused connection at -v 0" kubectl tazuna state list --kubeconfig "$kc.refused"
{ echo "### refused -v 0"; echo "$OUT"; echo "$ERR"; } >> "$log"
expect_contains "$ERR" "The connection to the server 127.0.0.1:1 was refused" "the refused error names host and port only"
v10 "a refused connection at -v 10" 2 state list --kubeconfig "$kc.refused"

cat "$E2E_TMP"/plan*.json >> "$log"
for c in $(kubectl get cm -n tazuna -l tazuna.pepabo.com/revision -o name); do kubectl get "$c" -n tazuna -o json >> "$E2E_TMP/revisions.json"; done
expect_eq "$(grep -c "^### " "$log")" "29" "every command's output was kept"
grep -n -F -- "${plain:0:12}" "$log" | cut -c1-300 >&2
typo_b64=$(printf %s "$typo_value" | base64 -w0)
for needle in "$value" "$b64" "$value2" "$b64_2" "$plain" "${plain:0:12}" "Odd$s" "Mid$s" "End$s" "$typo_value" \
  "$typo_b64" "$url_pw"; do
  hits=$(grep -c -F -- "$needle" "$log")
  expect_eq "$hits" "0" "no output line holds ${needle:0:16}... (grep -c over $(wc -l < "$log") lines)"
  expect_eq "$(grep -c -F -- "$needle" "$E2E_TMP/revisions.json")" "0" "no revision holds ${needle:0:16}..."
done
echo "grep: $(wc -l < "$log") lines of output at -v 10 from 29 commands; needles: value, its base64, data value, its base64, plain hash, its 12-digit prefix, the odd value's three markers, the mistyped value and its base64, the URL password"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$M" "tazuna-state-${M}bad" "tazuna-state-${M}odd" "tazuna-state-${M}typ" \
  >/dev/null 2>&1
finish
