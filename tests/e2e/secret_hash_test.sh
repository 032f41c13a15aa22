#!/usr/bin/env bash
# Keyed Secret hashes: a Secret's state entry is HMAC-SHA-256 under the cluster's key (Secret
# tazuna/tazuna-state-key), not the plain SHA-256 a ConfigMap reader could brute-force; other kinds keep the
# Go tool's hash; a reader who may not read the key gets a warning and always-sync rows; a Go-format plain
# hash is rewritten keyed by one sync.
source "$(dirname "$0")/lib.sh"

m=sec$RANDOM
ns=$(new_namespace sc)
blind=tazuna-e2e-blind-$RANDOM
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
cat > "$repo/objs/a.yaml" <<EOF
apiVersion: v1
kind: Namespace
metadata: {name: $ns}
---
apiVersion: v1
kind: Secret
metadata: {name: pw, namespace: $ns}
stringData: {password: hunter2}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cfg, namespace: $ns}
data: {a: "1"}
EOF
cd "$repo"
# The hash input is Go's canonical JSON of the rendered object (sorted keys, compact; these objects hold only
# plain ASCII strings, where Python's json and Go's encoding/json agree byte for byte).
hashes() {  # hashes NAME KIND: "<plain sha256> <hmac under the cluster key>" of the rendered object
  python3 - "$repo/objs/a.yaml" "$1" "$2" "$(kubectl get secret -n tazuna tazuna-state-key -o jsonpath='{.data.key}' 2>/dev/null)" <<'PY'
import base64, hashlib, hmac, json, sys
path, name, kind, key = sys.argv[1:]
import re
docs = open(path).read().split("\n---\n")
def parse(doc):  # the flow-style YAML above is simple enough to turn into JSON by hand
    obj = {}
    for line in doc.strip().splitlines():
        k, v = line.split(": ", 1)
        if v.startswith("{"):
            inner = {}
            for part in v.strip("{}").split(", "):
                a, b = part.split(": ", 1)
                inner[a] = b.strip('"')
            obj[k] = inner
        else:
            obj[k] = v
    return obj
for d in docs:
    o = parse(d)
    if o["kind"] == kind and o["metadata"]["name"] == name:
        raw = json.dumps(o, sort_keys=True, separators=(",", ":")).encode()
        keyed = hmac.new(base64.b64decode(key), raw, hashlib.sha256).hexdigest() if key else "-"
        print(hashlib.sha256(raw).hexdigest(), keyed)
PY
}
stored() {  # stored KEY-SUFFIX: the contentHash of the state entry ending in it
  kubectl get cm -n tazuna "tazuna-state-$m" -o json |
    python3 -c 'import json,sys; d=json.load(sys.stdin)["data"]; print([json.loads(v)["contentHash"] for k,v in d.items() if k.endswith(sys.argv[1])][0])' "$1"
}

expect_rc 0 "first sync creates the state key" kubectl tazuna state sync
expect_rc 0 "key Secret exists" kubectl get secret -n tazuna tazuna-state-key
expect_eq "$(kubectl get secret -n tazuna tazuna-state-key -o jsonpath='{.data.key}' | base64 -d | wc -c)" "32" "32-byte key"
read -r plain keyed <<< "$(hashes pw Secret)"
got=$(stored "__pw")
if [ "$got" != "$plain" ]; then pass "the Secret's stored hash is not the plain SHA-256 of its content"; else fail "plain hash stored"; fi
expect_eq "$got" "$keyed" "the Secret's stored hash is the HMAC under the cluster's key"
read -r cplain _ <<< "$(hashes cfg ConfigMap)"
expect_eq "$(stored "__cfg")" "$cplain" "a ConfigMap keeps the Go tool's plain hash"
expect_not_contains "$(kubectl tazuna state sync -v 8 2>&1)" "$(kubectl get secret -n tazuna tazuna-state-key -o jsonpath='{.data.key}')" \
  "the key never appears in logs"
expect_rc 0 "diff is clean for the keyed Secret" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "no false diff"

# A reader who may read ConfigMaps but not Secrets in namespace tazuna (impersonated).
kubectl create role "$blind" -n tazuna --verb=get,list --resource=configmaps >/dev/null
kubectl create rolebinding "$blind" -n tazuna --role="$blind" --user="$blind" >/dev/null
expect_rc 1 "diff as a user who cannot read the key" kubectl tazuna state diff --as "$blind"
expect_contains "$ERR" "cannot read Secret tazuna/tazuna-state-key (Forbidden): Secret rows are shown as always-sync" \
  "one-line warning"
expect_eq "$(echo "$OUT" | grep -c 'always-sync .* Secret .* pw$')" "1" "the Secret row is always-sync"
expect_not_contains "$OUT" "ConfigMap" "other rows are unaffected"
expect_rc 2 "a sync as that user fails before writing" kubectl tazuna state sync --as "$blind"
kubectl delete rolebinding,role -n tazuna "$blind" >/dev/null

# State in the Go tool's format: the plain SHA-256 of the Secret; one sync rewrites it keyed.
kubectl patch cm -n tazuna "tazuna-state-$m" --type merge \
  -p "{\"data\":{\"${m}____v1__Secret__${ns}__pw\":\"{\\\"contentHash\\\":\\\"$plain\\\"}\"}}" >/dev/null
expect_rc 1 "the Go-format hash reads as modified" kubectl tazuna state diff
expect_contains "$OUT" "modified" "modified row"
expect_rc 0 "one sync" kubectl tazuna state sync
expect_eq "$(stored "__pw")" "$keyed" "the Secret's entry is keyed again"
expect_rc 0 "and stays clean" kubectl tazuna state diff

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
