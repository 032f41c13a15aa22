#!/usr/bin/env bash
# state plan show PLAN (a plan from state diff --out, shown offline, -o wide with uids and the pinned cluster,
# --show-changes while the render matches), and -l/--selector on state list, diff, drift and status.
source "$(dirname "$0")/lib.sh"

m=pshow$RANDOM
ns=$(new_namespace pshow)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
repo_at "$repo" "https://example.com/plan-show-$m.git"
kubectl create namespace "$ns" >/dev/null
labelled() {  # NAME VALUE LABELS
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: %s\n  labels: {%s}\ndata: {v: "%s"}\n---\n' \
    "$1" "$ns" "$3" "$2"
}
{ labelled web 1 "app: web, tier: fe"; labelled db 1 "app: db, tier: be"; labelled plain 1 ""; } > "$repo/objs/all.yaml"
cd "$repo"
expect_rc 0 "first sync" kubectl tazuna state sync
names_at() { echo "$OUT" | awk -v c="$1" 'NR>1 {print $c}' | sort | tr '\n' ' '; }

# -l on state status and state list: the rendered labels of recorded objects.
expect_rc 0 "status -l app=web" kubectl tazuna state status -l app=web
expect_eq "$(names_at 5)" "web " "status -l app=web shows web only"
expect_rc 0 "status -l 'tier in (fe,be)'" kubectl tazuna state status -l 'tier in (fe,be)'
expect_eq "$(names_at 5)" "db web " "status set-based selector"
expect_rc 0 "status -l '!app'" kubectl tazuna state status -l '!app'
expect_eq "$(names_at 5)" "plain " "status: an object without the label matches !app"
expect_rc 0 "list -l tier=be" kubectl tazuna state list -l tier=be
expect_eq "$(names_at 5)" "db " "list -l tier=be"
expect_rc 0 "list -l 'app notin (web)'" kubectl tazuna state list -l 'app notin (web)' -o json
got=$(echo "$OUT" | python3 -c 'import json,sys; print(" ".join(sorted(i["name"] for i in json.load(sys.stdin)["items"])))')
expect_eq "$got" "db plain" "list notin keeps objects without the label"
expect_rc 2 "list with an invalid selector" kubectl tazuna state list -l 'app in (web'
expect_eq "$ERR" 'error: invalid label selector "app in (web": missing '"')'" "one error line for a bad selector"
expect_rc 2 "status with an invalid selector" kubectl tazuna state status -l 'a b'
expect_contains "$ERR" 'error: invalid label selector "a b"' "status names the bad selector"
mkdir -p "$E2E_TMP/nofile"
(cd "$E2E_TMP/nofile" && kubectl tazuna state list --all -l app=web >/dev/null 2>"$E2E_TMP/err"); rc=$?
expect_eq "$rc" 2 "list -l without a tazuna.yaml is refused (the labels are the rendered ones)"

# -l on state drift: db is changed behind tazuna's back.
kubectl patch cm db -n "$ns" --type merge -p '{"data":{"v":"edited"}}' >/dev/null
expect_rc 1 "drift sees db" kubectl tazuna state drift
expect_rc 0 "drift -l app=web: no drift among web objects" kubectl tazuna state drift -l app=web
expect_eq "$OUT" "No drift detected." "drift -l app=web prints no rows"
expect_rc 1 "drift -l 'tier in (be)'" kubectl tazuna state drift -l 'tier in (be)'
expect_eq "$(names_at 6)" "db " "drift set-based selector keeps db"
expect_rc 2 "drift with an invalid selector" kubectl tazuna state drift -l '=x'
expect_contains "$ERR" 'error: invalid label selector "=x"' "drift names the bad selector"
expect_rc 0 "sync repairs db" kubectl tazuna state sync

# A change: web modified, api added, plain removed.
{ labelled web 2 "app: web, tier: fe"; labelled db 1 "app: db, tier: be"; labelled api 1 "app: api, tier: fe"; } > "$repo/objs/all.yaml"
expect_rc 1 "diff -l app=web" kubectl tazuna state diff -l app=web
expect_eq "$(names_at 6)" "web " "diff -l app=web keeps the web row only"
expect_rc 1 "diff -l 'tier in (fe)'" kubectl tazuna state diff -l 'tier in (fe)'
expect_eq "$(names_at 6)" "api web " "diff set-based selector"
expect_rc 1 "diff -l '!app'" kubectl tazuna state diff -l '!app'
expect_eq "$(names_at 6)" "plain " "a removed row matches as an object without labels"
expect_rc 0 "diff -l tier=none: nothing selected" kubectl tazuna state diff -l tier=none
expect_eq "$OUT" "No changes detected." "no rows selected: no changes"
expect_rc 2 "diff with an invalid selector" kubectl tazuna state diff -l 'a notin x'
expect_contains "$ERR" 'error: invalid label selector "a notin x"' "diff names the bad selector"
expect_rc 2 "diff -l with --out is refused" kubectl tazuna state diff -l app=web --out "$E2E_TMP/p.json"

# The plan, shown.
expect_rc 1 "diff --out" kubectl tazuna state diff --out "$E2E_TMP/plan.json" --prune
expect_rc 1 "diff (the same rows)" kubectl tazuna state diff
diff_table=$OUT
expect_rc 0 "plan show" kubectl tazuna state plan show "$E2E_TMP/plan.json"
expect_eq "$OUT" "$diff_table" "plan show prints the diff's rows"
expect_contains "$ERR" "sync flags: --prune" "plan show says which sync the plan is for"
expect_rc 0 "diff --plan is plan show" kubectl tazuna state diff --plan "$E2E_TMP/plan.json"
expect_eq "$OUT" "$diff_table" "diff --plan prints the same rows"

web_uid=$(uid cm web -n "$ns"); plain_uid=$(uid cm plain -n "$ns"); ks_uid=$(uid ns kube-system)
expect_rc 0 "plan show -o wide" kubectl tazuna state plan show "$E2E_TMP/plan.json" -o wide
expect_contains "$OUT" "$web_uid" "wide shows the pinned uid of web"
expect_contains "$OUT" "$plain_uid" "wide shows the pinned uid of plain (pruned only if still that object)"
expect_contains "$(echo "$OUT" | head -1)" "OLD-HASH" "wide adds the hashes"
expect_contains "$ERR" "kube-system uid $ks_uid" "wide names the cluster the plan pins"
expect_rc 0 "plan show -o json" kubectl tazuna state plan show "$E2E_TMP/plan.json" -o json
got=$(echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["kind"]=="List"; print(" ".join(sorted(i["change"]+":"+i["name"]+":"+i["live"]["uid"] for i in d["items"])))')
expect_eq "$got" "added:api: modified:web:$web_uid removed:plain:$plain_uid" "json rows with their live uids"

# Offline: the plan file alone, no kubeconfig, no tazuna.yaml.
(cd "$E2E_TMP/nofile" && env -u KUBECONFIG HOME="$E2E_TMP/nofile" kubectl-tazuna state plan show "$E2E_TMP/plan.json" \
  >"$E2E_TMP/out" 2>"$E2E_TMP/err"); rc=$?
expect_eq "$rc" 0 "plan show offline exits 0"
expect_eq "$(cat "$E2E_TMP/out")" "$diff_table" "plan show offline prints the same rows"

# --show-changes: the bodies while the render still matches the plan.
expect_rc 0 "plan show --show-changes" kubectl tazuna state plan show "$E2E_TMP/plan.json" --show-changes
expect_contains "$OUT" '+  v: "2"' "the change of web is shown"
expect_contains "$OUT" "name: api" "the added api is shown"
expect_not_contains "$ERR" "no longer matches" "nothing is reported stale"
labelled api 9 "app: api, tier: fe" > "$repo/objs/api.yaml"
{ labelled web 2 "app: web, tier: fe"; labelled db 1 "app: db, tier: be"; } > "$repo/objs/all.yaml"
expect_rc 0 "plan show --show-changes after api changed" kubectl tazuna state plan show "$E2E_TMP/plan.json" --show-changes
expect_contains "$ERR" "configmap/api -n $ns: changes not shown: the current render no longer matches the plan" \
  "api is named instead of showing a body the plan does not hold"
expect_not_contains "$OUT" 'v: "9"' "the new body of api is not shown"
expect_contains "$OUT" '+  v: "2"' "web still renders as planned: shown"
expect_rc 2 "plan show of a missing file" kubectl tazuna state plan show "$E2E_TMP/none.json"
expect_contains "$ERR" "error: read plan" "a missing plan is one error line"
expect_rc 0 "state plan --help" kubectl tazuna state plan show --help
expect_contains "$OUT" "state plan show PLAN" "help shows the usage"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
