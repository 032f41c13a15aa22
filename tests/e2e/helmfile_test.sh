#!/usr/bin/env bash
# e2e (#32, #48): helmfile manifests render as the Go tool renders them (missingkey=zero, sprig without env,
# tazuna.hint.yaml, extraValueFiles from the helmfile's directory) whether the real helmfile (built by
# scripts/lib/install-helmfile) is on PATH or not, byte for byte, and are compared with `helmfile template`
# run by hand; what only helmfile renders goes to it. A release's own namespace is where its
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
cp tazuna.yaml "$E2E_TMP/tazuna.orig"

# --- with and without the real helmfile on PATH: the Go tool's render ---
expect_rc 0 "build with helmfile on PATH" env PATH="$WITH" kubectl tazuna build -e dev -v 2
real=$OUT
expect_not_contains "$ERR" "rendering with helmfile template" "a file the Go tool renders is rendered as it does"
expect_rc 0 "build without helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev -v 2
expect_eq "$OUT" "$real" "the same output without helmfile"
own=$(printf '%s\n' "$real" | awk 'BEGIN{RS="---\n"} /name: own-ns-config/')
dflt=$(printf '%s\n' "$real" | awk 'BEGIN{RS="---\n"} /name: default-ns-config/')
expect_contains "$own" "namespace: $ns-a" "a release's own namespace is where its objects go"
expect_contains "$own" "size: \"3\"" "release set entry applied"
expect_contains "$own" "color: blue" "a missing key is nil (missingkey=zero): default fills it"
expect_contains "$own" "env: dev" "{{ .Environment.Name }}"
expect_contains "$dflt" "namespace: $ns-b" "defaultNamespace for a release without one"
expect_contains "$dflt" "env: dev-x" "printf, trim and quote in the helmfile template"
expect_not_contains "$real" "kind: Secret" "hook objects left out"

# The same objects as `helmfile template` run by hand (its own output, namespaces not yet filled in; helmfile
# itself fails on a missing key, so the by-hand run is given color).
printf 'ns: %s\ncolor: blue\n' "$ns" > "$E2E_TMP/vals.yaml"
by_hand=$(cd "$repo" && PATH="$WITH" HELM_NAMESPACE="$ns-b" helmfile --file helmfile.yaml.gotmpl -e dev \
  --state-values-file "$E2E_TMP/vals.yaml" template --no-hooks 2>/dev/null)
for want in "name: own-ns-config" "namespace: \"$ns-a\"" "namespace: \"$ns-b\"" 'size: "3"' 'env: "dev-x"' 'color: "blue"'; do
  expect_contains "$by_hand" "$want" "helmfile template by hand: $want"
done
expect_eq "$(printf '%s\n' "$by_hand" | grep -c '^kind: ')" "$(printf '%s\n' "$real" | grep -c '^kind: ')" \
  "as many objects as helmfile template by hand"

# A missing key prints <no value>, as in the Go tool, whether helmfile is on PATH or not (helmfile itself
# would fail: the Go tool's meaning wins); helm's render then blanks that text, as it does in the Go tool.
cp helmfile.yaml.gotmpl "$E2E_TMP/helmfile.orig"
sed -i 's/{{ .Environment.Name }}/{{ .Values.nothere }}/' helmfile.yaml.gotmpl
expect_rc 0 "missing .Values key with helmfile on PATH" env PATH="$WITH" kubectl tazuna build -e dev
expect_contains "$OUT" 'env: ""' "Go's text for a missing key, blanked by helm"
with_missing=$OUT
expect_rc 0 "missing .Values key without helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_eq "$OUT" "$with_missing" "the same without helmfile"
cp "$E2E_TMP/helmfile.orig" helmfile.yaml.gotmpl

# sprig's functions render without helmfile; the environment is read only through helmfile.vars.
sed -i 's/| trim |/| upper | trimSuffix "X" | lower |/' helmfile.yaml.gotmpl
expect_rc 0 "sprig upper, trimSuffix, lower without helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_eq "$(printf '%s\n' "$OUT" | grep -c '^  env: dev-$')" 1 "sprig functions rendered by tazuna"
cp "$E2E_TMP/helmfile.orig" helmfile.yaml.gotmpl
sed -i 's/.Values.color/env "HOME"/' helmfile.yaml.gotmpl
for path in "$WITH" "$WITHOUT"; do
  expect_rc 2 "env in a helmfile template is refused" env PATH="$path" kubectl tazuna build -e dev
  expect_contains "$ERR" 'function "env" not defined: a helmfile template does not read the environment' "why"
  expect_not_contains "$OUT$ERR" "$HOME" "no value of the environment printed"
done
cp "$E2E_TMP/helmfile.orig" helmfile.yaml.gotmpl

# tazuna.hint.yaml beside the helmfile: defaults injected, violations refused before anything renders.
printf 'apiVersion: tazuna.pepabo.com/v1\nkind: TazunaHint\nvars:\n  ns: {type: string, required: true}\n  color: {type: string, default: green}\n' \
  > tazuna.hint.yaml
expect_rc 0 "a hint default" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_contains "$OUT" "color: green" "the hint's default is what the template sees"
printf '  owner: {type: string, format: email, required_without: [team]}\n  team: {type: string}\n' >> tazuna.hint.yaml
expect_rc 2 "required_without enforced" env PATH="$WITH" kubectl tazuna build -e dev
expect_contains "$ERR" 'hint var "owner" is required because none of [team] are provided (required_without)' "names var and rule"
printf '  bad: {type: integer}\n' >> tazuna.hint.yaml
expect_rc 2 "an invalid hint file is refused" env PATH="$WITH" kubectl tazuna build -e dev
expect_contains "$ERR" 'tazuna.hint.yaml: hint var "bad" has invalid type "integer"' "names the file and the var"
rm tazuna.hint.yaml

# What only helmfile renders (a top-level key beyond releases and repositories) goes to helmfile when it is on
# PATH, and is refused without it, naming helmfile.
sed -i 's/.Values.color | default "blue"/"blue"/' helmfile.yaml.gotmpl
printf 'helmDefaults:\n  wait: true\n' >> helmfile.yaml.gotmpl
expect_rc 0 "helmDefaults with helmfile" env PATH="$WITH" kubectl tazuna build -e dev -v 2
expect_contains "$ERR" "rendering with helmfile template" "the real helmfile rendered it"
expect_eq "$OUT" "$real" "the same objects"
expect_rc 2 "helmDefaults without helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_contains "$ERR" '"helmDefaults" needs the helmfile binary' "an unknown key is refused, naming it"
expect_contains "$ERR" 'install-helmfile' "the hint says how to install it"
cp "$E2E_TMP/helmfile.orig" helmfile.yaml.gotmpl

# extraValueFiles are read from the helmfile's directory, as the Go tool reads them.
mkdir -p sub
printf 'releases:\n  - {name: sub, namespace: %s-a, chart: ../charts/app}\n' "$ns" > sub/helmfile.yaml
printf 'color: from-sub\n' > sub/extra.yaml
cat >> tazuna.yaml <<YAML
    - name: ${m}-sub
      type: helmfile
      path: ./sub
      helmfile:
        extraValueFiles: [extra.yaml]
YAML
expect_rc 0 "extraValueFiles beside the helmfile" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_contains "$OUT" "color: from-sub" "read from the helmfile's directory"
mv sub/extra.yaml extra.yaml
expect_rc 0 "extraValueFiles where the previous version read them" env PATH="$WITHOUT" kubectl tazuna build -e dev
expect_contains "$OUT" "color: from-sub" "still read"
expect_contains "$ERR" 'extraValueFiles: "extra.yaml" is read from the helmfile'"'"'s directory' "with a warning naming the new place"
rm -r sub extra.yaml
cp "$E2E_TMP/tazuna.orig" tazuna.yaml

# Shapes of the Go tool's own fixtures: a staticSlice through toYaml | indent, a chart named charts/NAME with no
# repositories (a local path), a local chart's version, a values file inside the chart.
mkdir -p shapes/charts && cp -r charts/app shapes/charts/app
printf 'color: from-values-file\n' > shapes/charts/app/values.yaml
cat > shapes/helmfile.yaml.gotmpl <<'YAML'
releases:
  - name: shapes
    namespace: {{ .StateValues.ns }}-a
    chart: charts/app
    version: 0.1.0
    values:
      - charts/app/values.yaml
      - colors:
{{ .StateValues.colors | toYaml | indent 10 }}
        env: {{ index .StateValues.colors 1 }}-{{ len .StateValues.colors }}
YAML
cat >> tazuna.yaml <<YAML
    - name: ${m}-shapes
      type: helmfile
      path: ./shapes
      helmfile:
        vars:
          ns: { from: static, static: $ns }
          colors: { from: static, staticSlice: [red, green] }
YAML
for path in "$WITH" "$WITHOUT"; do
  expect_rc 0 "the Go tool's fixture shapes" env PATH="$path" kubectl tazuna build -e dev -m "${m}-shapes"
  expect_contains "$OUT" "env: green-2" "index and len over a staticSlice; toYaml | indent gave valid YAML"
  expect_contains "$OUT" "color: from-values-file" "charts/app is the local chart, its values file read"
done
rm -r shapes
cp "$E2E_TMP/tazuna.orig" tazuna.yaml

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
