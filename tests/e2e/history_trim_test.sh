#!/usr/bin/env bash
# History trimming goes by the server's clock, never deletes the record of the sync that trims, and counts and
# deletes only the records of the syncing repository (the record's origin): a record whose id (a ULID, the
# writer's clock) is far in the future but which the server created first is the one trimmed;
# `--history-limit 1` keeps the trimming sync's own record; another repository's records, and records of no
# origin (an older version's), survive any number of syncs and any limit. `state history --origin` and
# `--object` filter. Takes ~15 s.
source "$(dirname "$0")/lib.sh"

m=ht$RANDOM
ns=$(new_namespace ht)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
repo_at "$repo" "https://github.com/e2e-history/$m-a.git"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: %s}\ndata: {v: "1"}\n' \
  "$ns" "$ns" > "$repo/objs/all.yaml"
other=$E2E_TMP/other
one_manifest "$other" "$m-b"
repo_at "$other" "https://github.com/e2e-history/$m-b.git"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: %s}\ndata: {v: "1"}\n' "$ns" > "$other/objs/all.yaml"
cd "$repo"

# revisions ORIGIN-FLAGS...: the ids `state history` lists, one line.
revisions() {
  kubectl tazuna state history -o json "$@" | python3 -c 'import json,sys; print(" ".join(i["id"] for i in json.load(sys.stdin)["items"]))'
}

# --- 1. Records carry their origin (in the record and as an annotation a metadata LIST sees).
expect_rc 0 "a first sync of repository a" kubectl tazuna state sync
first=$(kubectl get cm -n tazuna -l tazuna.pepabo.com/revision -o json | python3 -c '
import json,sys
for i in json.load(sys.stdin)["items"]:
    if json.loads(i["data"]["revision"]).get("manifests") == [sys.argv[1]]: print(i["metadata"]["name"])' "$m")
mark=$(kubectl get cm -n tazuna "$first" -o jsonpath='{.metadata.annotations.tazuna\.pepabo\.com/origin}')
expect_eq "$mark" "github.com/e2e-history/$m-a:tazuna.yaml" "the revision record is annotated with its origin"
run kubectl tazuna state history -o wide --origin "github.com/e2e-history/$m-a"
expect_contains "$OUT" "github.com/e2e-history/$m-a:tazuna.yaml" "state history -o wide shows the ORIGIN"

# Repository b's record, and a record of an older version (no origin), both older than what follows.
(cd "$other" && expect_rc 0 "a sync of repository b" kubectl tazuna state sync)
b_ids=$(revisions --origin "github.com/e2e-history/$m-b")
expect_eq "$(echo "$b_ids" | wc -w)" "1" "state history --origin lists repository b's one record"
unmarked=01a0000000000000000000$(printf '%04d' $((RANDOM % 10000)))
old_record=$(python3 -c 'import json,sys
print(json.dumps({"id": sys.argv[1].upper(), "startedAt": "2020-01-01T00:00:00.000000Z", "finishedAt": "2020-01-01T00:00:01.000000Z",
  "status": "succeeded", "user": "old", "gitCommit": "", "gitDirty": False, "version": "v0.0.0",
  "selection": {"environment": "", "tags": [], "manifests": []}, "manifests": [sys.argv[2]], "counts": {},
  "objects": [], "objectsOmitted": 0, "planDigest": "", "lockHolder": ""}))' "$unmarked" "$m")
kubectl create configmap -n tazuna "tazuna-revision-$unmarked" --from-literal=revision="$old_record" >/dev/null
kubectl label configmap -n tazuna "tazuna-revision-$unmarked" tazuna.pepabo.com/revision=true >/dev/null

# A record of repository a written by a client whose clock ran years ahead: its ULID sorts after every other.
future=7zzzzzzzzzzzzzzzzzzzzz$(printf '%04d' $((RANDOM % 10000)))
record=$(python3 -c 'import json,sys
print(json.dumps({"id": sys.argv[1].upper(), "startedAt": "2099-01-01T00:00:00.000000Z", "finishedAt": "2099-01-01T00:00:01.000000Z",
  "status": "succeeded", "user": "skewed", "gitCommit": "", "gitDirty": False, "version": "v0.0.0",
  "selection": {"environment": "", "tags": [], "manifests": []}, "manifests": [sys.argv[2]], "counts": {},
  "objects": [], "objectsOmitted": 0, "planDigest": "", "lockHolder": "", "origin": sys.argv[3]}))' "$future" "$m" "$mark")
kubectl create configmap -n tazuna "tazuna-revision-$future" --from-literal=revision="$record" >/dev/null
kubectl label configmap -n tazuna "tazuna-revision-$future" tazuna.pepabo.com/revision=true >/dev/null
kubectl annotate configmap -n tazuna "tazuna-revision-$future" "tazuna.pepabo.com/origin=$mark" >/dev/null
sleep 1.1  # a later second of the server's clock for what follows

# --- 2. --history-limit 1 from repository a: its own record stays, its older ones go, nobody else's. (A sync
# that changes something: one that changes nothing makes no record and trims nothing.)
sed -i 's/v: "[0-9]*"/v: "10"/' "$repo/objs/all.yaml"
expect_rc 0 "sync with --history-limit 1" kubectl tazuna state sync --history-limit 1
a_ids=$(revisions --origin "github.com/e2e-history/$m-a")
expect_eq "$(echo "$a_ids" | wc -w)" "1" "repository a keeps one record: the trimming sync's own"
if kubectl get cm -n tazuna "tazuna-revision-$future" >/dev/null 2>&1; then
  fail "the record from the skewed clock, older by the server's clock, was kept"
else
  pass "the record from the skewed clock, older by the server's clock, was trimmed"
fi
if kubectl get cm -n tazuna "$first" >/dev/null 2>&1; then fail "repository a's first record was kept"; else pass "repository a's first record was trimmed"; fi
expect_eq "$(revisions --origin "github.com/e2e-history/$m-b")" "$b_ids" "repository b's record survives repository a's --history-limit 1"
expect_rc 0 "the record of no origin (an older version's) survives" kubectl get cm -n tazuna "tazuna-revision-$unmarked"

# Many syncs of repository a with a small limit: still nobody else's.
for v in 2 3 4; do
  sed -i "s/v: \"[0-9]*\"/v: \"$v\"/" "$repo/objs/all.yaml"
  kubectl tazuna state sync --history-limit 2 >/dev/null 2>&1
done
expect_eq "$(revisions --origin "github.com/e2e-history/$m-a" | wc -w)" "2" "--history-limit 2 keeps two of repository a's records"
expect_eq "$(revisions --origin "github.com/e2e-history/$m-b")" "$b_ids" "repository b's record survives repository a's syncs"
expect_rc 0 "the record of no origin still survives" kubectl get cm -n tazuna "tazuna-revision-$unmarked"

# --- 3. --object TYPE/NAME, as kubectl get takes it: only revisions that changed it, and only it.
# In namespace -n (other tests of the suite change ConfigMaps named b elsewhere).
run kubectl tazuna state history -o json --object cm/b -n "$ns"
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(i["id"] for i in json.load(sys.stdin)["items"]))')" "$b_ids" \
  "--object cm/b -n NS lists the one revision that changed ConfigMap b there"
run kubectl tazuna state history -o json --object cm/b -n "$ns-elsewhere"
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')" "0" \
  "--object cm/b in another namespace lists none"
run kubectl tazuna state history "$b_ids" --object configmaps/c
expect_eq "$OUT" "" "--object with REVISION lists only that object's rows (none: b's sync did not change c)"
expect_rc 2 "--object of an unknown type" kubectl tazuna state history --object nosuchtype/x
expect_contains "$ERR" "doesn't have a resource type" "an unknown TYPE is named in kubectl's words"
expect_rc 2 "--object without a NAME" kubectl tazuna state history --object configmap
expect_contains "$ERR" "give TYPE/NAME" "a TYPE without NAME is refused"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" "tazuna-state-$m-b" "tazuna-revision-$unmarked" >/dev/null 2>&1
finish
