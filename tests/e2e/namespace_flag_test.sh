#!/usr/bin/env bash
# e2e (#32): -n against an object's own namespace is refused as `kubectl apply -n` refuses it (same
# message, nothing applied, no state written); objects without metadata.namespace go to -n; the
# NAMESPACE column of state diff shows where an object goes, not only what its key says. Also the CLI
# gaps of #32 that need a repository: -t matching nothing is said, state diff --ignore-always-sync.
# Takes about 10 s.
source "$(dirname "$0")/lib.sh"

m=nf$RANDOM
a=$(new_namespace nfa)
b=$(new_namespace nfb)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m" "tags: [base]"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: free\ndata:\n  v: "1"\n' > "$repo/objs/free.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pinned\n  namespace: %s\ndata:\n  v: "1"\n' "$a" \
  > "$repo/objs/pinned.yaml"
kubectl create namespace "$a" >/dev/null
kubectl create namespace "$b" >/dev/null
cd "$repo"

# --- -n conflicting with the object's namespace: refused as kubectl refuses it ---
run kubectl apply -n "$b" -f objs/pinned.yaml --dry-run=server
kubectl_err=$ERR
expect_contains "$kubectl_err" "the namespace from the provided object \"$a\" does not match the namespace \"$b\"" \
  "kubectl refuses it (the reference)"
for cmd in "state sync:2" "state diff:2"; do  # refused before any write: 2
  want=${cmd#*:}; cmd=${cmd%:*}
  expect_rc "$want" "$cmd -n $b refused" kubectl tazuna $cmd -n "$b"
  expect_contains "$ERR" "the namespace from the provided object \"$a\" does not match the namespace \"$b\". You must pass '--namespace=$a' to perform this operation." \
    "$cmd: kubectl's message"
  expect_contains "$ERR" "manifest \"$m\": ConfigMap $a/pinned" "$cmd: names the manifest and the object"
done
[ -z "$(uid cm free -n "$b")" ] && pass "nothing applied in $b" || fail "free applied in $b"
[ -z "$(uid cm pinned -n "$a")" ] && pass "nothing applied in $a" || fail "pinned applied in $a"
kubectl get cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1 && fail "state written" || pass "no state written"

# --- -n matching it: objects without a namespace go to -n, and the NAMESPACE column says so ---
expect_rc 1 "diff -n $a" kubectl tazuna state diff -n "$a"
free_row=$(printf '%s\n' "$OUT" | grep ' free$')
expect_contains "$free_row" "$a" "NAMESPACE column: where a namespace-less object goes"
expect_rc 0 "sync -n $a" kubectl tazuna state sync -n "$a"
[ -n "$(uid cm free -n "$a")" ] && pass "free is live in $a" || fail "free not in $a"
[ -n "$(uid cm pinned -n "$a")" ] && pass "pinned is live in $a" || fail "pinned not in $a"
expect_rc 0 "diff -n $a after sync" kubectl tazuna state diff -n "$a"
expect_contains "$OUT" "No changes detected." "nothing left to do"

# --- -t that matches nothing is said (as kubectl get -l says "No resources found") ---
expect_rc 0 "diff -t nothere" kubectl tazuna state diff -n "$a" -t nothere
expect_contains "$ERR" "Warning: no manifest in tazuna.yaml has tag \"nothere\"" "unknown tag named"
expect_contains "$ERR" "No manifests selected." "an empty selection is said"
expect_rc 0 "diff -t base" kubectl tazuna state diff -n "$a" -t base
expect_not_contains "$ERR" "has tag" "a known tag: no warning"

# --- a genesissecret manifest: always-sync rows alone can pass a CI check ---
secret_repo "$repo" "$m" TOKEN "$a" "tags: [base]"
expect_rc 0 "sync with a genesissecret" kubectl tazuna state sync -n "$a"
expect_rc 1 "diff: always-sync rows exit 1" kubectl tazuna state diff -n "$a"
expect_contains "$OUT" "always-sync" "the always-sync row is shown"
expect_rc 0 "diff --ignore-always-sync: exit 0" kubectl tazuna state diff -n "$a" --ignore-always-sync
expect_contains "$OUT" "always-sync" "the row is still shown"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: later\n' > objs/later.yaml
expect_rc 1 "diff --ignore-always-sync with a real change: exit 1" kubectl tazuna state diff -n "$a" --ignore-always-sync
expect_contains "$OUT" "later" "the added row"

kubectl delete namespace "$a" "$b" --wait=false >/dev/null
kubectl delete configmap -n tazuna "tazuna-state-$m" "tazuna-state-$m-sec" >/dev/null 2>&1
finish
