#!/usr/bin/env bash
# e2e (#32): helmfile manifests render through the real helmfile (built by scripts/lib/install-helmfile)
# and, without it, through tazuna's fallback; on the same files both give the same objects, byte for
# byte, and both are compared with `helmfile template` run by hand. A release's own namespace is where its
# namespace-less objects go (helmfile's --namespace would override it), defaultNamespace where the
# release names none; hooks are left out. What the fallback cannot render is refused with a hint.
# Checks the live cluster after a sync. Needs Go (helm, helmfile). Takes about 15 s warm.
source "$(dirname "$0")/lib.sh"

HELM=$("$REPO_DIR/scripts/lib/install-helm") || { echo "FAIL - cannot build helm"; exit 1; }
HELMFILE=$("$REPO_DIR/scripts/lib/install-helmfile") || { echo "FAIL - cannot build helmfile"; exit 1; }
KUBECTL_DIR=$(dirname "$(command -v kubectl)")
mkdir -p "$E2E_TMP/with" "$E2E_TMP/without"
ln -s "$HELM" "$E2E_TMP/with/helm"
ln -s "$HELMFILE" "$E2E_TMP/with/helmfile"
ln -s "$HELM" "$E2E_TMP/without/helm"
WITH="$TAZUNA_BUILD_DIR:$E2E_TMP/with:$KUBECTL_DIR:/usr/bin:/bin"
WITHOUT="$TAZUNA_BUILD_DIR:$E2E_TMP/without:$KUBECTL_DIR:/usr/bin:/bin"

m=hf$RANDOM
ns=$(new_namespace hf)
repo=$E2E_TMP/repo
cp -r "$E2E_DIR/fixtures/helmfile-real" "$repo"
sed -i "s/HFNAME/$m/; s/HFNS/$ns/g" "$repo/tazuna.yaml"
cd "$repo"

# --- the real helmfile and the fallback agree ---
expect_rc 0 "build with helmfile" env PATH="$WITH" kubectl tazuna build -e dev -v 2
real=$OUT
expect_not_contains "$ERR" "helmfile not on PATH" "helmfile was used"
expect_rc 0 "build without helmfile (fallback)" env PATH="$WITHOUT" kubectl tazuna build -e dev -v 2
expect_contains "$ERR" "helmfile not on PATH" "the fallback was used"
expect_eq "$OUT" "$real" "fallback output is byte-identical to the real helmfile's"
own=$(printf '%s\n' "$real" | awk 'BEGIN{RS="---\n"} /name: own-ns-config/')
dflt=$(printf '%s\n' "$real" | awk 'BEGIN{RS="---\n"} /name: default-ns-config/')
expect_contains "$own" "namespace: $ns-a" "a release's own namespace is where its objects go"
expect_contains "$own" "size: \"3\"" "release set entry applied"
expect_contains "$own" "color: blue" "env function with default"
expect_contains "$own" "env: dev" "{{ .Environment.Name }}"
expect_contains "$dflt" "namespace: $ns-b" "defaultNamespace for a release without one"
expect_contains "$dflt" "env: dev-x" "printf, trim and quote in the helmfile template"
expect_not_contains "$real" "kind: Secret" "hook objects left out"

# The same objects as `helmfile template` run by hand (its own output, namespaces not yet filled in).
printf 'ns: %s\n' "$ns" > "$E2E_TMP/vals.yaml"
by_hand=$(cd "$repo" && PATH="$WITH" HELM_NAMESPACE="$ns-b" helmfile --file helmfile.yaml.gotmpl -e dev \
  --state-values-file "$E2E_TMP/vals.yaml" template --no-hooks 2>/dev/null)
for want in "name: own-ns-config" "namespace: \"$ns-a\"" "namespace: \"$ns-b\"" 'size: "3"' 'env: "dev-x"'; do
  expect_contains "$by_hand" "$want" "helmfile template by hand: $want"
done
expect_eq "$(printf '%s\n' "$by_hand" | grep -c '^kind: ')" "$(printf '%s\n' "$real" | grep -c '^kind: ')" \
  "as many objects as helmfile template by hand"

# A missing value is an error in both (helmfile's map has no entry for key).
cp helmfile.yaml.gotmpl "$E2E_TMP/helmfile.orig"
sed -i 's/{{ .Environment.Name }}/{{ .Values.nothere }}/' helmfile.yaml.gotmpl
expect_rc 1 "missing .Values key with helmfile" env PATH="$WITH" kubectl tazuna build -e dev
expect_contains "$ERR" 'map has no entry for key "nothere"' "helmfile's message"
expect_rc 1 "missing .Values key without helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_contains "$ERR" 'map has no entry for key "nothere"' "the fallback gives Go's message too"
cp "$E2E_TMP/helmfile.orig" helmfile.yaml.gotmpl

# What the fallback does not know (a sprig function, a top-level key) is refused, naming helmfile.
sed -i 's/| trim |/| upper |/' helmfile.yaml.gotmpl
printf 'helmDefaults:\n  wait: true\n' >> helmfile.yaml.gotmpl
expect_rc 0 "upper and helmDefaults with helmfile" env PATH="$WITH" kubectl tazuna build -e dev
expect_contains "$OUT" "env: DEV-X" "helmfile's sprig upper"
expect_rc 1 "upper without helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_contains "$ERR" 'function "upper" not defined (this function needs the helmfile binary)' "the refusal names helmfile"
expect_contains "$ERR" 'install-helmfile' "the hint says how to install it"
sed -i 's/| upper |/| trim |/' helmfile.yaml.gotmpl
expect_rc 1 "helmDefaults without helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_contains "$ERR" '"helmDefaults" needs the helmfile binary' "an unknown key is refused, naming it"
cp "$E2E_TMP/helmfile.orig" helmfile.yaml.gotmpl

# --- sync with the real helmfile: objects where the build said ---
kubectl create namespace "$ns-a" >/dev/null
kubectl create namespace "$ns-b" >/dev/null
expect_rc 0 "sync with helmfile" env PATH="$WITH" kubectl tazuna state sync -e dev
[ -n "$(uid cm own-ns-config -n "$ns-a")" ] && pass "live: own-ns-config in $ns-a" || fail "own-ns-config not in $ns-a"
[ -n "$(uid cm default-ns-config -n "$ns-b")" ] && pass "live: default-ns-config in $ns-b" || fail "default-ns-config not in $ns-b"
[ -z "$(uid secret own-ns-hook -n "$ns-a")" ] && pass "live: no hook Secret" || fail "hook Secret applied"
expect_eq "$(state_keys "$m")" "${m}____v1__ConfigMap__${ns}-a__own-ns-config ${m}____v1__ConfigMap__${ns}-b__default-ns-config" \
  "state keys carry the release namespaces"
expect_rc 0 "diff without helmfile after a sync with it: no changes" env PATH="$WITHOUT" kubectl tazuna state diff -e dev
expect_contains "$OUT" "No changes detected." "the fallback renders what was synced"

kubectl delete namespace "$ns-a" "$ns-b" --wait=false >/dev/null
kubectl delete configmap -n tazuna "tazuna-state-$m" >/dev/null
finish
