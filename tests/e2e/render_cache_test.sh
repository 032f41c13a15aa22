#!/usr/bin/env bash
# e2e (#27): the render caches never change what build and state diff print. A differential test edits, at
# random, any file a manifest can read (plain and glob manifests, a kustomize base outside the manifest's
# folder, a patch, a component, configMapGenerator files and envs, an include file, the environment, CRDs whose
# custom resources are in another manifest, now and then deleted from the cluster, an ORAS artifact in a real
# registry: new content under its tag, pinned by a digest, its target, delegate and defaultNamespace changed) and
# requires byte-identical output and exit codes with the caches and with --no-render-cache after each edit
# (tests/e2e/render_cache_edits.py), with syncs in between so that diffs take the not-rendered path.
# Release build: 200 edits, about 2.5 minutes. The sanitizer pass runs 40 (same code paths, ~5x slower);
# scripts/bench's render-cache soak runs more (RENDER_CACHE_EDITS). Then the not-rendered path is checked on
# its own: after a sync, -v 2 says nothing was rendered, and a forgotten entry makes it render again.
source "$(dirname "$0")/lib.sh"

# helm and helmfile for the helmfile manifest, in a directory of their own the edits take helmfile out of and
# put back into.
HELM=$("$REPO_DIR/scripts/lib/install-helm") || { echo "FAIL - cannot build helm"; exit 1; }
HELMFILE=$("$REPO_DIR/scripts/lib/install-helmfile") || { echo "FAIL - cannot build helmfile"; exit 1; }
export RC_HFBIN=$E2E_TMP/hfbin PATH=$E2E_TMP/hfbin:$PATH
export RC_HF=none  # the helmfile's var from the environment (helmfile.vars.extra)
mkdir -p "$RC_HFBIN" && ln -s "$HELM" "$RC_HFBIN/helm" && ln -s "$HELMFILE" "$RC_HFBIN/helmfile"
# the ORAS manifest's registry (and oras on PATH)
source "$E2E_DIR/registry.sh"
export RC_REGISTRY=127.0.0.1:$(start_registry registry)
edits=${RENDER_CACHE_EDITS:-200}
sanitizer_build && edits=${RENDER_CACHE_EDITS:-40}
ns=$(new_namespace rc)
kubectl create namespace "$ns" >/dev/null
export XDG_CACHE_HOME=$E2E_TMP/cache  # a cache of its own: nothing from other runs
export KUBECACHEDIR=$E2E_TMP/kubecache  # discovery's too: the edits that delete CRDs drop it
out=$(python3 "$E2E_DIR/render_cache_edits.py" "$TAZUNA_BUILD_DIR/kubectl-tazuna" "$E2E_TMP" "$ns" "$edits" "${RENDER_CACHE_SEED:-$RANDOM}")
rc=$?
printf '%s\n' "$out" | grep -E '^(FAIL|  )' | head -40
summary=$(printf '%s\n' "$out" | tail -1)
[ "$rc" = 0 ] && pass "differential: $summary" || fail "differential: $summary"

# --- the not-rendered path, seen at -v 2 ---
prefix=$(printf '%s\n' "$out" | sed -n 's/^prefix //p')
cd "$E2E_TMP/repo"
expect_rc 0 "sync -e dev" kubectl tazuna state sync -n "$ns" -e dev --prune --wait=false
expect_rc 0 "diff right after it" kubectl tazuna state diff -n "$ns" -e dev -v 2
expect_contains "$OUT" "No changes detected." "nothing to do"
expect_not_contains "$ERR" "rendering manifest \"$prefix-plain\"" "plain: not rendered"
expect_not_contains "$ERR" "rendering manifest \"$prefix-glob\"" "glob: not rendered"
# The helmfile takes a var from the environment (helmfile.vars.extra): its state records no digest of that
# value, only the local render cache keys on it (render_inputs_test covers a helmfile's not-rendered path).
expect_contains "$ERR" "manifest \"$prefix-hf\": its inputs include values of the environment, so its state does not record them" \
  "helmfile with a var from the environment: not taken from its state"
expect_not_contains "$ERR" "manifest \"$prefix-hf\" not rendered: its state records" "... nor said to be"
expect_contains "$ERR" "manifest \"$prefix-crds\" not rendered: its state records" "CRDs: not rendered (scopes recorded)"
expect_contains "$ERR" "manifest \"$prefix-oras\" not rendered: its state records" "ORAS: not rendered (the artifact's digest recorded)"
cm_meta=$(kubectl get configmap -n tazuna "tazuna-state-$prefix-crds" -o jsonpath='{.data._metadata}')
expect_contains "$cm_meta" "\"crdScopes\":{\"$prefix.example.com/Widget\":\"Namespaced\",\"$prefix.example.com/Zone\":\"Cluster\"}" \
  "the CRDs' scopes are recorded with the render"
expect_contains "$ERR" "manifest \"$prefix-app-dev\" is rendered every time: kustomize:" "app-dev: always rendered ..."
expect_contains "$ERR" "takes \"RC_VAR\" from the environment" "... as it reads a variable of the environment"
expect_contains "$ERR" "manifest \"$prefix-plain\" not rendered: its state records the render of the same inputs" "says why"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s-late\n' "$prefix" > plain/late.yaml
expect_rc 1 "diff after adding plain/late.yaml" kubectl tazuna state diff -n "$ns" -e dev -v 2 -o json
cached=$OUT
expect_contains "$ERR" "rendering manifest \"$prefix-plain\"" "the edited manifest is rendered"
expect_contains "$ERR" "manifest \"$prefix-glob\" not rendered" "the others are not"
expect_rc 1 "the same diff without the caches" kubectl tazuna state diff -n "$ns" -e dev --no-render-cache -o json
expect_eq "$OUT" "$cached" "the same rows"
expect_contains "$cached" "$prefix-late" "the new object is the row"
rm plain/late.yaml
expect_rc 0 "forget an entry" kubectl tazuna state forget -n "$ns" -m "$prefix-glob" "/v1/ConfigMap/$ns/$prefix-g0"
expect_rc 1 "diff after the forget" kubectl tazuna state diff -n "$ns" -e dev -v 2
expect_not_contains "$ERR" "manifest \"$prefix-glob\" not rendered" "a state changed since the sync: not taken from it"
expect_contains "$OUT" "$prefix-g0" "the forgotten object shows as added"

# A manifest's keys depend on scopes other manifests' CRDs give: selected alone (-m) with its CRDs gone from the
# cluster, the custom resources' manifest is rendered (its kinds' scopes are unknown now), as without the caches.
expect_rc 0 "sync before the CRDs go" kubectl tazuna state sync -n "$ns" -e dev --wait=false
kubectl delete crd "zones.$prefix.example.com" "widgets.$prefix.example.com" >/dev/null
rm -rf "$KUBECACHEDIR/discovery"
run kubectl tazuna state diff -n "$ns" -e dev -m "$prefix-crs" -o json -v 2
cached_rc=$RC cached="$OUT $(printf '%s\n' "$ERR" | grep '^error')"
expect_contains "$ERR" "manifest \"$prefix-crs\" is rendered: the scopes of its custom resources' kinds changed" \
  "the manifest alone, its kinds' scopes unknown now: rendered"
run kubectl tazuna state diff -n "$ns" -e dev -m "$prefix-crs" -o json --no-render-cache
expect_eq "$RC $OUT $(printf '%s\n' "$ERR" | grep '^error')" "$cached_rc $cached" "the same answer as without the caches"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete crd "zones.$prefix.example.com" "widgets.$prefix.example.com" --ignore-not-found --wait=false >/dev/null 2>&1
kubectl get configmap -n tazuna -o name | grep "/tazuna-state-$prefix-" | xargs -r kubectl delete -n tazuna >/dev/null 2>&1
finish
