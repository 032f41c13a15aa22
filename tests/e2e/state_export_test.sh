#!/usr/bin/env bash
# state export against the local control plane: the fields tazuna's field manager owns of a manifest's live
# objects, as YAML a manifest can hold again. Round trips: sync, export, replace the manifest's files with the
# export, `state diff` is clean, on examples/platform (a kustomize manifest among plain ones, a CRD and its
# custom resource) and on cert-manager's Helm chart (a real chart: Deployments, RBAC, webhooks, Services).
# Secrets are left out with a comment (no value reaches stdout); a gone object is named and exits 1; fields
# another writer took are not tazuna's any more.
# --live exports objects made by kubectl and a custom resource (by its short name) for onboarding: applying it
# changes nothing and tazuna adopts it.
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

# --- 4. Onboarding: --live exports objects tazuna does not manage, made by kubectl apply (client- and server-side),
# kubectl create and a custom resource named by its CRD's short name: what their appliers set, without status,
# server defaults or kubectl's bookkeeping, such that applying the export changes no value (kubectl diff
# --server-side is clean), and tazuna adopts it as a manifest with a clean diff after.
lns=$(new_namespace lv); kubectl create namespace "$lns" >/dev/null
g=lv$s.example.com
crd_doc widgets "$g" Widget Namespaced v1:true:true | sed "s/kind: Widget}/kind: Widget, shortNames: [wdg$s]}/" | kubectl apply -f - >/dev/null
established "widgets.$g"
{ deployment_doc web "$lns" registry.example/web:1
  printf 'apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: %s, labels: {app: web}}\nspec:\n  selector: {app: web}\n  ports: [{name: http, port: 80, targetPort: 8080}]\n---\n' "$lns"
  cm_doc cfg "$lns" '{mode: "fast"}'
  printf 'apiVersion: %s/v1\nkind: Widget\nmetadata: {name: w1, namespace: %s}\nspec: {size: 3}\n' "$g" "$lns"; } > "$E2E_TMP/made.yaml"
kubectl apply -f "$E2E_TMP/made.yaml" >/dev/null
kubectl create configmap made -n "$lns" --from-literal=a=1 >/dev/null
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ssa, namespace: %s}\ndata: {b: "2"}\n' "$lns" |
  kubectl apply --server-side --field-manager=platform-team -f - >/dev/null
kubectl create secret generic pw -n "$lns" --from-literal=password="hunter3-e2e-$s" >/dev/null
poll_until bash -c "kubectl get deploy web -n $lns -o jsonpath='{.status.readyReplicas}' | grep -q 1"
expect_rc 1 "--live: export objects made by others (a Secret left out: exit 1)" \
  kubectl tazuna state export --live deploy/web service/web cm/cfg configmaps/made ConfigMap/ssa "wdg$s/w1" secret/pw -n "$lns"
printf '%s\n' "$OUT" > "$E2E_TMP/live.yaml"
no_noise "$E2E_TMP/live.yaml" "--live"
expect_contains "$ERR" "Secret $lns/pw left out: tazuna never prints Secret values" "the Secret is named"
expect_not_contains "$OUT$ERR" "hunter3" "its value is nowhere"
for f in last-applied-configuration progressDeadlineSeconds revisionHistoryLimit terminationMessagePath clusterIP \
  sessionAffinity dnsPolicy readyReplicas; do
  expect_not_contains "$OUT" "$f" "--live: no $f (a server default, controller field or bookkeeping)"
done
expect_contains "$OUT" "image: registry.example/web:1" "the Deployment as applied"
expect_contains "$OUT" "targetPort: 8080" "the Service as applied"
expect_contains "$OUT" "kind: Widget" "the custom resource, by its short name"
expect_contains "$OUT" "b: \"2\"" "the server-side applied ConfigMap"
expect_contains "$OUT" "a: \"1\"" "the ConfigMap kubectl create made"
grep -v '^#' "$E2E_TMP/live.yaml" > "$E2E_TMP/live-objs.yaml"
expect_rc 0 "applying the export changes no value (kubectl diff --server-side)" \
  kubectl diff --server-side --force-conflicts --field-manager=onboard -f "$E2E_TMP/live-objs.yaml"
R=$E2E_TMP/onboard; one_manifest "$R" "onboard$s"; cp "$E2E_TMP/live-objs.yaml" "$R/objs/objects.yaml"
cd "$R"
expect_rc 0 "tazuna adopts the export" kubectl tazuna state sync
expect_eq "$(grep -c ' adopted' <<<"$OUT")" "6" "every object adopted"
expect_rc 0 "and its diff is clean after" kubectl tazuna state diff
expect_rc 2 "--live with an unknown type" kubectl tazuna state export --live "nosuchtype$s/x"
expect_contains "$ERR" "the server doesn't have a resource type \"nosuchtype$s\"" "in kubectl's words"
expect_rc 2 "--live needs TYPE/NAME" kubectl tazuna state export --live web
expect_contains "$ERR" "use TYPE/NAME" "says so"
kubectl tazuna state delete -m "onboard$s" >/dev/null 2>&1

kubectl delete namespace "$ns" "$NS" "$lns" --wait=false >/dev/null 2>&1
finish
