#!/usr/bin/env bash
# Ownership you can see: an object rendered twice is an error; objects made by others are adopted and
# marked; another repository's objects are conflicts unless taken over; state has one home (its origin);
# kubectl's ApplySet recognises a state ConfigMap as tazuna's and refuses to touch it.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
ns=$(new_namespace ow)
kubectl create namespace "$ns" >/dev/null
tazuna_yaml() {  # tazuna_yaml DIR ENTRY...
  local dir=$1; shift
  mkdir -p "$dir"
  { printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n'; for e in "$@"; do printf '    - %s\n' "$e"; done; } > "$dir/tazuna.yaml"
}
repo_at() {  # repo_at DIR URL: a git repository whose remote origin is URL
  git -C "$1" init -q 2>/dev/null && git -C "$1" remote add origin "$2"
}
cm() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {v: "%s"}\n' "$1" "$ns" "$2"; }
uid() { kubectl get "$@" -o jsonpath='{.metadata.uid}' 2>/dev/null; }
rv() { kubectl get "$@" -o jsonpath='{.metadata.resourceVersion}' 2>/dev/null; }

# --- 1. Two manifests rendering one ConfigMap: an error naming both files, nothing written.
repo=$E2E_TMP/dup
tazuna_yaml "$repo" "{name: da$s, type: manifests, path: ./a}" "{name: db$s, type: manifests, path: ./b}"
mkdir -p "$repo/a/objs" "$repo/b"
cm twice 1 > "$repo/a/objs/x.yaml"; cm twice 2 > "$repo/b/x.yaml"
cd "$repo"
expect_rc 2 "diff: an object rendered by two manifests" kubectl tazuna state diff
expect_contains "$ERR" "error: ConfigMap $ns/twice is rendered by manifests \"da$s\" (a/objs/x.yaml) and \"db$s\" (b/x.yaml)" \
  "names both manifests and files"
expect_rc 2 "sync refuses too" kubectl tazuna state sync
expect_rc 1 "nothing was applied" kubectl get cm -n "$ns" twice
expect_rc 1 "no state was written" kubectl get cm -n tazuna "tazuna-state-da$s"
expect_rc 2 "build refuses too" kubectl tazuna build

# --- 2. An object made by kubectl is adopted, marked, then unchanged and without drift.
A=ad$s
repo=$E2E_TMP/adopt
tazuna_yaml "$repo" "{name: $A, type: manifests, path: ./objs}"
mkdir -p "$repo/objs"; cm made-by-kubectl 1 > "$repo/objs/c.yaml"
kubectl create configmap -n "$ns" made-by-kubectl --from-literal=v=0 >/dev/null
cd "$repo"
expect_rc 1 "wide diff" kubectl tazuna state diff -o wide
expect_contains "$(echo "$OUT" | head -1)" "OWNER" "wide diff has an OWNER column"
expect_contains "$OUT" "kubectl-create" "OWNER names who made the existing object"
expect_rc 0 "sync adopts it" kubectl tazuna state sync
expect_contains "$OUT" "configmap/made-by-kubectl -n $ns adopted (was managed by kubectl-create)" "reported adopted"
expect_eq "$(kubectl get cm -n "$ns" made-by-kubectl -o jsonpath='{.metadata.labels.app\.kubernetes\.io/managed-by} {.metadata.annotations.tazuna\.pepabo\.com/manifest}')" \
  "tazuna $A" "it carries the marks"
expect_contains "$(kubectl get cm -A -l app.kubernetes.io/managed-by=tazuna -o name)" "configmap/made-by-kubectl" \
  "kubectl get -l app.kubernetes.io/managed-by=tazuna lists it"
expect_rc 0 "second sync" kubectl tazuna state sync
expect_contains "$OUT" "configmap/made-by-kubectl -n $ns unchanged" "then unchanged"
expect_rc 0 "no drift" kubectl tazuna state drift
expect_eq "$OUT" "No drift detected." "marks are not drift"

# --- 3. Another repository's manifest renders the same object: conflict, unless --take-ownership.
B=other$s
repo_b=$E2E_TMP/other
tazuna_yaml "$repo_b" "{name: $B, type: manifests, path: ./objs}"
mkdir -p "$repo_b/objs"; cm made-by-kubectl 2 > "$repo_b/objs/c.yaml"
repo_at "$repo_b" "https://git.example/team-b/platform.git"
before=$(rv cm -n "$ns" made-by-kubectl)
cd "$repo_b"
expect_rc 1 "the other repository's sync (a conflict row)" kubectl tazuna state sync
expect_contains "$OUT" "configmap/made-by-kubectl -n $ns conflict (owned by manifest \"$A\" of repository adopt (tazuna.yaml))" \
  "reported as a conflict naming the manifest and its repository"
expect_eq "$(rv cm -n "$ns" made-by-kubectl)" "$before" "the object is unchanged"
expect_rc 0 "--take-ownership moves it" kubectl tazuna state sync --take-ownership
expect_eq "$(kubectl get cm -n "$ns" made-by-kubectl -o jsonpath='{.metadata.annotations.tazuna\.pepabo\.com/manifest} {.data.v}')" \
  "$B 2" "now owned and written by the other manifest"
cd "$repo"
expect_rc 1 "the first manifest's next diff shows it" kubectl tazuna state diff
expect_contains "$OUT" "added" "as no longer recorded for it"
expect_rc 1 "the first manifest's sync now sees the conflict" kubectl tazuna state sync
expect_contains "$OUT" "conflict (owned by manifest \"$B\" of repository git.example/team-b/platform (tazuna.yaml))" \
  "and names the new owner"

# --- 4. kubectl's ApplySet recognises the state ConfigMap as tazuna's and refuses to touch it.
cm made-by-kubectl 3 > "$E2E_TMP/applyset.yaml"
before=$(uid cm -n "$ns" made-by-kubectl)
expect_eq "$(kubectl get cm -n tazuna "tazuna-state-$A" -o jsonpath='{.metadata.annotations.applyset\.kubernetes\.io/tooling}' | cut -d/ -f1)" \
  "tazuna" "the state ConfigMap names tazuna as its ApplySet tooling"
run env KUBECTL_APPLYSET=true kubectl apply --server-side --applyset="configmap/tazuna-state-$A" -n tazuna --prune -f "$E2E_TMP/applyset.yaml"
if [ "$RC" != 0 ]; then pass "kubectl refuses the set (rc=$RC)"; else fail "kubectl applied into tazuna's set"; fi
expect_contains "$ERR" "tazuna" "kubectl names the other tooling"
expect_eq "$(uid cm -n "$ns" made-by-kubectl)" "$before" "every object stays"
expect_eq "$(kubectl get cm -n "$ns" made-by-kubectl -o jsonpath='{.data.v}')" "2" "and unchanged"

# --- 5. One manifest name in two repositories: the second is refused, the same repository twice is not.
S=shared$s
one=$E2E_TMP/one; two=$E2E_TMP/two; again=$E2E_TMP/one-again
for d in "$one" "$two" "$again"; do tazuna_yaml "$d" "{name: $S, type: manifests, path: ./objs}"; mkdir -p "$d/objs"; done
cm first-team 1 > "$one/objs/c.yaml"; cm first-team 1 > "$again/objs/c.yaml"
cm second-team 1 > "$two/objs/c.yaml"
repo_at "$one" "git@git.example:team-a/platform.git"
repo_at "$again" "https://git.example/team-a/platform"
repo_at "$two" "https://git.example/team-b/other.git"
cd "$one"
expect_rc 0 "the first repository syncs" kubectl tazuna state sync
expect_contains "$(kubectl get cm -n tazuna "tazuna-state-$S" -o jsonpath='{.data._metadata}')" \
  '"origin":{"path":"tazuna.yaml","repository":"git.example/team-a/platform"}' "the state records its origin"
first_uid=$(uid cm -n "$ns" first-team)
cd "$two"
expect_rc 2 "another repository's sync --prune of the same manifest name" kubectl tazuna state sync --prune
expect_contains "$ERR" "error: manifest \"$S\" is managed from git.example/team-a/platform (tazuna.yaml)
To manage it from git.example/team-b/other (tazuna.yaml) instead, take it over first: kubectl tazuna state takeover -m $S" \
  "refused naming the first origin, and how to take it over"
expect_rc 2 "--take-ownership does not take a whole state over" kubectl tazuna state sync --prune --take-ownership
expect_contains "$ERR" "is managed from git.example/team-a/platform (tazuna.yaml)" "still refused"
expect_rc 2 "its diff is an error too" kubectl tazuna state diff
expect_eq "$(uid cm -n "$ns" first-team)" "$first_uid" "the first team's object stays"
expect_rc 1 "and the second team's was not applied" kubectl get cm -n "$ns" second-team
expect_rc 2 "forget is refused too" kubectl tazuna state forget -m "$S" "/v1/ConfigMap/$ns/first-team"
cd "$again"
expect_rc 0 "the same repository in another directory (https clone) syncs" kubectl tazuna state sync --prune
expect_eq "$(uid cm -n "$ns" first-team)" "$first_uid" "and keeps the object"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
for m in "$A" "$B" "$S"; do kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null 2>&1; done
finish
