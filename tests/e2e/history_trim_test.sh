#!/usr/bin/env bash
# History trimming goes by the server's clock and never deletes the record of the sync that trims: a record
# whose id (a ULID, the writer's clock) is far in the future but which the server created first is the one
# trimmed, and `--history-limit 1` keeps the trimming sync's own record. Takes ~10 s.
source "$(dirname "$0")/lib.sh"

m=ht$RANDOM
ns=$(new_namespace ht)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: %s}\ndata: {v: "1"}\n' \
  "$ns" "$ns" > "$repo/objs/all.yaml"
cd "$repo"

# A record written by a client whose clock ran years ahead: its ULID sorts after every other.
future=7zzzzzzzzzzzzzzzzzzzzz$(printf '%04d' $((RANDOM % 10000)))
record=$(python3 -c 'import json,sys
print(json.dumps({"id": sys.argv[1].upper(), "startedAt": "2099-01-01T00:00:00.000000Z", "finishedAt": "2099-01-01T00:00:01.000000Z",
  "status": "succeeded", "user": "skewed", "gitCommit": "", "gitDirty": False, "version": "v0.0.0",
  "selection": {"environment": "", "tags": [], "manifests": []}, "manifests": [sys.argv[2]], "counts": {},
  "objects": [], "objectsOmitted": 0, "planDigest": "", "lockHolder": ""}))' "$future" "$m")
kubectl create configmap -n tazuna "tazuna-revision-$future" --from-literal=revision="$record" >/dev/null
kubectl label configmap -n tazuna "tazuna-revision-$future" tazuna.pepabo.com/revision=true >/dev/null
sleep 1.1  # a later second of the server's clock for what follows

expect_rc 0 "sync with --history-limit 1" kubectl tazuna state sync --history-limit 1
own=$(kubectl get cm -n tazuna -l tazuna.pepabo.com/revision -o jsonpath='{range .items[*]}{.metadata.name}{"\n"}{end}' | grep -v "$future")
expect_eq "$(echo "$own" | grep -c .)" "1" "the trimming sync's own record is kept"
if kubectl get cm -n tazuna "tazuna-revision-$future" >/dev/null 2>&1; then
  fail "the record from the skewed clock, older by the server's clock, was kept"
else
  pass "the record from the skewed clock, older by the server's clock, was trimmed"
fi
run kubectl tazuna state history -o json
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')" "1" "state history lists one record"

# Three syncs with the default limit keep all three, newest (by the server) first.
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: %s}\ndata: {v: "2"}\n' \
  "$ns" "$ns" > "$repo/objs/all.yaml"
sleep 1.1
expect_rc 0 "a second sync" kubectl tazuna state sync --history-limit 2
run kubectl tazuna state history -o json
ids=$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(i["id"] for i in json.load(sys.stdin)["items"]))')
expect_eq "$(echo "$ids" | wc -w)" "2" "--history-limit 2 keeps two records"
expect_contains "$ids" "$(echo "$own" | sed 's/tazuna-revision-//' | tr a-z A-Z)" "the first sync's record is still there"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
