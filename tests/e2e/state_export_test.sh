#!/usr/bin/env bash
# state export against the local control plane: the fields tazuna's field manager owns of a manifest's live
# objects, as YAML a manifest can hold again. Round trips: sync, export, replace the manifest's files with the
# export, `state diff` is clean, on examples/platform (a kustomize manifest among plain ones, a CRD and its
# custom resource) and on cert-manager's Helm chart (a real chart: Deployments, RBAC, webhooks, Services).
# Secrets are left out with a comment (no value reaches stdout); a gone object is named and exits 1; fields
# another writer took are not tazuna's any more.
# Needs: Go (module download, helm build), the local control plane.
source "$(dirname "$0")/lib.sh"

CM_VERSION=v1.16.2
export GOFLAGS=-mod=mod
s=$RANDOM

no_noise() {  # no_noise FILE DESC: nothing of the server's or of tazuna's marks in an export
  local f
  for f in managedFields resourceVersion uid: creationTimestamp 'status:' 'app.kubernetes.io/managed-by: tazuna' \
    tazuna.pepabo.com/ applyset.kubernetes.io/part-of; do
    if grep -q -- "$f" "$1"; then fail "$2: export holds '$f'"; grep -n -- "$f" "$1" | head -3; return; fi
  done
  pass "$2: no server fields, status or tazuna marks"
}

# --- 1. examples/platform: sync, export each manifest, replace its files, diff is clean.
R=$E2E_TMP/platform
cp -r "$REPO_DIR/examples/platform" "$R"
# Names of its own, so the case runs beside the demo and other tests.
sed -i "s/- name: \(namespaces\|crds\|monitoring\|apps\)$/- name: \1-x$s/; s/dependsOn: \[namespaces\]/dependsOn: [namespaces-x$s]/; s/dependsOn: \[namespaces, crds\]/dependsOn: [namespaces-x$s, crds-x$s]/" "$R/tazuna.yaml"
grep -rl demo "$R" | xargs sed -i "s/demo-apps/demo-apps-x$s/g; s/demo-monitoring/demo-mon-x$s/g; s/demo\.tazuna\.io/x$s.demo.tazuna.io/g"
cd "$R"
expect_rc 0 "platform: sync" kubectl tazuna state sync
for m in namespaces crds monitoring apps; do
  expect_rc 0 "platform: export $m" kubectl tazuna state export -m "$m-x$s"
  printf '%s\n' "$OUT" > "$E2E_TMP/$m.yaml"
done
no_noise "$E2E_TMP/apps.yaml" "platform apps"
expect_contains "$(cat "$E2E_TMP/apps.yaml")" "image: registry.example/web:1.0.0" "the Deployment's image"
expect_contains "$(cat "$E2E_TMP/apps.yaml")" "kind: Widget" "the custom resource"
rm -rf namespaces/* crds/* monitoring/* apps
mkdir -p apps/base
for m in namespaces crds monitoring; do cp "$E2E_TMP/$m.yaml" "$m/export.yaml"; done
cp "$E2E_TMP/apps.yaml" apps/base/export.yaml
python3 - <<'EOF'
import re
s = open('tazuna.yaml').read()
s = re.sub(r"type: kustomize\n      path: ./apps/base\n      kustomize:\n        defaultNamespace: \S+", "type: manifests\n      path: ./apps/base", s)
open('tazuna.yaml', 'w').write(s)
EOF
expect_rc 0 "platform: state diff of the exports is clean" kubectl tazuna state diff --no-render-cache
expect_contains "$OUT" "No changes detected." "no change"
expect_rc 0 "platform: a sync of the exports changes nothing" kubectl tazuna state sync --no-render-cache
expect_not_contains "$OUT" "configured" "nothing configured"
expect_not_contains "$OUT" "created" "nothing created"

# --- 2. A real chart: cert-manager rendered by helm into plain files, synced, exported, round trip.
module_dir() { (cd "$E2E_TMP" && go mod download -json "$1") | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])'; }
CM_DIR=$(module_dir "github.com/cert-manager/cert-manager@$CM_VERSION") || { echo "FAIL - cannot download cert-manager"; exit 1; }
HELM=$("$REPO_DIR/scripts/lib/install-helm") || { echo "FAIL - cannot build helm"; exit 1; }
R=$E2E_TMP/cm; mkdir -p "$R/chart" "$R/objs"
cp -r "$CM_DIR/deploy/charts/cert-manager" "$R/chart/" && chmod -R u+w "$R/chart"
sed -e "s/v0\.0\.0/$CM_VERSION/g" -e 's/{{IS_PRERELEASE}}/false/' \
  "$R/chart/cert-manager/Chart.template.yaml" > "$R/chart/cert-manager/Chart.yaml"
NS=$(new_namespace cmx)
kubectl create namespace "$NS" >/dev/null
"$HELM" template "cmx$s" "$R/chart/cert-manager" -n "$NS" --kube-version 1.33.0 > "$R/objs/chart.yaml" \
  || fail "helm template"
tazuna_yaml "$R" "{name: cmx$s, type: manifests, path: ./objs}"
cd "$R"
expect_rc 0 "cert-manager: sync" kubectl tazuna state sync
objects=$(grep -c '^kind:' "$R/objs/chart.yaml")
expect_rc 0 "cert-manager: export" kubectl tazuna state export -m "cmx$s"
printf '%s\n' "$OUT" > "$E2E_TMP/cm.yaml"
expect_eq "$(grep -c '^kind:' "$E2E_TMP/cm.yaml")" "$objects" "every object exported ($objects)"
no_noise "$E2E_TMP/cm.yaml" "cert-manager"
cp "$E2E_TMP/cm.yaml" "$R/objs/chart.yaml"
expect_rc 0 "cert-manager: state diff of the export is clean" kubectl tazuna state diff --no-render-cache
expect_contains "$OUT" "No changes detected." "no change"
expect_rc 0 "-o json: a List" kubectl tazuna state export -m "cmx$s" -o json
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["kind"], len(d["items"]))')" "List $objects" "List of every object"

# --- 3. A Secret is left out, value unseen; an object deleted by hand is named, exit 1; a field another writer
# took is no longer tazuna's; a manifest no longer in tazuna.yaml exports; one without state is an error.
R=$E2E_TMP/mixed; mkdir -p "$R/a"
ns=$(new_namespace ex); kubectl create namespace "$ns" >/dev/null
{ cm_doc keep "$ns" '{a: "1", b: "2"}'; cm_doc gone "$ns"
  printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: pw, namespace: %s}\nstringData: {password: hunter2-e2e-%s}\n' "$ns" "$s"; } > "$R/a/objs.yaml"
tazuna_yaml "$R" "{name: mixed$s, type: manifests, path: ./a}"
cd "$R"
expect_rc 0 "mixed: sync" kubectl tazuna state sync
kubectl delete cm gone -n "$ns" >/dev/null
kubectl patch cm keep -n "$ns" --field-manager=kubectl-edit --type=merge -p '{"data":{"b":"edited"}}' >/dev/null
tazuna_yaml "$R" "{name: other$s, type: manifests, path: ./a}"
expect_rc 1 "mixed: export with an object gone (manifest no longer in tazuna.yaml)" kubectl tazuna state export -m "mixed$s"
expect_contains "$ERR" "ConfigMap $ns/gone left out: not found" "names the gone object"
expect_contains "$ERR" "Secret $ns/pw left out: tazuna never prints Secret values" "names the Secret"
expect_contains "$OUT" "# mixed$s: Secret $ns/pw left out" "a comment in its place"
expect_not_contains "$OUT$ERR" "hunter2" "the Secret's value is nowhere"
expect_contains "$OUT" 'a: "1"' "the field tazuna owns"
expect_not_contains "$OUT" "edited" "the field kubectl-edit took is not tazuna's"
expect_contains "$ERR" "mixed$s: 1 object differs from what tazuna applied (the hash in its state): ConfigMap $ns/keep" \
  "says the export is not what was applied"
expect_rc 2 "no state" kubectl tazuna state export -m "nosuch$s"
expect_contains "$ERR" "error: manifest \"nosuch$s\" has no state" "one error line"
expect_rc 2 "-m is required" kubectl tazuna state export
expect_contains "$ERR" "needs -m" "says so"
expect_rc 2 "-o table is refused" kubectl tazuna state export -m "mixed$s" -o table

kubectl delete namespace "$ns" "$NS" --wait=false >/dev/null 2>&1
finish
