#!/usr/bin/env bash
# The exit-code contract a CI script relies on (README "Exit codes"): each failure class of a sync run for
# real, its code and the one line on stderr that says why; a plan stays valid across an unrelated sync
# that changes nothing, and applied twice says so; `-o json` carries the summary; kubectl's words suggest
# their `state` form.
source "$(dirname "$0")/lib.sh"

s=$(date +%s%N | tail -c 7)$RANDOM
ns=$(new_namespace xc)
repo=$E2E_TMP/repo
a=xa$s b=xb$s
tazuna_yaml "$repo" "{name: $a, type: manifests, path: ./a}" "{name: $b, type: manifests, path: ./b}"
mkdir -p "$repo/a" "$repo/b"
cd "$repo"
# a_renders, b_renders: the documents on stdin become manifest a's (after its Namespace) or b's objects.
a_renders() { { printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns"; sed '1s/^/---\n/'; } > a/all.yaml; }
b_renders() { cat > b/all.yaml; }
configmap a1 | a_renders
configmap b1 | b_renders
expect_rc 0 "the first sync" kubectl tazuna state sync
state_rv() { kubectl get cm -n tazuna "tazuna-state-$1" -o jsonpath='{.metadata.resourceVersion}'; }
revisions() { kubectl get cm -n tazuna -l tazuna.pepabo.com/revision -o name 2>/dev/null | wc -l; }

# error_line DESC WANT: stderr holds exactly one error line (`error:`, or kubectl's `Error from server`/`The
# connection`/`Unable to connect`) and it contains WANT; warnings, progress and hints may stand beside it.
error_line() {
  local lines
  lines=$(printf '%s\n' "$ERR" | grep -E '^(error: |Error from server|The connection|Unable to connect)')
  if [ -n "$lines" ] && [ "$(printf '%s\n' "$lines" | wc -l)" = 1 ] && [[ "$lines" == *"$2"* ]]; then
    pass "$1: one line saying why"
  else
    fail "$1: want one error line with \"$2\""; echo "  stderr: $(excerpt "$ERR")"
  fi
}

# --- 2: refused before any write. The state and the cluster are as they were. ---
before_a=$(state_rv "$a"); before_revisions=$(revisions)
refused() {
  local desc=$1 want=$2; shift 2
  expect_rc 2 "refused: $desc" "$@"
  error_line "refused: $desc" "$want"
}
refused "an unknown flag" "unknown flag: --bogus" kubectl tazuna state sync --bogus
refused "an unknown command" 'unknown command "sync" for "kubectl tazuna"' kubectl tazuna sync
expect_contains "$ERR" $'Did you mean this?\n\tstate sync' "kubectl tazuna sync suggests state sync"
refused "apply, kubectl's word" 'unknown command "apply"' kubectl tazuna apply
expect_contains "$ERR" $'\tstate sync' "kubectl tazuna apply suggests state sync"
refused "an unknown manifest" "nope" kubectl tazuna state sync -m nope
printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec: {manifests: [{name: x, type: manifests, path: ./a, bogus: 1}]}\n' > bad.yaml
refused "a misspelled field in tazuna.yaml" "bogus" kubectl tazuna state sync -f bad.yaml
refused "an unreachable server" "The connection to the server 127.0.0.1:1 was refused" \
  kubectl tazuna state sync --server https://127.0.0.1:1 --insecure-skip-tls-verify
refused "a forbidden user" "Error from server (Forbidden)" kubectl tazuna state sync --as "nobody-$s"
hold_sync_lease someone-else 60
refused "the lock held past --lock-timeout" "holder someone-else" kubectl tazuna state sync --lock-timeout 1s
kubectl delete lease -n tazuna tazuna-sync >/dev/null
configmap a1 2 | a_renders
expect_rc 1 "a plan of a change" kubectl tazuna state diff --out "$E2E_TMP/stale.json" -m "$a"
configmap a1 3 | a_renders
refused "a stale plan" "plan is stale" kubectl tazuna state sync --plan "$E2E_TMP/stale.json"
expect_eq "$(state_rv "$a"):$(revisions)" "$before_a:$before_revisions" "refusals wrote no state and no revision"
expect_eq "$(jget cm -n "$ns" a1 -o jsonpath='{.data.v}')" "1" "refusals changed no object"
expect_rc 2 "a read-only command's error is 2 too" kubectl tazuna state list -o bogus
expect_rc 2 "and diff's" kubectl tazuna state diff -m nope
configmap a1 | a_renders

# --- A sync that changes nothing writes nothing, so a plan made before it stays valid. ---
configmap b1 2 | b_renders
expect_rc 1 "plan: b changes" kubectl tazuna state diff --out "$E2E_TMP/plan.json"
expect_rc 0 "plan show against the live cluster" kubectl tazuna state plan show "$E2E_TMP/plan.json"
expect_contains "$(grep -w b1 <<<"$OUT")" "modified" "plan show lists the planned row"
before_a=$(state_rv "$a"); before_revisions=$(revisions)
expect_rc 0 "an unrelated sync that changes nothing" kubectl tazuna state sync -m "$a"
expect_contains "$ERR" "nothing written" "its summary says nothing was written"
expect_eq "$(state_rv "$a"):$(revisions)" "$before_a:$before_revisions" "it wrote no state and no revision"
expect_rc 0 "the plan made before it applies" kubectl tazuna state sync --plan "$E2E_TMP/plan.json"
expect_contains "$OUT" "configmap/b1 -n $ns configured" "the plan's row is applied"
revision=$(printf '%s\n' "$ERR" | sed -n 's/.*; revision \([0-9A-Z]*\).*/\1/p')
[ -n "$revision" ] && pass "the summary names the revision ($revision)" || fail "no revision in: $ERR"
expect_rc 0 "the plan applied again" kubectl tazuna state sync --plan "$E2E_TMP/plan.json"
expect_contains "$ERR" "already applied by revision $revision" "it says it was already applied, and by which revision"
expect_rc 0 "forget the plan's object" kubectl tazuna state forget "$b//v1/ConfigMap/$ns/b1"
refused "the plan after a forget (no revision records it)" "plan is stale" kubectl tazuna state sync --plan "$E2E_TMP/plan.json"
expect_rc 0 "the next sync records it again" kubectl tazuna state sync -m "$b"

# --- -o json: the summary beside the items ---
configmap b1 3 | b_renders
expect_rc 0 "sync -o json" kubectl tazuna state sync -o json
expect_eq "$(jq -c '[.summary.counts.configured, .summary.counts.unchanged, .summary.written, (.summary.revision | length > 0)]' <<<"$OUT")" \
  "[1,2,true,true]" "the summary counts the verbs, says it wrote, and names the revision"
expect_rc 0 "a sync that changes nothing, -o json" kubectl tazuna state sync -o json
expect_eq "$(jq -c '[.summary.written, .summary.revision, .summary.counts.unchanged]' <<<"$OUT")" "[false,null,3]" \
  "nothing written, no revision"

# --- 1: rows that need a person. Every kept reason exits the same. ---
ns2=$(new_namespace xk)
{ configmap b1 3; echo ---; configmap b2; echo ---; printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns2"
  cm_doc c "$ns2"; } | b_renders
expect_rc 0 "b gains b2, a Namespace and an object in it" kubectl tazuna state sync -m "$b"
{ configmap b1 3; echo ---; printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n' "$ns2"; cm_doc c "$ns2"; } | b_renders
expect_rc 1 "kept: a removed object without --prune" kubectl tazuna state sync -m "$b"
expect_contains "$ERR" "1 kept" "the summary line counts it"
: | b_renders
expect_rc 1 "kept: a manifest rendering nothing, --prune without --allow-empty" kubectl tazuna state sync -m "$b" --prune
expect_contains "$ERR" "error: manifest \"$b\": 4 removed objects were not pruned" "its error line"
{ configmap b1 3; echo ---; cm_doc c "$ns2"; } | b_renders
expect_rc 1 "kept: a Namespace holding a rendered object" kubectl tazuna state sync -m "$b" --prune
expect_contains "$OUT" "namespace/$ns2 kept" "the Namespace row is kept"
before_b=$(state_rv "$b"); before_revisions=$(revisions)
expect_rc 1 "kept for good: the same sync again" kubectl tazuna state sync -m "$b" --prune
expect_contains "$ERR" "nothing written" "a row kept with its entry writes nothing"
expect_eq "$(state_rv "$b"):$(revisions)" "$before_b:$before_revisions" "no state write and no revision for it"
# Another repository's manifest renders b's object: a conflict, nothing applied.
other=$E2E_TMP/other o=xo$s
tazuna_yaml "$other" "{name: $o, type: manifests, path: ./o}"
mkdir -p "$other/o"; { configmap o1; echo ---; configmap b1 9; } > "$other/o/c.yaml"
repo_at "$other" "https://git.example/team-x/exit-codes.git"
cd "$other"
expect_rc 1 "conflict: another repository renders b's object" kubectl tazuna state sync
expect_contains "$ERR" "error: manifest \"$o\": 1 object is not applied: configmap/b1 -n $ns" "a conflict has an error line"
expect_contains "$ERR" "--take-ownership" "and hints at --take-ownership"
expect_eq "$(jget cm -n "$ns" b1 -o jsonpath='{.data.v}')" "3" "the conflicting object is left alone"
cd "$repo"
# state list --all -o wide: ORIGIN, and ORPHANED only for this repository's states its tazuna.yaml dropped.
g=xg$s
tazuna_yaml "$repo" "{name: $a, type: manifests, path: ./a}" "{name: $b, type: manifests, path: ./b}" "{name: $g, type: manifests, path: ./g}"
mkdir -p g; configmap g1 > g/c.yaml
expect_rc 0 "a third manifest" kubectl tazuna state sync -m "$g"
tazuna_yaml "$repo" "{name: $a, type: manifests, path: ./a}" "{name: $b, type: manifests, path: ./b}"
expect_rc 0 "state list --all -o wide" kubectl tazuna state list --all -o wide
expect_eq "$(head -1 <<<"$OUT" | tr -s ' ')" "MANIFEST APIVERSION KIND NAMESPACE NAME HASH LAST-SYNCED COMMIT ORIGIN STATUS" "the ORIGIN column"
expect_eq "$(awk -v m="$o" '$1 == m {print $(NF-1), $NF}' <<<"$OUT")" "git.example/team-x/exit-codes:tazuna.yaml elsewhere" \
  "another repository's state: its origin, elsewhere (not ORPHANED)"
expect_eq "$(awk -v m="$g" '$1 == m {print $(NF-1), $NF}' <<<"$OUT")" "repo:tazuna.yaml ORPHANED" \
  "a state of this tazuna.yaml it no longer names: ORPHANED"
expect_eq "$(awk -v m="$a" '$1 == m {print $NF}' <<<"$OUT" | sort -u)" "active" "a named manifest: active"
expect_rc 0 "state list --all -o json carries the origin" kubectl tazuna state list --all -o json
expect_eq "$(jq -r --arg m "$o" '[.items[] | select(.manifest == $m) | .origin] | unique | join(",")' <<<"$OUT")" \
  "git.example/team-x/exit-codes:tazuna.yaml" "json: origin"
kubectl delete cm -n tazuna "tazuna-state-$o" "tazuna-state-$g" >/dev/null 2>&1
kubectl delete cm -n "$ns" g1 o1 >/dev/null 2>&1
{ configmap a1; echo ---; printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: badkey, namespace: %s}\ndata: {"no spaces": x}\n' "$ns"; } | a_renders
expect_rc 1 "failed: the server rejects an object" kubectl tazuna state sync -m "$a"
expect_contains "$ERR" "error: manifest \"$a\": configmap/badkey -n $ns: " "a failed row has an error line"
configmap a1 | a_renders

# --- 3: stopped part-way. A user who may apply objects and create records but not update a state. ---
user=xc-$s
kubectl create role "$user" -n "$ns" --verb='*' --resource=configmaps >/dev/null
kubectl create rolebinding "$user" -n "$ns" --role="$user" --user="$user" >/dev/null
kubectl create role "$user" -n tazuna --verb=get,list,watch,create --resource=configmaps >/dev/null
kubectl create role "$user-lease" -n tazuna --verb='*' --resource=leases.coordination.k8s.io >/dev/null
kubectl create rolebinding "$user" -n tazuna --role="$user" --user="$user" >/dev/null
kubectl create rolebinding "$user-lease" -n tazuna --role="$user-lease" --user="$user" >/dev/null
kubectl create clusterrole "$user" --verb=get --resource=namespaces >/dev/null
kubectl create clusterrolebinding "$user" --clusterrole="$user" --user="$user" >/dev/null
expect_rc 0 "a clean state first" kubectl tazuna state sync -m "$a" --prune
configmap a1 7 | a_renders
expect_rc 3 "part-way: the object applied, its state write forbidden" kubectl tazuna state sync -m "$a" --as "$user"
error_line "part-way" "Forbidden"
expect_eq "$(jget cm -n "$ns" a1 -o jsonpath='{.data.v}')" "7" "the object was applied before the stop"
expect_rc 0 "a rerun with rights converges" kubectl tazuna state sync -m "$a"
expect_rc 0 "and leaves no difference" kubectl tazuna state diff -m "$a"
kubectl delete clusterrole,clusterrolebinding "$user" >/dev/null 2>&1

# --- --help documents the contract ---
expect_rc 0 "state sync --help" kubectl tazuna state sync --help
expect_contains "$OUT" $'Exit status:\n  0  done\n  1  rows that need a person' "sync's help has the exit codes"
expect_contains "$OUT" "3  stopped part-way" "including part-way"

kubectl delete namespace "$ns" "$ns2" --wait=false >/dev/null 2>&1
finish
