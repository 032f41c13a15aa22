#!/usr/bin/env bash
# The User-Agent as the apiserver records it: a private control plane with an audit log (Metadata level,
# one event per request) serves a sync, a diff and a list; every request the plugin sent must carry
# "kubectl-tazuna/v<version> (linux/amd64) kubernetes/<commit>", and none the placeholder.
source "$(dirname "$0")/lib.sh"

cluster_dir=$E2E_TMP/cluster
policy=$E2E_TMP/audit-policy.yaml
audit=$E2E_TMP/audit.log
cat > "$policy" <<'EOF'
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: ["RequestReceived", "ResponseStarted"]
rules:
  - level: Metadata
EOF
stop_cluster() { TAZUNA_CLUSTER_DIR=$cluster_dir "$REPO_DIR/scripts/cluster" down >/dev/null 2>&1 || true; rm -rf "$E2E_TMP"; }
trap stop_cluster EXIT
if ! cluster_env=$(TAZUNA_CLUSTER_DIR=$cluster_dir \
     TAZUNA_APISERVER_EXTRA_ARGS="--audit-policy-file=$policy --audit-log-path=$audit --audit-log-mode=blocking" \
     "$REPO_DIR/scripts/cluster" up); then
  echo "FAIL - cannot start a control plane with an audit log"; exit 1
fi
eval "$cluster_env"

run kubectl tazuna version -o json
client_version=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["gitVersion"])')
client_commit=$(echo "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["clientVersion"]["gitCommit"])')
want_agent="kubectl-tazuna/${client_version%%-*} (linux/amd64) kubernetes/${client_commit:0:7}"

R=$E2E_TMP/repo
mkdir -p "$R/m"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ua-probe\n  namespace: default\ndata:\n  a: b\n' > "$R/m/cm.yaml"
printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n    - name: ua\n      type: manifests\n      path: ./m\n' \
  > "$R/tazuna.yaml"
expect_rc 0 "sync against the audited control plane" kubectl tazuna state sync -f "$R/tazuna.yaml"
expect_rc 0 "diff" kubectl tazuna state diff -f "$R/tazuna.yaml"
expect_rc 0 "list" kubectl tazuna state list --all
expect_rc 0 "list with a token (another auth path)" kubectl tazuna state list --all --context admin-token
expect_eq "$(kubectl get cm -n default ua-probe -o jsonpath='{.data.a}')" "b" "the synced object is live"

# Requests of the plugin: those on the paths only it uses (state ConfigMaps, its lease, the applied object).
agents=$(python3 - "$audit" <<'PY'
import json, sys
seen = {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    uri = e.get("requestURI", "")
    if "tazuna" in uri or "ua-probe" in uri:
        ua = e.get("userAgent", "")
        if ua.startswith("kubectl/"):
            continue  # the test's own kubectl
        seen[ua] = seen.get(ua, 0) + 1
for ua, n in sorted(seen.items()):
    print(f"{n}\t{ua}")
PY
)
expect_contains "$agents" "	$want_agent" "the audit log records our User-Agent ($want_agent)"
expect_eq "$(echo "$agents" | cut -f2 | sort -u)" "$want_agent" "every request of the plugin carries it"
expect_not_contains "$agents" "v0.0.0 (linux/amd64) kubernetes/unknown" "no placeholder User-Agent"
requests=$(echo "$agents" | awk -F'\t' '{s += $1} END {print s + 0}')
if [ "$requests" -ge 5 ]; then pass "the audit log holds $requests requests of the plugin"; else
  fail "too few audited requests of the plugin: $requests"; fi
finish
