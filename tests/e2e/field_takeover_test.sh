#!/usr/bin/env bash
# Adopted objects converge (issue 30): objects made by `kubectl apply` (client-side and server-side),
# `kubectl create`, helm, the Go tazuna's Update and before managedFields existed are adopted; when the manifest then
# drops a data key, a label, an annotation and a container env var, the sync removes them from the live
# object, while fields another manager wrote through Update (a controller's data key, replicas set
# through the scale subresource) stay. Every case runs side by side with `kubectl apply --server-side`
# on a twin object. Also: drift, diff --show-changes and --dry-run=server show the removal first; a
# field an earlier tool set that the manifest never did is a live-leftover; and the request cost.
# Needs: helm (built by scripts/lib/install-helm). Takes about 40 s.
source "$(dirname "$0")/lib.sh"
HELM=$("$REPO_DIR/scripts/lib/install-helm") || { echo "FAIL - cannot build helm"; exit 1; }

s=$RANDOM
ns=$(new_namespace tk)
kubectl create namespace "$ns" >/dev/null
M=tk$s
repo=$E2E_TMP/repo
mkdir -p "$repo/objs" "$repo/orig" "$repo/kube"
printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n    - {name: %s, type: manifests, path: ./objs}\n' \
  "$M" > "$repo/tazuna.yaml"

# cm NAME VERSION: orig (what the earlier tool made), v1 (the manifest that adopts it: also the data key
# a controller wrote), v2 (v1 without data.b, label old, annotation example.com/note and data.ctl).
cm() {
  local v=$2 labels='keep: "1", old: "1"' ann='example.com/keep: "1", example.com/note: "1"'
  local data=$'  a: "1"\n  b: "2"\n'
  [ "$v" = v1 ] && data+=$'  ctl: "on"\n'
  [ "$v" = v2 ] && { labels='keep: "1"'; ann='example.com/keep: "1"'; data=$'  a: "1"\n'; }
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: %s\n  labels: {%s}\n  annotations: {%s}\ndata:\n%s' \
    "$1" "$ns" "$labels" "$ann" "$data"
}
# deploy NAME VERSION: orig has no replicas (a scaler owns them), v1 says the scaler's 3, v2 drops them,
# the label old and the env var OLD.
deploy() {
  local v=$2 labels='keep: "1", old: "1"' replicas='' env=$'        - {name: KEEP, value: "1"}\n        - {name: OLD, value: "1"}\n'
  [ "$v" = v1 ] && replicas='  replicas: 3'
  [ "$v" = v2 ] && { labels='keep: "1"'; env=$'        - {name: KEEP, value: "1"}\n'; }
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  namespace: %s\n  labels: {%s}\nspec:\n%s\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec:\n      containers:\n      - name: app\n        image: registry.example/app:1\n        env:\n%s' \
    "$1" "$ns" "$labels" "$replicas" "$1" "$1" "$env"
}
both() { cm "$1" "$2"; echo ---; deploy "$1" "$2"; }

# A local chart rendering the same two objects; --set v=v2 renders v2.
chart=$E2E_TMP/chart
mkdir -p "$chart/templates"
printf 'apiVersion: v2\nname: tk\nversion: 0.1.0\n' > "$chart/Chart.yaml"
printf 'v: orig\n' > "$chart/values.yaml"
cat > "$chart/templates/objs.yaml" <<'EOF'
{{- $v := .Values.v }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Release.Name }}
  namespace: {{ .Release.Namespace }}
  labels: {keep: "1"{{ if ne $v "v2" }}, old: "1"{{ end }}, app.kubernetes.io/managed-by: {{ .Release.Service }}}
  annotations: {example.com/keep: "1"{{ if ne $v "v2" }}, example.com/note: "1"{{ end }}}
data:
  a: "1"
{{- if ne $v "v2" }}
  b: "2"
{{- end }}
{{- if eq $v "v1" }}
  ctl: "on"
{{- end }}
---
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
  namespace: {{ .Release.Namespace }}
  labels: {keep: "1"{{ if ne $v "v2" }}, old: "1"{{ end }}}
spec:
{{- if eq $v "v1" }}
  replicas: 3
{{- end }}
  selector: {matchLabels: {app: {{ .Release.Name }}}}
  template:
    metadata: {labels: {app: {{ .Release.Name }}}}
    spec:
      containers:
      - name: app
        image: registry.example/app:1
        env:
        - {name: KEEP, value: "1"}
{{- if ne $v "v2" }}
        - {name: OLD, value: "1"}
{{- end }}
EOF
helm_render() { "$HELM" template "$1" "$chart" -n "$ns" --set "v=$2"; }

# --- The earlier tools make the objects: t-* for tazuna, k-* for kubectl apply --server-side.
for who in t k; do
  both "$who-apply" orig > "$repo/orig/$who-apply.yaml"
  kubectl apply -f "$repo/orig/$who-apply.yaml" >/dev/null
  both "$who-create" orig > "$repo/orig/$who-create.yaml"
  kubectl create -f "$repo/orig/$who-create.yaml" >/dev/null
  "$HELM" install "$who-helm" "$chart" -n "$ns" >/dev/null || fail "helm install $who-helm"
  cm "$who-ssa" orig | kubectl apply --server-side -f - >/dev/null  # field manager kubectl, Apply
  # Made before managedFields were tracked: the first server-side apply gives them to before-first-apply.
  cm "$who-bfa" orig > "$repo/orig/$who-bfa.yaml"
  kubectl apply -f "$repo/orig/$who-bfa.yaml" >/dev/null
  kubectl patch cm -n "$ns" "$who-bfa" --type=json -p '[{"op":"replace","path":"/metadata/managedFields","value":[{}]}]' >/dev/null
done
makers="apply create helm"
cm t-gotool orig > "$repo/orig/t-gotool.yaml"
kubectl create --field-manager=tazuna -f "$repo/orig/t-gotool.yaml" >/dev/null  # the Go tool's Update
# Then a controller writes a data key and a scaler the replicas, each through Update under its own name
# (to the objects made before managedFields after their first apply, which must be the first write).
controller() { kubectl patch cm -n "$ns" "$1" --field-manager=my-controller --type=merge -p '{"data":{"ctl":"on"}}' >/dev/null; }
for who in t k; do
  for m in $makers; do
    controller "$who-$m"
    kubectl patch deploy -n "$ns" "$who-$m" --subresource=scale --field-manager=my-scaler --type=merge \
      -p '{"spec":{"replicas":3}}' >/dev/null
  done
done
controller t-gotool
controller t-ssa
controller k-ssa
# A field kubectl set that the tazuna manifest never does: a leftover no sync removes.
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t-left, namespace: %s}\ndata: {a: "1", extra: "x"}\n' "$ns" \
  > "$repo/orig/t-left.yaml"
kubectl apply -f "$repo/orig/t-left.yaml" >/dev/null
# A Secret kubectl made from literals, adopted by a manifest that says stringData (written to data).
kubectl create secret generic t-secret -n "$ns" --from-literal=user=u >/dev/null

write_manifests() {  # write_manifests VERSION: the tazuna manifest and kubectl's files
  rm -f "$repo/objs/"*.yaml "$repo/kube/"*.yaml
  for m in apply create; do
    both "t-$m" "$1" > "$repo/objs/t-$m.yaml"
    both "k-$m" "$1" > "$repo/kube/k-$m.yaml"
  done
  helm_render t-helm "$1" > "$repo/objs/t-helm.yaml"
  helm_render k-helm "$1" > "$repo/kube/k-helm.yaml"
  # Before managedFields, no controller's key can be told apart: before-first-apply owns all.
  cm t-bfa "$1" | sed '/ctl:/d' > "$repo/objs/t-bfa.yaml"
  cm k-bfa "$1" | sed '/ctl:/d' > "$repo/kube/k-bfa.yaml"
  cm t-gotool "$1" > "$repo/objs/t-gotool.yaml"
  cm t-ssa "$1" > "$repo/objs/t-ssa.yaml"
  cm k-ssa "$1" > "$repo/kube/k-ssa.yaml"
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: t-left, namespace: %s}\ndata: {a: "1"}\n' "$ns" > "$repo/objs/t-left.yaml"
  printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: t-secret, namespace: %s}\nstringData: {user: u}\n' "$ns" \
    > "$repo/objs/t-secret.yaml"
}
get() { kubectl get -n "$ns" "$@" 2>&1; }
# owns KIND NAME MANAGER[:OPERATION] FIELD...: "yes" when the manager's entry (no subresource) holds
# f:FIELD/...
owns() {
  local kind=$1 name=$2 manager=$3; shift 3
  kubectl get -n "$ns" "$kind" "$name" -o json --show-managed-fields | python3 -c '
import json, sys
manager, _, op = sys.argv[1].partition(":")
path = sys.argv[2:]
for e in json.load(sys.stdin)["metadata"].get("managedFields", []):
    if e.get("manager") != manager or e.get("subresource") or (op and e.get("operation") != op): continue
    node = e.get("fieldsV1", {})
    for p in path: node = node.get(p if p.startswith("k:") else "f:" + p) if isinstance(node, dict) else None
    if node is not None: print("yes"); sys.exit()
print("no")' "$manager" "$@"
}

# --- 1. Adoption: tazuna takes over what the earlier tools share with its manifest.
write_manifests v1
cd "$repo"
expect_rc 0 "sync adopts the objects of every tool" kubectl tazuna state sync
expect_contains "$OUT" "configmap/t-apply -n $ns adopted (was managed by kubectl-client-side-apply, my-controller)" "kubectl apply's"
expect_contains "$OUT" "deployment.apps/t-create -n $ns adopted (was managed by my-scaler, kubectl-create" "kubectl create's"
expect_contains "$OUT" "configmap/t-helm -n $ns adopted (was managed by helm, my-controller)" "helm's"
expect_contains "$OUT" "configmap/t-bfa -n $ns adopted"$'\n' "an object without managedFields: adopted, no managers named"
expect_eq "$(owns cm t-apply kubectl-client-side-apply data b) $(owns cm t-apply tazuna data b)" "no yes" \
  "on adoption, data.b moves from kubectl-client-side-apply to tazuna"
expect_eq "$(owns deploy t-helm helm spec template spec containers 'k:{"name":"app"}' env 'k:{"name":"OLD"}') $(owns deploy t-helm helm spec template spec containers 'k:{"name":"app"}' terminationMessagePath)" \
  "no yes" "helm's env var moves to tazuna; the defaults helm's create set stay helm's"
expect_eq "$(owns cm t-gotool tazuna:Update data b) $(owns cm t-gotool tazuna:Apply data b)" "no yes" \
  "the Go tool's Update entry gives its fields to tazuna's Apply entry"
expect_eq "$(owns cm t-bfa before-first-apply data b) $(owns cm t-bfa tazuna data b)" "no yes" \
  "an object made before managedFields: before-first-apply's fields move too"
expect_eq "$(owns cm t-apply my-controller data ctl)" "yes" "the controller keeps its data key"
expect_eq "$(owns cm t-apply kubectl-client-side-apply metadata annotations kubectl.kubernetes.io/last-applied-configuration)" \
  "yes" "kubectl's last-applied-configuration stays kubectl's"
for f in "$repo"/kube/*.yaml; do kubectl apply --server-side -f "$f" >/dev/null || fail "kubectl apply --server-side $f"; done
expect_rc 1 "drift after adoption: only the leftover" kubectl tazuna state drift -o wide
expect_eq "$(echo "$OUT" | awk 'NR>1 {print $2, $6, $NF}')" "live-leftover t-left data.extra" \
  "a field kubectl set that the manifest never did is a live-leftover; defaults, bookkeeping and a Secret's stringData are not"
expect_eq "$(get cm t-left -o jsonpath='{.data.extra}')" "x" "and no sync removes it"

# --- 2. The manifest drops a data key, a label, an annotation, an env var (and the controller's key).
write_manifests v2
expect_rc 1 "drift before the sync" kubectl tazuna state drift
expect_contains "$(echo "$OUT" | awk '{print $2, $4, $6}')" "live-drifted ConfigMap t-apply" "the objects are live-drifted"
expect_rc 1 "diff --show-changes" kubectl tazuna state diff --show-changes
expect_contains "$OUT" $'-  b: "2"' "the diff shows data.b removed"
expect_contains "$OUT" $'-        - name: OLD' "and the env var"
expect_not_contains "$OUT" '-  ctl: ' "but not the controller's key"
expect_rc 0 "sync v2" kubectl tazuna state sync
for f in "$repo"/kube/*.yaml; do kubectl apply --server-side -f "$f" >/dev/null || fail "kubectl apply --server-side $f"; done

cm_state() { get cm "$1" -o jsonpath='{.data.a} {.data.b} {.data.ctl} {.metadata.labels.keep} {.metadata.labels.old} {.metadata.annotations.example\.com/keep} {.metadata.annotations.example\.com/note}'; }
deploy_state() { get deploy "$1" -o jsonpath='{.spec.replicas} {.metadata.labels.keep} {.metadata.labels.old} {.spec.template.spec.containers[0].env[*].name}'; }
converged_cm='1  on 1  1 '        # a, no b, the controller's ctl, keep, no old, keep, no note
converged_deploy='3 1  KEEP'     # the scaler's replicas, keep, no old, env KEEP only
for m in $makers gotool ssa; do
  expect_eq "$(cm_state "t-$m")" "$converged_cm" "$m: tazuna removed data.b, label old, annotation note; kept the controller's key"
done
expect_eq "$(cm_state t-bfa) $(cm_state k-bfa)" '1   1  1  1   1  1 ' "bfa: tazuna and kubectl apply --server-side remove the same"
for m in $makers; do
  expect_eq "$(deploy_state "t-$m")" "$converged_deploy" "$m: tazuna removed label old and env OLD; kept the scaler's replicas"
done
# kubectl apply --server-side migrates only the managers that own last-applied-configuration (client-side apply):
# it converges for kubectl apply (and before-first-apply) objects, and keeps what kubectl create and helm set.
for m in apply ssa; do
  expect_eq "$(cm_state "k-$m")" "$converged_cm" "$m: kubectl apply --server-side converges the same"
done
expect_eq "$(deploy_state k-apply)" "$converged_deploy" "apply: the same for the Deployment"
for m in create helm; do
  expect_eq "$(cm_state "k-$m")" '1 2 on 1 1 1 1' "$m: kubectl apply --server-side keeps them (tazuna is better here)"
  expect_eq "$(deploy_state "k-$m")" '3 1 1 KEEP OLD' "$m: also in the Deployment"
done
expect_rc 1 "drift after the sync: only the leftover" kubectl tazuna state drift
expect_eq "$(echo "$OUT" | awk 'NR>1 {print $2, $6}')" "live-leftover t-left" "nothing else drifted"
expect_rc 0 "the next sync is unchanged" kubectl tazuna state sync
expect_not_contains "$OUT" "configured" "nothing to do"

# --- 3. Objects adopted before the take-over existed (--takeover-managers=none: kubectl keeps its share)
# converge on their next change; dry runs show it first. And the requests each object costs: counted
# at -v 6 as the requests to the objects' own paths.
C=tkc$s
mkdir -p "$repo/c1" "$repo/c0"
printf '    - {name: %s1, type: manifests, path: ./c1}\n    - {name: %s0, type: manifests, path: ./c0}\n' "$C" "$C" >> "$repo/tazuna.yaml"
for set in 1 0; do
  for i in $(seq 1 10); do cm "c$set-$i" orig; echo ---; done > "$repo/orig/c$set.yaml"
  kubectl apply -f "$repo/orig/c$set.yaml" >/dev/null
  cp "$repo/orig/c$set.yaml" "$repo/c$set/objs.yaml"
done
cost() { echo "$ERR" | grep -c "/configmaps/c$1-"; }  # requests to the objects themselves
expect_rc 0 "adopt 10 objects" kubectl tazuna state sync -m "${C}1" -v 6
expect_eq "$(cost 1)" "20" "adoption: the apply and one managedFields patch per object"
expect_rc 0 "adopt 10 objects without the take-over (as before this change)" \
  kubectl tazuna state sync -m "${C}0" -v 6 --takeover-managers=none
expect_eq "$(cost 0)" "10" "only the applies"
expect_eq "$(owns cm c0-1 kubectl-client-side-apply data b)" "yes" "kubectl still shares data.b"
for set in 1 0; do for i in $(seq 1 10); do cm "c$set-$i" v2; echo ---; done > "$repo/c$set/objs.yaml"; done
expect_rc 1 "drift names what the next sync removes" kubectl tazuna state drift -m "${C}0" -o json
expect_eq "$(echo "$OUT" | python3 -c 'import json,sys; print(sorted({(i["drift"], ",".join(i.get("fields", []))) for i in json.load(sys.stdin)["items"]}))')" \
  "[('live-drifted', 'data.b,metadata.annotations[example.com/note],metadata.labels.old')]" "live-drifted, naming the fields"
expect_rc 1 "diff --show-changes" kubectl tazuna state diff -m "${C}0" --show-changes
expect_contains "$OUT" $'-  b: "2"' "shows data.b removed"
expect_contains "$OUT" $'-    old: "1"' "and the label"
expect_rc 0 "sync --dry-run=server" kubectl tazuna state sync -m "${C}0" --dry-run=server
expect_contains "$OUT" "configmap/c0-1 -n $ns configured (removed data.b, metadata.annotations[example.com/note], metadata.labels.old) (server dry run)" \
  "the dry run names the removal"
expect_eq "$(cm_state c0-1)" '1 2  1 1 1 1' "and changes nothing"
expect_rc 0 "the change, on the objects adopted with the take-over" kubectl tazuna state sync -m "${C}1" -v 6
expect_eq "$(cost 1)" "10" "no extra request: their fields were taken over on adoption"
expect_rc 0 "the change, on the objects adopted without it" kubectl tazuna state sync -m "${C}0" -v 6
expect_eq "$(cost 0)" "20" "one managedFields patch per object, before its apply"
expect_contains "$OUT" "configmap/c0-1 -n $ns configured (removed data.b, metadata.annotations[example.com/note], metadata.labels.old)" \
  "the row names what was removed"
expect_eq "$(cm_state c0-1) $(cm_state c1-1)" '1   1  1  1   1  1 ' "both converged"
for i in $(seq 1 10); do cm "c0-$i" v2 | sed 's/a: "1"/a: "2"/'; echo ---; done > "$repo/c0/objs.yaml"
expect_rc 0 "a later change" kubectl tazuna state sync -m "${C}0" -v 6
expect_eq "$(cost 0)" "10" "once taken over, an object costs no extra request"

# --- 5. Whole containers (issue 30): a readinessProbe kubectl create made (with the server's defaults) is dropped
# from the manifest; a custom resource's object field (with a schema default), map and keyed list are dropped.
# Each converges as if tazuna had made the object: before, the tool kept the probe node and its defaults, and
# every sync failed (port 0, "must be of type object"). What the manifest does not set in such a container stays:
# a request kubectl create set, fields kubectl edit added next to one the manifest declares, through later syncs.
W=tk${s}w
group=tk$s.example.com
one_manifest "$repo/w" "$W"
gizmo_schema='{type: object, properties: {spec: {type: object, properties: {
  tags: {type: array, items: {type: string}},
  config: {type: object, properties: {tls: {type: boolean}, mode: {type: string, default: fast}}},
  extra: {type: object, additionalProperties: {type: string}},
  ports: {type: array, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [name],
    items: {type: object, required: [name], properties: {name: {type: string}, port: {type: integer}}}}}}}}'
crd_doc gizmos "$group" Gizmo Namespaced "v1:true:true::$gizmo_schema" | kubectl apply -f - >/dev/null
established "gizmos.$group"
# probed NAME PROBE-LINE: a Deployment whose one container has PROBE-LINE (may be empty)
probed() {
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s, namespace: %s}\nspec:\n' "$1" "$ns"
  printf '  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n' "$1" "$1"
  printf '    spec:\n      containers:\n      - name: app\n        image: registry.example/app:1\n%s\n' "$2"
}
gizmo() { printf 'apiVersion: %s/v1\nkind: Gizmo\nmetadata: {name: %s, namespace: %s}\nspec: %s\n' "$group" "$1" "$ns" "$2"; }
http='        readinessProbe: {httpGet: {path: /, port: 80}, timeoutSeconds: 5}'
full='{tags: [a], config: {tls: true}, extra: {k1: v1}, ports: [{name: p, port: 1}]}'
probed w-drop "$http" > "$repo/w/objs/drop.yaml"
probed w-keep '        resources: {requests: {cpu: 100m, memory: 64Mi}}' > "$repo/w/objs/keep.yaml"
gizmo w-g "$full" > "$repo/w/objs/g.yaml"
for f in drop keep g; do kubectl create -f "$repo/w/objs/$f.yaml" >/dev/null; done
probed w-keep '        resources: {requests: {cpu: 100m}}' > "$repo/w/objs/keep.yaml"  # the manifest sets cpu only
cd "$repo/w" || exit 1
expect_rc 0 "adopts what kubectl create made" kubectl tazuna state sync
expect_contains "$OUT" "deployment.apps/w-drop -n $ns adopted" "the Deployment is adopted"
# kubectl edit's entry: a securityContext with two fields (what `kubectl edit` adds by hand)
kubectl patch deploy w-keep -n "$ns" --field-manager=kubectl-edit --type=strategic \
  -p '{"spec":{"template":{"spec":{"containers":[{"name":"app","securityContext":{"runAsUser":1000,"readOnlyRootFilesystem":true}}]}}}}' \
  >/dev/null
probed w-drop "" > objs/drop.yaml
probed w-keep "$(printf '        resources: {requests: {cpu: 100m}}\n        securityContext: {allowPrivilegeEscalation: false}')" \
  > objs/keep.yaml
gizmo w-g '{tags: [a]}' > objs/g.yaml
expect_rc 0 "the probe dropped, the resource's fields dropped, a field declared beside kubectl edit's" \
  kubectl tazuna state sync
expect_eq "$(get deploy w-drop -o jsonpath='{.spec.template.spec.containers[0].readinessProbe}')" "" "the probe is gone"
expect_eq "$(get "gizmos.$group" w-g -o jsonpath='{.spec}')" '{"tags":["a"]}' "the object field (its default too), map and list are gone"
sed -i 's|app:1|app:2|' objs/keep.yaml
expect_rc 0 "an unrelated change (the image) after that" kubectl tazuna state sync
expect_eq "$(get deploy w-keep -o jsonpath='{.spec.template.spec.containers[0].resources.requests.memory}')" 64Mi \
  "the request kubectl create set and the manifest never did stays"
expect_eq "$(get deploy w-keep -o jsonpath='{.spec.template.spec.containers[0].securityContext}')" \
  '{"allowPrivilegeEscalation":false,"readOnlyRootFilesystem":true,"runAsUser":1000}' "kubectl edit's fields stay beside the manifest's"
expect_rc 0 "state diff finds nothing" kubectl tazuna state diff
probed w-drop "$http" > objs/drop.yaml
expect_rc 0 "the probe back" kubectl tazuna state sync
expect_eq "$(get deploy w-drop -o jsonpath='{.spec.template.spec.containers[0].readinessProbe.timeoutSeconds}')" 5 \
  "the probe is live again"
cd "$repo" || exit 1
kubectl delete "crd/gizmos.$group" --wait=false >/dev/null 2>&1

# --- 4. Bad input.
expect_rc 2 "an empty manager name" kubectl tazuna state sync --takeover-managers=helm,,kubectl
expect_eq "$ERR" 'error: invalid --takeover-managers "helm,,kubectl": give field manager names separated by commas, default, or none' \
  "one clear line"
expect_rc 2 "a blank variable" env TAZUNA_TAKEOVER_MANAGERS=' ' kubectl tazuna state drift
expect_contains "$ERR" 'invalid TAZUNA_TAKEOVER_MANAGERS' "names the variable"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$M" "tazuna-state-${C}1" "tazuna-state-${C}0" "tazuna-state-$W" >/dev/null 2>&1
finish
