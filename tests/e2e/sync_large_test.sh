#!/usr/bin/env bash
# 8,000 objects in one manifest: state spills past 1 MiB into shards tazuna-state-<m>.<generation>.1.. and reads back exactly;
# a data key over 253 bytes is stored under a hashed key.
source "$(dirname "$0")/lib.sh"

m=large$RANDOM
ns=$(new_namespace lg)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
long=$(printf 'x%.0s' $(seq 1 240))
python3 - "$repo/objs/all.yaml" "$ns" "$long" <<'EOF'
import sys
path, ns, long = sys.argv[1:]
with open(path, "w") as f:
    f.write(f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n")
    for i in range(8000):
        f.write(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: a-rather-long-configmap-name-to-fill-the-state-{i:05d}, namespace: {ns}}}\ndata: {{i: \"{i}\"}}\n")
    f.write(f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {long}, namespace: {ns}}}\ndata: {{long: \"yes\"}}\n")
EOF
cd "$repo"
expect_rc 0 "sync 8,002 objects" kubectl tazuna state sync --concurrency 64 -o json
shards=$(kubectl get cm -n tazuna -o name | grep -c "configmap/tazuna-state-$m\(\.[0-9a-f]*\.[0-9]*\)\?$")
if [ "$shards" -ge 2 ]; then pass "state spilled into $shards ConfigMaps"; else fail "state not spilled ($shards)"; fi
bytes=$(kubectl get cm -n tazuna -o json | python3 -c "import json,sys; print(sum(len(k)+len(v) for i in json.load(sys.stdin)['items'] if i['metadata']['name'].startswith('tazuna-state-$m') for k,v in i.get('data',{}).items()))")
if [ "$bytes" -gt 1048576 ]; then pass "state is over 1 MiB ($bytes bytes)"; else fail "state only $bytes bytes"; fi
expect_rc 0 "state list reads it back" kubectl tazuna state list -o json
count=$(echo "$OUT" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')
expect_eq "$count" "8002" "every entry read back"
expect_contains "$OUT" "$long" "over-long key read back in full"
expect_rc 0 "no changes after the large sync" kubectl tazuna state diff
kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
for c in $(kubectl get cm -n tazuna -o name | grep "tazuna-state-$m"); do kubectl delete -n tazuna "$c" >/dev/null; done
finish
