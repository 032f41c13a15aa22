#!/usr/bin/env bash
# Real content, fetched as Go modules at pinned versions: prometheus-operator's bundle.yaml (10 CRDs of
# up to ~400 KB each) through a manifests manifest, and cert-manager's Helm chart through a helmfile
# manifest rendered by helm (no kubeVersion set: rendered for the cluster's version, without hook
# objects), plus a chart whose template branches on .Capabilities.APIVersions.Has for a CRD created
# moments before the sync. Each run is checked on the live cluster afterwards.
# Needs: Go (module download, helm build), the local control plane.
source "$(dirname "$0")/lib.sh"

PO_VERSION=v0.79.2
CM_VERSION=v1.16.2
export GOFLAGS=-mod=mod
module_dir() {  # module_dir MODULE@VERSION: prints the module's directory in the module cache
  (cd "$E2E_TMP" && go mod download -json "$1") | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])'
}
PO_DIR=$(module_dir "github.com/prometheus-operator/prometheus-operator@$PO_VERSION") || {
  echo "FAIL - cannot download prometheus-operator $PO_VERSION"; exit 1; }
CM_DIR=$(module_dir "github.com/cert-manager/cert-manager@$CM_VERSION") || {
  echo "FAIL - cannot download cert-manager $CM_VERSION"; exit 1; }
HELM=$("$REPO_DIR/scripts/lib/install-helm") || { echo "FAIL - cannot build helm"; exit 1; }
mkdir -p "$E2E_TMP/bin" && ln -sf "$HELM" "$E2E_TMP/bin/helm"
export PATH="$E2E_TMP/bin:$PATH"

state_keys() {  # state_keys MANIFEST: the object keys of the manifest's state, one per line
  kubectl get cm -n tazuna "tazuna-state-$1" -o json | python3 -c '
import json, sys
print("\n".join(sorted(k for k in json.load(sys.stdin).get("data", {}) if k != "_metadata")))'
}

# ---------------------------------------------------------------- prometheus-operator bundle
R=$E2E_TMP/po
mkdir -p "$R/bundle"
cp "$PO_DIR/bundle.yaml" "$R/bundle/" && chmod u+w "$R/bundle/bundle.yaml"
cat > "$R/tazuna.yaml" <<'EOF'
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - name: po-bundle
      type: manifests
      path: ./bundle
EOF
kubectl delete -f "$R/bundle/bundle.yaml" --ignore-not-found --wait=true >/dev/null 2>&1
kubectl delete cm -n tazuna tazuna-state-po-bundle --ignore-not-found >/dev/null 2>&1
expect_rc 0 "bundle: sync into an empty cluster" kubectl tazuna state sync -f "$R/tazuna.yaml"
expect_contains "$ERR$OUT" "15 created, 0 configured, 0 unchanged, 0 deleted, 0 kept, 0 failed" "bundle: all 15 objects created"
crds=$(kubectl get crd -o name | grep -c 'monitoring.coreos.com' || true)
expect_eq "$crds" "10" "bundle: the 10 CRDs are live"
# Nothing in the run is a custom resource of these CRDs, so the sync does not wait for them: they
# become Established on their own, moments later. kubectl wait fails at once on a CRD whose status the
# apiextensions controller has not written yet (".status.conditions accessor error"): it is asked again.
crds_established() {
  local try
  for try in $(seq 1 60); do
    # shellcheck disable=SC2046
    kubectl wait --for=condition=Established --timeout=60s $(kubectl get crd -o name | grep 'monitoring.coreos.com') \
      >/dev/null 2>"$E2E_TMP/wait.err" && return 0
    grep -q 'accessor error' "$E2E_TMP/wait.err" || { cat "$E2E_TMP/wait.err" >&2; return 1; }
    sleep 0.5
  done
  return 1
}
expect_rc 0 "bundle: the CRDs become established" crds_established

live_schema=$(kubectl get crd prometheuses.monitoring.coreos.com -o json | python3 -c '
import json, sys; v = json.load(sys.stdin)["spec"]["versions"][0]; print(len(json.dumps(v["schema"])) > 200000)')
expect_eq "$live_schema" "True" "bundle: the live CRD holds its whole schema (over 200 KB)"
expect_eq "$(kubectl get deploy -n default prometheus-operator -o jsonpath='{.metadata.labels.app\.kubernetes\.io/managed-by}')" \
  "tazuna" "bundle: the operator Deployment is live and marked"
expect_eq "$(state_keys po-bundle | wc -l | tr -d ' ')" "15" "bundle: state holds 15 objects"
expect_rc 0 "bundle: diff right after the sync" kubectl tazuna state diff -f "$R/tazuna.yaml"
expect_contains "$OUT" "No changes detected." "bundle: no false diff on huge CRDs"
expect_rc 0 "bundle: drift right after the sync" kubectl tazuna state drift -f "$R/tazuna.yaml"
uid_before=$(kubectl get crd prometheuses.monitoring.coreos.com -o jsonpath='{.metadata.uid}')
expect_rc 0 "bundle: second sync" kubectl tazuna state sync -f "$R/tazuna.yaml"
expect_contains "$ERR$OUT" "0 created, 0 configured, 15 unchanged" "bundle: second sync changes nothing"
expect_eq "$(kubectl get crd prometheuses.monitoring.coreos.com -o jsonpath='{.metadata.uid}')" "$uid_before" \
  "bundle: the CRD is the same object"
kubectl delete -f "$R/bundle/bundle.yaml" --ignore-not-found --wait=true >/dev/null 2>&1
kubectl delete cm -n tazuna tazuna-state-po-bundle --ignore-not-found >/dev/null 2>&1

# ---------------------------------------------------------------- cert-manager chart through helmfile
R=$E2E_TMP/cm
mkdir -p "$R/hf/charts"
cp -r "$CM_DIR/deploy/charts/cert-manager" "$R/hf/charts/" && chmod -R u+w "$R/hf/charts"
# The module ships Chart.template.yaml and the CRD templates apart; its release tool fills in the
# version and puts the CRDs among the chart's templates (rendered when crds.enabled).
sed -e "s/v0\.0\.0/$CM_VERSION/g" -e 's/{{IS_PRERELEASE}}/false/' \
  "$R/hf/charts/cert-manager/Chart.template.yaml" > "$R/hf/charts/cert-manager/Chart.yaml"
cp "$CM_DIR"/deploy/crds/crd-*.yaml "$R/hf/charts/cert-manager/templates/" && chmod -R u+w "$R/hf/charts"
NS=$(new_namespace cm)
cat > "$R/hf/helmfile.yaml" <<EOF
releases:
  - name: cm
    namespace: $NS
    chart: ./charts/cert-manager
    values:
      - crds: {enabled: true}
EOF
cat > "$R/tazuna.yaml" <<EOF
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - name: cm-ns
      type: manifests
      path: ./ns
    - name: cert-manager
      type: helmfile
      path: ./hf
      dependsOn: [cm-ns]
EOF
mkdir -p "$R/ns" && printf 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n' "$NS" > "$R/ns/ns.yaml"
# The chart requires kubeVersion >= 1.22: helm's own default (v1.20) refuses it, the cluster's version passes.
run "$HELM" template cm "$R/hf/charts/cert-manager" -n "$NS"
expect_contains "$ERR" "incompatible with Kubernetes" "cert-manager: helm's default Kubernetes version is refused by the chart"
expect_rc 0 "cert-manager: sync through helmfile (no kubeVersion set)" kubectl tazuna state sync -f "$R/tazuna.yaml"
expect_contains "$ERR$OUT" "0 failed" "cert-manager: every object applied"
expect_eq "$(kubectl get deploy -n "$NS" -o name | sort | tr '\n' ' ')" \
  "deployment.apps/cm-cert-manager deployment.apps/cm-cert-manager-cainjector deployment.apps/cm-cert-manager-webhook " \
  "cert-manager: its three Deployments are live"
expect_eq "$(kubectl get crd -l app.kubernetes.io/instance=cm -o name | wc -l | tr -d ' ')" "6" \
  "cert-manager: its six CRDs are live"
hooks=$(kubectl get jobs,serviceaccounts,roles,rolebindings -n "$NS" -o json | python3 -c '
import json, sys
print(sum(1 for o in json.load(sys.stdin)["items"] if "helm.sh/hook" in o["metadata"].get("annotations", {})))')
expect_eq "$hooks" "0" "cert-manager: no hook object (startupapicheck) is applied"
expect_eq "$(kubectl get jobs -n "$NS" -o name)" "" "cert-manager: no Job"
keys=$(state_keys cert-manager)
expect_not_contains "$keys" "startupapicheck" "cert-manager: state records no hook object"
rendered=$("$HELM" template cm "$R/hf/charts/cert-manager" -n "$NS" --kube-version v1.33.0 --no-hooks \
  --set crds.enabled=true | grep -c '^kind:')
expect_eq "$(echo "$keys" | wc -l | tr -d ' ')" "$rendered" "cert-manager: state holds every rendered object ($rendered)"
expect_rc 0 "cert-manager: diff right after the sync" kubectl tazuna state diff -f "$R/tazuna.yaml"
expect_contains "$OUT" "No changes detected." "cert-manager: no false diff"
# build without a cluster renders the chart for the Kubernetes this plugin is built against, not helm's
# default (which the chart refuses, above); with one, for the cluster's: the same objects here.
expect_rc 0 "cert-manager: build offline (no kubeconfig)" env KUBECONFIG="$E2E_TMP/none" kubectl tazuna build -f "$R/tazuna.yaml" -v 2
offline=$OUT
expect_contains "$ERR" "no cluster" "cert-manager: build says why it renders offline (-v 2)"
expect_eq "$(printf '%s\n' "$offline" | grep -c '^kind: Deployment')" "3" "cert-manager: its three Deployments rendered offline"
expect_eq "$(printf '%s\n' "$offline" | grep -c '^kind:')" "$((rendered + 1))" \
  "cert-manager: every object rendered offline (the chart's $rendered and the Namespace)"
expect_rc 0 "cert-manager: build against an unreachable server" kubectl tazuna build -f "$R/tazuna.yaml" -s https://127.0.0.1:1
expect_eq "$OUT" "$offline" "cert-manager: an unreachable cluster renders as offline"
expect_rc 0 "cert-manager: build with the cluster" kubectl tazuna build -f "$R/tazuna.yaml"
expect_eq "$OUT" "$offline" "cert-manager: the cluster's build is the same objects"

# ---------------------------------------------------------------- .Capabilities from the cluster
R=$E2E_TMP/caps
GROUP=caps$RANDOM.tazuna.dev
mkdir -p "$R/hf/chart/templates"
printf 'apiVersion: v2\nname: caps\nversion: 0.1.0\n' > "$R/hf/chart/Chart.yaml"
cat > "$R/hf/chart/templates/cm.yaml" <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: caps-probe
data:
  branch: {{ if .Capabilities.APIVersions.Has "$GROUP/v1" }}cluster{{ else }}default{{ end }}
  kind: {{ if .Capabilities.APIVersions.Has "$GROUP/v1/Gadget" }}cluster{{ else }}default{{ end }}
  kube: {{ .Capabilities.KubeVersion.Version | quote }}
EOF
NS2=$(new_namespace caps)
kubectl create namespace "$NS2" >/dev/null
printf 'releases:\n  - {name: caps, namespace: %s, chart: ./chart}\n' "$NS2" > "$R/hf/helmfile.yaml"
cat > "$R/tazuna.yaml" <<'EOF'
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - name: caps
      type: helmfile
      path: ./hf
      helmfile:
        defaultNamespace: NS2
EOF
sed -i "s/NS2/$NS2/" "$R/tazuna.yaml"
# A diff first fills the discovery cache without the group; the CRD comes after it.
expect_rc 1 "caps: diff before the CRD exists" kubectl tazuna state diff -f "$R/tazuna.yaml"
kubectl apply -f - >/dev/null <<EOF
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.$GROUP
spec:
  group: $GROUP
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
    - name: v1
      served: true
      storage: true
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
EOF
kubectl wait --for=condition=Established "crd/gadgets.$GROUP" --timeout=30s >/dev/null
expect_rc 0 "caps: sync after the CRD was created" kubectl tazuna state sync -f "$R/tazuna.yaml"
expect_eq "$(kubectl get cm -n "$NS2" caps-probe -o jsonpath='{.data.branch}')" "cluster" \
  "caps: .Capabilities.APIVersions.Has takes the cluster's branch for the CRD's GroupVersion"
expect_eq "$(kubectl get cm -n "$NS2" caps-probe -o jsonpath='{.data.kind}')" "cluster" \
  "caps: ... and for its GroupVersion/Kind"
server_version=$(kubectl version -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["serverVersion"]["gitVersion"])')
expect_eq "$(kubectl get cm -n "$NS2" caps-probe -o jsonpath='{.data.kube}')" "$server_version" \
  "caps: .Capabilities.KubeVersion is the cluster's"
# build renders for the cluster the kubeconfig reaches (as sync does), else for its own Kubernetes version.
expect_rc 0 "caps: build with the cluster" kubectl tazuna build -f "$R/tazuna.yaml"
expect_contains "$OUT" "branch: cluster" "caps: build takes the cluster's APIs"
expect_rc 0 "caps: build offline" env KUBECONFIG="$E2E_TMP/none" kubectl tazuna build -f "$R/tazuna.yaml"
expect_contains "$OUT" "branch: default" "caps: offline, helm's default APIs"
built_for=$(kubectl tazuna build --help | grep -o 'Kubernetes v[0-9.]*' | head -1)
expect_eq "$built_for" "Kubernetes v$(sed -n 's/.*k8s.io\/kubernetes v\([0-9.]*\).*/\1/p' "$REPO_DIR/scripts/k8s/go.mod")" \
  "build --help names the Kubernetes version of scripts/k8s"
expect_contains "$OUT" "kube: ${built_for#Kubernetes }" "caps: offline, .Capabilities.KubeVersion is that version"

kubectl delete crd "gadgets.$GROUP" --wait=false >/dev/null 2>&1
kubectl delete namespace "$NS" "$NS2" --wait=false >/dev/null 2>&1
kubectl delete crd -l app.kubernetes.io/instance=cm --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna tazuna-state-caps tazuna-state-cert-manager tazuna-state-cm-ns --ignore-not-found >/dev/null 2>&1
finish
