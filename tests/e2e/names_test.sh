#!/usr/bin/env bash
# Names that fit: a manifest name that cannot name its state ConfigMap, and rendered objects without
# apiVersion or metadata.name, fail build, state diff and state sync before any request, with one line
# naming the rule (or the manifest, file and document), and nothing is written to the cluster.
source "$(dirname "$0")/lib.sh"

sfx=$(date +%s%N | tail -c 6)$RANDOM
m=names$sfx
ns=$(new_namespace names)
repo=$E2E_TMP/repo
mkdir -p "$repo/objs"
cat > "$repo/objs/00-ns.yaml" <<EOF
apiVersion: v1
kind: Namespace
metadata: {name: $ns}
EOF
good_cm="apiVersion: v1
kind: ConfigMap
metadata: {name: cm-$sfx, namespace: $ns}
data: {a: \"1\"}"
printf '%s\n' "$good_cm" > "$repo/objs/10-cm.yaml"
cd "$repo"

# write_manifest NAME: a tazuna.yaml with one manifest of type manifests over ./objs.
write_manifest() {
  cat > tazuna.yaml <<EOF
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - name: $1
      type: manifests
      path: ./objs
EOF
}

# nothing_written DESC: the namespace, the ConfigMap and the state of $m do not exist.
nothing_written() {
  expect_rc 1 "$1: namespace $ns not created" kubectl get namespace "$ns"
  expect_rc 1 "$1: no state ConfigMap for $m" kubectl get configmap -n tazuna "tazuna-state-$m"
}

# --- a manifest name that cannot name its state ConfigMap: an error at load, before any request ---
write_manifest Web_App
rule='error: tazuna.yaml:5:13: spec.manifests[0].name: "Web_App" cannot name its state ConfigMap "tazuna-state-Web_App": use lowercase letters, digits and '"'-'"', ending in a letter or digit (at most 227 characters)'
expect_rc 2 "Web_App: build fails" kubectl tazuna build
expect_eq "$ERR" "$rule" "Web_App: build names position and rule"
expect_eq "$OUT" "" "Web_App: build prints nothing"
expect_rc 2 "Web_App: state diff fails" kubectl tazuna state diff
expect_eq "$ERR" "$rule" "Web_App: diff names position and rule"
expect_rc 2 "Web_App: state sync fails" kubectl tazuna state sync
expect_eq "$ERR" "$rule" "Web_App: sync names position and rule"
expect_eq "$OUT" "" "Web_App: sync prints nothing"
expect_rc 2 "Web_App: state sync -v 6" kubectl tazuna state sync -v 6
expect_not_contains "$ERR" "https://" "Web_App: sync sends no request"
state_cms=$(kubectl get configmap -n tazuna -o name 2>/dev/null | grep -ci 'tazuna-state-web[_-]app$')
expect_eq "$state_cms" "0" "Web_App: namespace tazuna gained no tazuna-state-Web_App"
expect_rc 1 "Web_App: namespace $ns not created" kubectl get namespace "$ns"

# render_fails DESC WANT: build (1), state diff (2) and state sync (1) fail with exactly WANT and write nothing.
render_fails() {
  local desc=$1 want=$2
  expect_rc 2 "$desc: build fails" kubectl tazuna build
  expect_eq "$ERR" "$want" "$desc: build names manifest, file and document"
  expect_eq "$OUT" "" "$desc: build prints nothing"
  expect_rc 2 "$desc: state diff fails" kubectl tazuna state diff
  expect_eq "$ERR" "$want" "$desc: diff names manifest, file and document"
  expect_rc 2 "$desc: state sync fails" kubectl tazuna state sync
  expect_eq "$ERR" "$want" "$desc: sync names manifest, file and document"
  expect_eq "$OUT" "" "$desc: sync prints nothing"
  expect_rc 2 "$desc: state sync -v 6" kubectl tazuna state sync -v 6
  expect_not_contains "$ERR" "https://" "$desc: sync sends no request"
  nothing_written "$desc"
}

write_manifest "$m"
printf '%s\n---\nkind: ConfigMap\nmetadata: {name: no-api-%s, namespace: %s}\n' "$good_cm" "$sfx" "$ns" > objs/10-cm.yaml
render_fails "no apiVersion" \
  "error: manifest \"$m\": objs/10-cm.yaml: document 2 (kind ConfigMap): missing apiVersion"
expect_rc 1 "no apiVersion: object not created" kubectl get configmap -n "$ns" "no-api-$sfx"

printf '%s\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {namespace: %s}\n' "$good_cm" "$ns" > objs/10-cm.yaml
render_fails "no metadata.name" \
  "error: manifest \"$m\": objs/10-cm.yaml: document 2 (kind ConfigMap): missing metadata.name"

printf 'apiVersion: v1\nkind: List\nitems:\n  - {apiVersion: v1, kind: ConfigMap, metadata: {name: item-%s, namespace: %s}}\n  - {apiVersion: v1, kind: Secret, metadata: {generateName: s-, namespace: %s}}\n' \
  "$sfx" "$ns" "$ns" > objs/10-cm.yaml
render_fails "List item without metadata.name" \
  "error: manifest \"$m\": objs/10-cm.yaml: document 1 (kind List): item 2 (kind Secret): missing metadata.name"

# The same repository with every document whole syncs, so the failures above came from the checks.
printf '%s\n' "$good_cm" > objs/10-cm.yaml
expect_rc 0 "whole documents sync" kubectl tazuna state sync
expect_rc 0 "synced ConfigMap exists" kubectl get configmap -n "$ns" "cm-$sfx"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete configmap -n tazuna "tazuna-state-$m" >/dev/null 2>&1
finish
