#!/usr/bin/env bash
# state drift: no false drift from server defaults; out-of-band changes and deletions are found.
source "$(dirname "$0")/lib.sh"

m=drift$RANDOM
ns=$(new_namespace dr)
repo=$E2E_TMP/repo
# The Go tool's per-manifest tests are accepted but not run: said once per command on stderr.
one_manifest "$repo" "$m" "tests: [{type: WaitUntil}]"
tests_col=$(( ${#m} + 47 ))
{ printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns"
  cm_doc settings "$ns" "{mode: blue}"; cm_doc other "$ns" '{x: "1"}'; deployment_doc web "$ns"; } > "$repo/objs/all.yaml"
cd "$repo"
expect_rc 0 "sync" kubectl tazuna state sync
expect_eq "$(grep -c 'tests is not run' <<<"$ERR")" "1" "the ignored tests are warned of once"
expect_contains "$ERR" "Warning: tazuna.yaml:5:$tests_col: spec.manifests[0].tests is not run by kubectl tazuna (the Go tool runs them after the manifest is applied); ignored" "spec.manifests[].tests: warned, with file:line:col"
expect_rc 0 "no drift right after a sync (server defaults are not drift)" kubectl tazuna state drift
expect_eq "$OUT" "No drift detected." "No drift detected."
kubectl label cm -n "$ns" settings someone=else >/dev/null
expect_rc 0 "a label added by someone else is not drift" kubectl tazuna state drift

kubectl patch cm -n "$ns" settings --type=merge -p '{"data":{"mode":"red"}}' >/dev/null
kubectl delete cm -n "$ns" other >/dev/null
expect_rc 1 "drift found" kubectl tazuna state drift
rows=$(echo "$OUT" | awk 'NR>1 {print $2 ":" $6}' | tr '\n' ' ')
expect_eq "$rows" "live-drifted:settings live-missing:other " "drifted and missing rows, sorted"
expect_rc 1 "drift -o json" kubectl tazuna state drift -o json
names=$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(i["drift"]+":"+i["name"] for i in json.load(sys.stdin)["items"]))')
expect_eq "$names" "live-drifted:settings live-missing:other" "json rows match"
expect_rc 1 "drift -o name (exit 1 still means drift)" kubectl tazuna state drift -o name
expect_eq "$OUT" $'configmap/settings\nconfigmap/other' "drift -o name: kubectl's resource/name, in row order"
expect_rc 2 "viewer: drift fails with exit 2" kubectl tazuna state drift --context viewer
kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
