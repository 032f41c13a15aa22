#!/usr/bin/env bash
# Sync history and reviewed plans: every writing sync records a revision (user, commit, counts, objects);
# a killed sync reads as interrupted; --history-limit bounds the records; `state diff --out` writes a
# plan without bodies that `state sync --plan` applies only while nothing moved (render, state, and each
# changed object's live uid and owner), else writes nothing.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
M=hist$s
ns=$(new_namespace hp)
secret_value="plan-secret-$s-do-not-leak"
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' \
  "$M" > "$repo/tazuna.yaml"
cm() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {v: "%s"}\n' "$1" "$ns" "$2" > "$repo/objs/$1.yaml"; }
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" > "$repo/objs/00-ns.yaml"
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: creds, namespace: %s}\nstringData: {password: "%s"}\n' "$ns" "$secret_value" \
  > "$repo/objs/secret.yaml"
cm a 1; cm b 1
cd "$repo"
git init -q . && git remote add origin "https://example.com/e2e/history-$s.git"
commit() { git add -A && git -c user.name=e2e -c user.email=e2e@example.com commit -q -m "$1" && git rev-parse HEAD; }
history_json() { kubectl tazuna state history -m "$M" -o json; }
# field EXPR: evaluates a Python expression over `h` (the history -o json document) read from stdin.
field() { python3 -c "import json,sys; h=json.load(sys.stdin); print($1)"; }
rv() { kubectl get "$@" -o jsonpath='{.metadata.resourceVersion}' 2>/dev/null; }
newest_record() { kubectl get cm -n tazuna -l tazuna.pepabo.com/revision -o name | sort | tail -1; }

# --- 1. Create (client cert user admin), change (token user admin-token), a killed sync, a dirty prune.
c1=$(commit one)
expect_rc 0 "sync 1 creates" kubectl tazuna state sync --context admin
cm a 2; c2=$(commit two)
expect_rc 0 "sync 2 changes one object (admin-token context)" kubectl tazuna state sync --context admin-token
for i in $(seq 1 1500); do
  printf -- '---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: bulk-%04d, namespace: %s}\ndata: {i: "%d"}\n' "$i" "$ns" "$i"
done > "$repo/objs/bulk.yaml"
c3=$(commit three)
before=$(newest_record)
kubectl tazuna state sync --concurrency 1 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 600); do [ "$(newest_record)" != "$before" ] && break; sleep 0.05; done
run kubectl tazuna state history -m "$M"
expect_contains "$(echo "$OUT" | sed -n 2p)" "in-progress" "a running sync reads as in-progress"
if kill -9 "$pid" 2>/dev/null; then pass "sync 3 killed with SIGKILL while applying"; else fail "sync 3 finished before it was killed"; fi
wait "$pid" 2>/dev/null
killed_record=$(newest_record)
expect_contains "$(kubectl get -n tazuna "$killed_record" -o jsonpath='{.data.revision}')" '"status":"in-progress"' \
  "the killed sync's record was left in progress"
sleep 17  # the killed holder's Lease (15s) expires
run kubectl tazuna state history -m "$M"
expect_contains "$(echo "$OUT" | sed -n 2p)" "interrupted" "an in-progress record whose lease expired reads as interrupted"
rm "$repo/objs/bulk.yaml" "$repo/objs/b.yaml"  # not committed: the tree is dirty
expect_rc 0 "sync 4 prunes (dirty tree)" kubectl tazuna state sync --prune
expect_contains "$OUT" "configmap/b -n $ns deleted" "the prune deleted b"

run kubectl tazuna state history -m "$M"
expect_eq "$RC" "0" "state history"
expect_eq "$(echo "$OUT" | head -1 | tr -s ' ')" "REVISION STARTED DURATION USER COMMIT STATUS CHANGES" "kubectl-style headers"
expect_eq "$(echo "$OUT" | tail -n +2 | awk '{print $6}' | tr '\n' ' ')" "succeeded interrupted succeeded succeeded " \
  "four revisions newest first: succeeded, interrupted, succeeded, succeeded"
expect_eq "$(echo "$OUT" | tail -n +2 | awk '{print $5}' | tr '\n' ' ')" \
  "${c3:0:12}-dirty ${c3:0:12} ${c2:0:12} ${c1:0:12} " "commits, with -dirty for the uncommitted tree"
expect_contains "$(echo "$OUT" | sed -n 5p)" "4 created" "the first sync's changes (Namespace, Secret, a, b)"
expect_contains "$(echo "$OUT" | sed -n 4p)" "1 configured" "the second sync's change"
expect_contains "$(echo "$OUT" | sed -n 2p)" "deleted" "the prune's deletes"
run history_json
expect_eq "$RC" "0" "state history -o json"
if echo "$OUT" | python3 -c 'import json,sys; json.load(sys.stdin)' 2>/dev/null; then pass "-o json parses"; else fail "-o json does not parse"; fi
expect_eq "$(echo "$OUT" | field '" ".join(i["user"] for i in h["items"])')" "admin admin admin-token admin" \
  "users as the apiserver saw them: client cert admin, token admin-token"
expect_eq "$(echo "$OUT" | field '" ".join(i["status"] for i in h["items"])')" "succeeded interrupted succeeded succeeded" \
  "json statuses"
ids=$(echo "$OUT" | field '" ".join(i["id"] for i in h["items"])')
expect_eq "$(echo "$ids" | tr ' ' '\n' | sort -r | tr '\n' ' ')" "$ids " "ULIDs newest first"
read -r rev4 rev3 rev2 rev1 <<< "$ids"
expect_eq "$(echo "$OUT" | field 'h["items"][3]["selection"]["manifests"] == [] and h["items"][3]["manifests"] == ["'"$M"'"]')" \
  "True" "the selection and the synced manifests are recorded"
run kubectl tazuna state history "${rev2:0:20}"
expect_eq "$RC" "0" "state history REVISION (a prefix)"
expect_contains "$(echo "$OUT" | tr -s ' ')" "$M configured v1 ConfigMap $ns a" "lists the changed object with its verb"
expect_eq "$(echo "$OUT" | wc -l)" "2" "only the one changed object"
run kubectl tazuna state history "$rev4" -o wide
expect_contains "$OUT" "deleted" "the prune revision lists its deletes"
expect_eq "$(echo "$OUT" | grep -c " deleted ")" "$(( $(kubectl tazuna state history "$rev4" -o json | field 'h["counts"]["'"$M"'"].get("deleted",0)') ))" \
  "one row per deleted object"
run kubectl tazuna state history "$rev1" -o json
expect_not_contains "$OUT" "$secret_value" "no Secret value in a revision"
expect_rc 2 "an unknown revision" kubectl tazuna state history 00000000
expect_contains "$ERR" 'revision "00000000" not found' "says so"

# --- 2. --history-limit 2: only two revisions remain after a third sync (one that changes something: a sync
# that changes nothing writes no revision).
cm a 2b
expect_rc 0 "sync with --history-limit 2" kubectl tazuna state sync --history-limit 2
ours=$(kubectl get cm -n tazuna -l tazuna.pepabo.com/revision -o json | python3 -c '
import json,sys
print(sum(1 for i in json.load(sys.stdin)["items"]
          if i["metadata"].get("annotations", {}).get("tazuna.pepabo.com/origin") == sys.argv[1]))' "example.com/e2e/history-$s:tazuna.yaml")
expect_eq "$ours" "2" "two revision records of this repository remain (other repositories' are not counted)"
expect_eq "$(history_json | field 'len(h["items"])')" "2" "state history lists two"

# --- 3. Plans.
state_rvs() { kubectl get cm -n tazuna -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.resourceVersion}{"\n"}{end}' | grep "^tazuna-state-$M"; }
object_rvs() { kubectl get cm,secret -n "$ns" -o jsonpath='{range .items[*]}{.metadata.name}={.metadata.resourceVersion}{"\n"}{end}'; }
cm a 3; cm c 1
expect_rc 1 "state diff --out writes a plan (differences: exit 1)" kubectl tazuna state diff --out "$E2E_TMP/plan1.json"
expect_eq "$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print(p["kind"], len(p["changes"]), len(p["objects"]))' "$E2E_TMP/plan1.json")" \
  "Plan 2 4" "the plan holds two rows and every selected object's hash"
if grep -q -e "$secret_value" -e "$(printf %s "$secret_value" | base64)" "$E2E_TMP/plan1.json"; then
  fail "the plan holds the Secret's value"; else pass "grep finds no Secret value in the plan"; fi
run kubectl tazuna state sync --plan "$E2E_TMP/plan1.json" -o json
expect_eq "$RC" "0" "a plan applied unchanged"
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; print(sorted((i["key"].split("/")[-1], i["result"]) for i in json.load(sys.stdin)["items"] if i["result"] != "unchanged"))')" \
  "[('a', 'configured'), ('c', 'created')]" "the sync did exactly the planned rows"
expect_eq "$(history_json | field 'h["items"][0]["planDigest"][:7]')" "sha256:" "the revision records the plan's digest"

cm a 4
expect_rc 1 "plan 2" kubectl tazuna state diff --out "$E2E_TMP/plan2.json"
cm a 5  # the repository moves after the review
states_before=$(state_rvs); objects_before=$(object_rvs); records_before=$(newest_record)
expect_rc 2 "a plan after the repository changed an object is refused" kubectl tazuna state sync --plan "$E2E_TMP/plan2.json"
expect_contains "$ERR" "error: plan is stale: object configmap/a -n $ns renders differently than planned" "explains which object"
expect_eq "$(state_rvs)|$(object_rvs)|$(newest_record)" "$states_before|$objects_before|$records_before" \
  "nothing written: state, objects and history unchanged"

expect_rc 1 "plan 3" kubectl tazuna state diff --out "$E2E_TMP/plan3.json"
expect_rc 0 "another sync changes the state" kubectl tazuna state sync
other=$(history_json | field 'h["items"][0]["id"]')
states_before=$(state_rvs); objects_before=$(object_rvs); records_before=$(newest_record)
expect_rc 2 "a plan after another sync changed state is refused" kubectl tazuna state sync --plan "$E2E_TMP/plan3.json"
expect_contains "$ERR" "error: plan is stale: manifest \"$M\" state changed since the plan (revision $other)" \
  "names the manifest and the revision that changed it"
expect_eq "$(state_rvs)|$(object_rvs)|$(newest_record)" "$states_before|$objects_before|$records_before" \
  "nothing written: state, objects and history unchanged"
expect_rc 2 "a plan with another selection" kubectl tazuna state sync --plan "$E2E_TMP/plan3.json" -m other
expect_contains "$ERR" "was made for every manifest, not -m other" "names both selections"

# --- 4. A sync whose apply the server rejects is recorded as failed.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bad, namespace: %s}\ndata: {"not a key!": "x"}\n' "$ns" > "$repo/objs/bad.yaml"
expect_rc 1 "a sync with an invalid object fails" kubectl tazuna state sync
run kubectl tazuna state history -m "$M"
expect_contains "$(echo "$OUT" | sed -n 2p)" "failed" "its revision is failed"
expect_contains "$(echo "$OUT" | sed -n 2p)" "1 failed" "and counts the failed object"

# --- 5. A plan pins what it saw of each row's live object (exists, uid, owner): an object created, deleted,
# made again or taken since is refused, writing nothing. Repository a (manifests A, A2) and b (manifest B).
ns2=$(new_namespace hq)
kubectl create namespace "$ns2" >/dev/null
A=pa$s; A2=pa2$s; B=pb$s
ra=$E2E_TMP/plan-a; rb=$E2E_TMP/plan-b
tazuna_yaml "$ra" "{name: $A, type: manifests, path: ./objs}" "{name: $A2, type: manifests, path: ./objs2}"
tazuna_yaml "$rb" "{name: $B, type: manifests, path: ./objs}"
mkdir -p "$ra/objs" "$ra/objs2" "$rb/objs"
repo_at "$ra" "https://example.com/e2e/plan-a-$s.git"; repo_at "$rb" "https://example.com/e2e/plan-b-$s.git"
cm2() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {v: "%s"}\n' "$2" "$ns2" "$3" > "$1/$2.yaml"; }
live_of() { kubectl get cm -n "$ns2" "$1" -o jsonpath='{.metadata.uid}/{.metadata.resourceVersion}/{.data.v}' 2>/dev/null; }
# snapshot NAME...: the objects, the three states and the newest revision record, to show nothing was written.
snapshot() {
  echo "$(for n in "$@"; do live_of "$n"; echo; done)|$(rv cm -n tazuna "tazuna-state-$A")|$(rv cm -n tazuna "tazuna-state-$A2")"
  echo "|$(rv cm -n tazuna "tazuna-state-$B")|$(state_keys "$B" 2>/dev/null)|$(newest_record)"
}
plan() { echo "$E2E_TMP/p5$1.json"; }

# 5a. Repositories a and b render x; a plans to take it over (x absent); b creates x; a's plan is refused.
cm2 "$ra/objs" x a; cm2 "$ra/objs2" keep 1; cm2 "$rb/objs" x b
cd "$ra"
expect_rc 1 "a: diff -o wide --take-ownership --out (x added, no owner)" \
  kubectl tazuna state diff -o wide --take-ownership --out "$(plan a)"
expect_contains "$(echo "$OUT" | head -1)" "OWNER" "the table has an OWNER column (x has none: it does not exist)"
cd "$rb"
expect_rc 0 "b creates x" kubectl tazuna state sync
cd "$ra"
before=$(snapshot x keep)
expect_rc 2 "a: --take-ownership with the plan is refused (b created x since)" \
  kubectl tazuna state sync --plan "$(plan a)" --take-ownership
expect_contains "$ERR" "error: plan is stale: object configmap/x -n $ns2 was created since the plan (now manifest \"$B\" of repository example.com/e2e/plan-b-$s (tazuna.yaml), field managers tazuna)" \
  "names the object and who owns it now"
expect_contains "$ERR" "Nothing was written." "says nothing was written"
expect_eq "$(snapshot x keep)" "$before" "nothing written: x (b's data), b's state, a's states and the history unchanged"
rm "$ra/objs/x.yaml"

# 5b. A sibling manifest creates the object a plan adds (a sync would say "moved from manifest").
cm2 "$ra/objs" sib 1
expect_rc 1 "a: plan for -m A (sib added)" kubectl tazuna state diff -m "$A" --out "$(plan b)"
cm2 "$ra/objs2" sib 2
expect_rc 0 "the sibling manifest A2 creates sib" kubectl tazuna state sync -m "$A2"
rm "$ra/objs2/sib.yaml"
before=$(snapshot sib keep)
expect_rc 2 "the plan is refused (sib was created by A2 since)" kubectl tazuna state sync --plan "$(plan b)"
expect_contains "$ERR" "error: plan is stale: object configmap/sib -n $ns2 was created since the plan (now manifest \"$A2\" of repository example.com/e2e/plan-a-$s (tazuna.yaml), field managers tazuna)" \
  "names the sibling manifest"
expect_eq "$(snapshot sib keep)" "$before" "nothing written"
rm "$ra/objs/sib.yaml"; cm2 "$ra/objs2" sib 2

# 5c. kubectl create makes the object a plan adds (a sync would say "adopted").
cm2 "$ra/objs" z 1
expect_rc 1 "a: plan (z added)" kubectl tazuna state diff --out "$(plan c)"
kubectl create configmap -n "$ns2" z --from-literal=v=0 >/dev/null
before=$(snapshot z)
expect_rc 2 "the plan is refused (kubectl created z since)" kubectl tazuna state sync --plan "$(plan c)"
expect_contains "$ERR" "error: plan is stale: object configmap/z -n $ns2 was created since the plan (now field managers kubectl-create)" \
  "names who made it"
expect_eq "$(snapshot z)" "$before" "nothing written"
kubectl delete cm -n "$ns2" z >/dev/null

# An unchanged plan applies: z, w and old are created.
cm2 "$ra/objs" w 1; cm2 "$ra/objs" old 1
expect_rc 1 "a: plan (z, w, old added)" kubectl tazuna state diff --out "$(plan d)"
expect_rc 0 "the unchanged plan applies" kubectl tazuna state sync --plan "$(plan d)"
expect_contains "$OUT" "configmap/w -n $ns2 created" "it created w"

# 5d. A modified row's object deleted and created again by someone else (a sync would say "adopted").
cm2 "$ra/objs" w 2
expect_rc 1 "a: plan (w modified)" kubectl tazuna state diff --out "$(plan e)"
u1=$(uid cm -n "$ns2" w)
kubectl delete cm -n "$ns2" w >/dev/null; kubectl create configmap -n "$ns2" w --from-literal=v=other >/dev/null
u2=$(uid cm -n "$ns2" w)
before=$(snapshot w)
expect_rc 2 "the plan is refused (w is another object now)" kubectl tazuna state sync --plan "$(plan e)"
expect_contains "$ERR" "error: plan is stale: object configmap/w -n $ns2 was deleted and created again since the plan (uid $u1, now $u2)" \
  "names both uids"
expect_eq "$(snapshot w)" "$before" "nothing written"
expect_rc 0 "a syncs (adopts w)" kubectl tazuna state sync

# 5e. A prune row's object deleted and created again, with tazuna's field manager, before the plan is applied.
rm "$ra/objs/old.yaml"
expect_rc 1 "a: plan --prune (old removed)" kubectl tazuna state diff --prune --out "$(plan f)"
u1=$(uid cm -n "$ns2" old)
kubectl delete cm -n "$ns2" old >/dev/null
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: old, namespace: %s}\ndata: {v: "new"}\n' "$ns2" |
  kubectl apply --server-side --field-manager=tazuna -f - >/dev/null
u2=$(uid cm -n "$ns2" old)
before=$(snapshot old)
expect_rc 2 "the prune plan is refused (old is another object now)" kubectl tazuna state sync --plan "$(plan f)" --prune
expect_contains "$ERR" "error: plan is stale: object configmap/old -n $ns2 was deleted and created again since the plan (uid $u1, now $u2)" \
  "names both uids"
expect_eq "$(snapshot old)" "$before" "nothing written: the new old (data new) is not deleted"

# 5f. --takeover-managers is part of the plan's target (also TAZUNA_TAKEOVER_MANAGERS).
expect_rc 1 "a: plan --prune --takeover-managers=none" \
  kubectl tazuna state diff --prune --takeover-managers=none --out "$(plan g)"
before=$(snapshot old)
expect_rc 2 "the plan is refused by a sync with the default managers" kubectl tazuna state sync --plan "$(plan g)" --prune
expect_contains "$ERR" "error: plan was made for a sync with --takeover-managers=none, this sync is for --takeover-managers=default" \
  "names both"
expect_rc 2 "and by one with TAZUNA_TAKEOVER_MANAGERS=kubectl" \
  env TAZUNA_TAKEOVER_MANAGERS=kubectl kubectl tazuna state sync --plan "$(plan g)" --prune
expect_contains "$ERR" "this sync is for --takeover-managers=kubectl" "names the variable's managers"
expect_eq "$(snapshot old)" "$before" "nothing written"
expect_rc 0 "the plan applies with TAZUNA_TAKEOVER_MANAGERS=none" \
  env TAZUNA_TAKEOVER_MANAGERS=none kubectl tazuna state sync --plan "$(plan g)" --prune
expect_contains "$OUT" "configmap/old -n $ns2 deleted" "it pruned the object it pinned"

# 5g. -m (and -t) compare as sets: the same manifests in another order apply the plan.
cm2 "$ra/objs" w 3; cm2 "$ra/objs2" keep 2
expect_rc 1 "a: plan -m A -m A2" kubectl tazuna state diff -m "$A" -m "$A2" --out "$(plan h)"
expect_rc 0 "the plan applies with -m A2 -m A" kubectl tazuna state sync --plan "$(plan h)" -m "$A2" -m "$A"
expect_contains "$OUT" "configmap/w -n $ns2 configured" "it changed w"
expect_contains "$OUT" "configmap/keep -n $ns2 configured" "and keep"

# 5h. A plan of an older version (no live section) is refused, asking for a new plan.
cm2 "$ra/objs" w 4
expect_rc 1 "a: plan (w modified)" kubectl tazuna state diff --out "$(plan i)"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); [r.pop("live") for r in p["changes"]]; json.dump(p, open(sys.argv[1], "w"))' "$(plan i)"
before=$(snapshot w)
expect_rc 2 "a plan without what it saw live is refused" kubectl tazuna state sync --plan "$(plan i)"
expect_contains "$ERR" "invalid plan: it does not record the live objects it saw (made by an older version of tazuna); make it again with state diff --out" \
  "asks for a new plan"
expect_eq "$(snapshot w)" "$before" "nothing written"

# 5i. A prune row's object deleted and created again (tazuna's field manager) while the plan's sync runs:
# after the plan was checked under the lock, before the prune. The prune deletes only the object the plan
# pinned. The window: a custom resource no controller writes status for, waited for --status-grace.
group=hp$s.tazuna.io
printf 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: waiters.%s}\nspec:\n  group: %s\n  scope: Namespaced\n  names: {plural: waiters, kind: Waiter}\n  versions: [{name: v1, served: true, storage: true, subresources: {status: {}}, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]\n' \
  "$group" "$group" | kubectl apply -f - >/dev/null
kubectl wait --for=condition=Established "crd/waiters.$group" --timeout=30s >/dev/null
cm2 "$ra/objs" doomed 1
expect_rc 0 "a syncs doomed" kubectl tazuna state sync
rm "$ra/objs/doomed.yaml"
printf 'apiVersion: %s/v1\nkind: Waiter\nmetadata: {name: slow, namespace: %s}\nspec: {size: 1}\n' "$group" "$ns2" > "$ra/objs/slow.yaml"
expect_rc 1 "a: plan --prune (doomed removed, slow added)" kubectl tazuna state diff --prune --out "$(plan j)"
u1=$(uid cm -n "$ns2" doomed)
kubectl tazuna state sync --plan "$(plan j)" --prune --wait --status-grace 8s >"$E2E_TMP/p5j.out" 2>"$E2E_TMP/p5j.err" &
pid=$!
for _ in $(seq 1 400); do kubectl get "waiters.$group" -n "$ns2" slow >/dev/null 2>&1 && break; sleep 0.05; done
kubectl delete cm -n "$ns2" doomed >/dev/null
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: doomed, namespace: %s}\ndata: {v: "again"}\n' "$ns2" |
  kubectl apply --server-side --field-manager=tazuna -f - >/dev/null
u2=$(uid cm -n "$ns2" doomed)
rc=0; wait "$pid" || rc=$?
expect_eq "$rc" "1" "the sync fails: its prune was refused"
expect_contains "$(cat "$E2E_TMP/p5j.out")" "configmap/doomed -n $ns2 kept (not pruned: created again since the plan (uid $u1, now $u2))" \
  "the row says the object was made again since the plan, with both uids"
expect_eq "$(live_of doomed | cut -d/ -f1,3)" "$u2/again" "the object made again is not deleted"
expect_eq "$(state_keys "$A" | grep -c doomed)" "1" "its row stays in the state"

# 5j. A plan applies only from the repository it was made in. A fork's checkout (same files) syncing a
# manifest with no state yet would claim its state and mark its objects as the fork's: not what was reviewed.
rm "$ra/objs/slow.yaml"
A3=pa3$s
tazuna_yaml "$ra" "{name: $A, type: manifests, path: ./objs}" "{name: $A2, type: manifests, path: ./objs2}" \
  "{name: $A3, type: manifests, path: ./objs3}"
mkdir -p "$ra/objs3"; cm2 "$ra/objs3" forked 1
expect_rc 1 "a: plan -m A3 (forked added; A3 has no state yet)" kubectl tazuna state diff -m "$A3" --out "$(plan k)"
fork=$E2E_TMP/plan-fork; cp -r "$ra" "$fork"; git -C "$fork" remote set-url origin "https://example.com/e2e/fork-$s.git"
cd "$fork"
before=$(snapshot forked)
expect_rc 2 "the plan is refused from the fork" kubectl tazuna state sync --plan "$(plan k)"
expect_contains "$ERR" "error: plan was made for repository example.com/e2e/plan-a-$s (tazuna.yaml), this sync is for example.com/e2e/fork-$s (tazuna.yaml)" \
  "names both repositories"
expect_eq "$(snapshot forked)" "$before" "nothing written"
expect_eq "$(uid cm -n tazuna "tazuna-state-$A3")" "" "no state claimed for the fork"
cd "$ra"
expect_rc 0 "the plan applies from its own repository" kubectl tazuna state sync --plan "$(plan k)"
expect_contains "$OUT" "configmap/forked -n $ns2 created" "it created forked"

# 5k. A prune row whose object did not exist at plan time, rendered again under another group that serves
# the same objects (an Event moving from v1 to events.k8s.io/v1): the sync creates it, and the prune, reading
# the old key, finds that very object still rendered; it is kept and forgotten, not refused.
printf 'apiVersion: v1\nkind: Event\nmetadata: {name: ev, namespace: %s}\ninvolvedObject: {kind: ConfigMap, name: keep, namespace: %s}\nreason: Test\nmessage: m\ntype: Normal\n' \
  "$ns2" "$ns2" > "$ra/objs/ev.yaml"
expect_rc 1 "a syncs a v1 Event (its rows kept without --prune exit 1)" kubectl tazuna state sync
kubectl delete event -n "$ns2" ev >/dev/null
printf 'apiVersion: events.k8s.io/v1\nkind: Event\nmetadata: {name: ev, namespace: %s}\neventTime: "2026-01-01T00:00:00.000000Z"\nreportingController: e2e.example.com/c\nreportingInstance: i\naction: Test\nreason: Test\ntype: Normal\nnote: m\nregarding: {kind: ConfigMap, name: keep, namespace: %s}\n' \
  "$ns2" "$ns2" > "$ra/objs/ev.yaml"
expect_rc 1 "a: plan --prune (the v1 Event gone; events.k8s.io/v1 ev added)" kubectl tazuna state diff --prune --out "$(plan l)"
expect_rc 1 "the plan applies (a kept row exits 1, whatever the reason)" kubectl tazuna state sync --plan "$(plan l)" --prune
expect_contains "$OUT" "event/ev -n $ns2 kept (still rendered as events.k8s.io/v1 Event)" "the old key's row is kept, not refused"
expect_eq "$(uid event -n "$ns2" ev | grep -c .)" "1" "the Event exists"
cd "$repo"

kubectl delete ns "$ns" "$ns2" --wait=false >/dev/null 2>&1
kubectl delete crd "waiters.hp$s.tazuna.io" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$M" "tazuna-state-$A" "tazuna-state-$A2" "tazuna-state-pa3$s" "tazuna-state-$B" >/dev/null 2>&1
finish
