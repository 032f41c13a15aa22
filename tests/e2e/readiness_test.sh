#!/usr/bin/env bash
# Readiness waits against the local control plane, whose kwok nodes run pods (scripts/cluster): a dependsOn
# layer starts only once what the layers before it applied is ready; --wait and --timeout; helmfile
# `wait: true` with timeoutSeconds; a failed Job ends the wait at once; a custom resource's Ready condition;
# a CRD that nothing in the run depends on is not waited for. Every case checks the live objects.
source "$(dirname "$0")/lib.sh"

HELM=$("$REPO_DIR/scripts/lib/install-helm") || { echo "FAIL - cannot build helm"; exit 1; }
export PATH="$(dirname "$HELM"):$PATH"
ns=$(new_namespace rd)
kubectl create namespace "$ns" >/dev/null
s=$RANDOM
deployment() {  # deployment NAME [EXTRA POD SPEC LINE]: a Deployment of one pod that kwok runs
  cat <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: $1, namespace: $ns}
spec:
  replicas: 2
  minReadySeconds: 2
  selector: {matchLabels: {app: $1}}
  template:
    metadata: {labels: {app: $1}}
    spec:
      containers: [{name: app, image: example.invalid/app:1}]
      ${2:-}
EOF
}
configmap() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {a: "1"}\n' "$1" "$ns"; }

# --- 0. Without dependsOn, --wait or helmfile wait nothing waits (as before): a Deployment that cannot run
# is applied and the sync ends at once.
repo=$E2E_TMP/nowait; mkdir -p "$repo/a"
tazuna_yaml "$repo" "{name: nowait$s, type: manifests, path: ./a}"
deployment lazy 'nodeSelector: {tazuna-e2e: nowhere}' > "$repo/a/d.yaml"
cd "$repo"; t0=$(date +%s)
expect_rc 0 "no dependsOn, no --wait: sync does not wait" kubectl tazuna state sync
[ "$(elapsed_since "$t0")" -le 5 ] && pass "returned at once" || fail "took $(elapsed_since "$t0")s"
expect_not_contains "$ERR" "wait:" "no wait lines"

# --- 1. The second manifest dependsOn the first: it starts only after the first's Deployment is Available.
repo=$E2E_TMP/chain; mkdir -p "$repo/base" "$repo/top"
tazuna_yaml "$repo" "{name: base$s, type: manifests, path: ./base}" \
  "{name: top$s, type: manifests, path: ./top, dependsOn: [base$s]}"
deployment web > "$repo/base/d.yaml"
configmap after-web > "$repo/top/cm.yaml"
cd "$repo"
expect_rc 0 "dependsOn chain syncs in one run" kubectl tazuna state sync
expect_contains "$OUT" "top$s  configmap/after-web -n $ns created" "second layer applied"
expect_contains "$ERR" "wait: deployment.apps/web -n $ns: ready" "the wait is told on stderr, one line per change"
expect_not_contains "$OUT" "wait:" "stdout holds only the result rows"
available=$(jget deploy web -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="Available")].lastTransitionTime}')
created=$(jget cm after-web -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')
dcreated=$(jget deploy web -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')
expect_eq "$(jget deploy web -n "$ns" -o jsonpath='{.status.availableReplicas}')" "2" "Deployment available (kwok runs its pods)"
if [ -n "$available" ] && [[ ! "$created" < "$available" ]] && [[ "$dcreated" < "$created" ]]; then
  pass "second layer created ($created) after the Deployment became Available ($available; created $dcreated)"
else
  fail "second layer created at $created, Deployment created $dcreated, Available at '$available'"
fi
expect_rc 0 "rerun is a no-op" kubectl tazuna state sync
expect_not_contains "$ERR" "wait:" "nothing applied, nothing waited for"

# --- 2. A Deployment that can never be scheduled: --wait --timeout 20s fails within ~25 s, naming it with
# its condition; the dependent layer is skipped; state holds what was applied.
repo=$E2E_TMP/stuck; mkdir -p "$repo/base" "$repo/top"
tazuna_yaml "$repo" "{name: stuck$s, type: manifests, path: ./base}" \
  "{name: after$s, type: manifests, path: ./top, dependsOn: [stuck$s]}"
deployment stuck 'nodeSelector: {tazuna-e2e: nowhere}' > "$repo/base/d.yaml"
{ echo "---"; configmap stuck-cfg; } >> "$repo/base/d.yaml"
configmap never > "$repo/top/cm.yaml"
cd "$repo"
timed_rc 1 "unschedulable Deployment: sync --wait --timeout 20s fails" "" kubectl tazuna state sync --wait --timeout 20s
took_within "19" "25" "failed after the timeout"
expect_contains "$ERR" "error: manifest \"stuck$s\": deployment.apps/stuck -n $ns: applied, but not ready after 20s: 0/2 available (Available=False MinimumReplicasUnavailable: Deployment does not have minimum availability.)" \
  "names the Deployment with its condition"
expect_not_contains "$ERR" "configmap/stuck-cfg" "a ConfigMap is ready once applied"
expect_contains "$OUT" "after$s  configmap/never -n $ns skipped" "dependent layer skipped"
expect_eq "$(jget cm never -n "$ns" -o name)" "" "the skipped ConfigMap was not created"
expect_contains "$(state_keys "stuck$s")" "stuck${s}__apps__v1__Deployment__${ns}__stuck" "state records the applied Deployment"
expect_contains "$(state_keys "stuck$s")" "stuck${s}____v1__ConfigMap__${ns}__stuck-cfg" "state records the applied ConfigMap"
expect_eq "$(jget cm -n tazuna "tazuna-state-after$s" -o name)" "" "no state for the skipped manifest"
expect_rc 0 "--wait=false: the dependent layer syncs without waiting" kubectl tazuna state sync --wait=false
expect_contains "$OUT" "after$s  configmap/never -n $ns created" "dependent layer applied"
expect_rc 2 "an invalid --timeout is a usage error" kubectl tazuna state sync --timeout 5x
expect_contains "$ERR" 'invalid --timeout "5x"' "names the flag"

# --- 3. A Job that fails (its deadline passes while its pod cannot be scheduled) is reported failed at
# once, not after the timeout.
repo=$E2E_TMP/job; mkdir -p "$repo/a"
tazuna_yaml "$repo" "{name: job$s, type: manifests, path: ./a}"
cat > "$repo/a/job.yaml" <<EOF
apiVersion: batch/v1
kind: Job
metadata: {name: doomed, namespace: $ns}
spec:
  backoffLimit: 0
  activeDeadlineSeconds: 2
  template:
    spec:
      restartPolicy: Never
      nodeSelector: {tazuna-e2e: nowhere}
      containers: [{name: app, image: example.invalid/app:1}]
EOF
cd "$repo"
timed_rc 1 "failing Job: sync --wait fails" "" kubectl tazuna state sync --wait --timeout 2m
took_within "" "20" "failure reported without waiting for the timeout"
# The Job controller sets FailureTarget (Kubernetes 1.31+) before Failed; the wait fails on whichever it reads first.
if [[ "$ERR" =~ "job.batch/doomed -n $ns: applied, but failed: "(Failed|FailureTarget)"=True DeadlineExceeded: Job was active longer than specified deadline" ]]; then
  pass "names the Job and its Failed (or FailureTarget) condition"
else
  fail "names the Job and its Failed condition"; echo "  in: ${ERR:0:3000}"
fi
expect_contains "$(state_keys "job$s")" "job${s}__batch__v1__Job__${ns}__doomed" "state records the Job"

# A Job whose pod kwok fails (its chaos stage, backoffLimit: 0) fails at once too; one whose pod
# completes is waited for until Complete.
cat > "$repo/a/job.yaml" <<EOF
apiVersion: batch/v1
kind: Job
metadata: {name: crash, namespace: $ns}
spec:
  backoffLimit: 0
  template:
    metadata: {labels: {pod-container-running-failed.stage.kwok.x-k8s.io: "true"}}
    spec:
      restartPolicy: Never
      containers: [{name: app, image: example.invalid/app:1}]
EOF
timed_rc 1 "Job with a failing pod: sync --wait fails" "" kubectl tazuna state sync --wait --timeout 2m
took_within "" "20" "reported without waiting for the timeout"
expect_contains "$ERR" "job.batch/crash -n $ns: applied, but failed: Failed=True BackoffLimitExceeded: Job has reached the specified backoff limit" \
  "names the Job and its BackoffLimitExceeded condition"
sed -i 's/name: crash/name: fine/; /pod-container-running-failed/d' "$repo/a/job.yaml"
expect_rc 1 "a Job whose pod completes: sync --wait succeeds (kept rows exit 1)" kubectl tazuna state sync --wait --timeout 2m
expect_contains "$ERR" "wait: job.batch/fine -n $ns: ready" "waited until the Job completed"
expect_eq "$(jget job fine -n "$ns" -o jsonpath='{.status.succeeded}')" "1" "the Job completed"

# --- 4. helmfile `wait: true` with timeoutSeconds (helm fallback renderer), with no --wait and no dependsOn.
repo=$E2E_TMP/helm; mkdir -p "$repo/chart/templates" "$repo/ok" "$repo/bad"
tazuna_yaml "$repo" "{name: hfok$s, type: helmfile, path: ./ok, helmfile: {wait: true, timeoutSeconds: 60, defaultNamespace: $ns}}" \
  "{name: hfbad$s, type: helmfile, path: ./bad, helmfile: {wait: true, timeoutSeconds: 4, defaultNamespace: $ns}}"
printf 'apiVersion: v2\nname: app\nversion: 0.1.0\n' > "$repo/chart/Chart.yaml"
printf 'releases:\n  - name: ok\n    chart: ../chart\n' > "$repo/ok/helmfile.yaml"
printf 'releases:\n  - name: bad\n    chart: ../chart\n    values:\n      - stuck: true\n' > "$repo/bad/helmfile.yaml"
cat > "$repo/chart/templates/d.yaml" <<'EOF'
apiVersion: apps/v1
kind: Deployment
metadata: {name: helm-{{ .Release.Name }}}
spec:
  replicas: 1
  selector: {matchLabels: {app: {{ .Release.Name }}}}
  template:
    metadata: {labels: {app: {{ .Release.Name }}}}
    spec:
      containers: [{name: app, image: example.invalid/app:1}]
      {{- if .Values.stuck }}
      nodeSelector: {tazuna-e2e: nowhere}
      {{- end }}
EOF
cd "$repo"
timed_rc 1 "helmfile wait: true + timeoutSeconds: 4 fails a stuck release" "" kubectl tazuna state sync -m "hfbad$s"
took_within "4" "12" "waited its own timeoutSeconds"
expect_contains "$ERR" "deployment.apps/helm-bad -n $ns: applied, but not ready after 4s: 0/1 available" "names the release's Deployment"
expect_rc 0 "helmfile wait: true: a release that becomes ready" kubectl tazuna state sync -m "hfok$s" -o json
expect_contains "$ERR" "\"name\":\"helm-ok\",\"namespace\":\"$ns\",\"state\":\"ready\"" \
  "waited for the release's Deployment (-o json: the wait's events are JSON on stderr)"
expect_eq "$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["result"])')" "created" \
  "-o json stays one clean document while the wait reports on stderr"
expect_eq "$(jget deploy helm-ok -n "$ns" -o jsonpath='{.status.availableReplicas}')" "1" "release Deployment available"

# --- 5. A custom resource with a Ready condition written by the test: the dependent layer waits for it.
group=rd$s.tazuna.io
repo=$E2E_TMP/cr; mkdir -p "$repo/a" "$repo/b"
{ crd_doc gadgets "$group" Gadget Namespaced v1:true:true:status
  printf -- '---\napiVersion: %s/v1\nkind: Gadget\nmetadata: {name: g1, namespace: %s}\nspec: {size: 1}\n' "$group" "$ns"; } > "$repo/a/crd.yaml"
configmap after-gadget > "$repo/b/cm.yaml"
tazuna_yaml "$repo" "{name: gadgets$s, type: manifests, path: ./a}" \
  "{name: gadgetuser$s, type: manifests, path: ./b, dependsOn: [gadgets$s]}"
kubectl apply -f "$repo/a/crd.yaml" >/dev/null 2>&1 || { sleep 2; kubectl apply -f "$repo/a/crd.yaml" >/dev/null; }
set_ready() {  # set_ready STATUS: writes the Gadget's Ready condition through the status subresource
  kubectl patch gadget g1 -n "$ns" --subresource=status --type=merge \
    -p "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"$1\",\"reason\":\"Test\",\"message\":\"set by the test\",\"lastTransitionTime\":\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"}]}}" >/dev/null
}
set_ready False
cd "$repo"
expect_rc 1 "custom resource Ready=False: the wait times out" kubectl tazuna state sync --timeout 3s
expect_contains "$ERR" "gadget.$group/g1 -n $ns: applied, but not ready after 3s: Ready=False Test: set by the test" \
  "names the custom resource with its Ready condition"
expect_contains "$OUT" "gadgetuser$s  configmap/after-gadget -n $ns skipped" "its dependent layer skipped"
(sleep 3; set_ready True) &
setter=$!
expect_rc 0 "custom resource becomes Ready=True while the sync waits" kubectl tazuna state sync --timeout 60s
wait "$setter"
ready_at=$(jget "gadgets.$group" g1 -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="Ready")].lastTransitionTime}')
created=$(jget cm after-gadget -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')
if [ -n "$created" ] && [[ ! "$created" < "$ready_at" ]]; then
  pass "dependent layer created ($created) after Ready=True ($ready_at)"
else
  fail "dependent layer created at '$created', Ready=True at '$ready_at'"
fi

# --- 6. A CRD no custom resource in the run uses is not waited for (no GET or LIST of it after its apply).
repo=$E2E_TMP/lonecrd; mkdir -p "$repo/a"
tazuna_yaml "$repo" "{name: lonecrd$s, type: manifests, path: ./a}"
crd_doc widgets "$group" Widget Namespaced v1:true:true:status > "$repo/a/crd.yaml"
cd "$repo"
expect_rc 0 "a lone CRD syncs" kubectl tazuna state sync -v 6
expect_contains "$OUT" "customresourcedefinition.apiextensions.k8s.io/widgets.$group created" "CRD created"
# (Up to the summary line: after it, the scan for retired manifests of this origin may list CRDs a state of an
# earlier run of the suite recorded.)
expect_eq "$(printf '%s\n' "$ERR" | awk '/PATCH .*customresourcedefinitions\/widgets/ {p=1} /^sync: / {p=0} p && /GET .*customresourcedefinitions/' | wc -l)" "0" \
  "no GET of the CRD after its apply (no Established wait for a CRD nothing uses)"
expect_contains "$ERR" "PATCH https" "the -v 6 log shows the requests"

# --- 7. A CRD the run's custom resources need that can never be Established (its kind is taken in its
# group) is a failed row at once, not silently passed over.
repo=$E2E_TMP/badcrd; mkdir -p "$repo/a"
tazuna_yaml "$repo" "{name: badcrd$s, type: manifests, path: ./a}"
crd() { crd_doc "$1" "$group" "$2" Namespaced v1:true:true; }  # crd PLURAL KIND
crd things Thing | kubectl apply -f - >/dev/null
{ crd things2 Thing; echo "---"; printf 'apiVersion: %s/v1\nkind: Thing\nmetadata: {name: t1, namespace: %s}\n' "$group" "$ns"; } > "$repo/a/all.yaml"
cd "$repo"
timed_rc 1 "a CRD whose names are not accepted fails the sync" "" kubectl tazuna state sync
took_within "" "15" "reported at once"
expect_contains "$ERR" "customresourcedefinition.apiextensions.k8s.io/things2.$group: applied, but failed: NamesAccepted=False" \
  "names the CRD and its NamesAccepted condition"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete crd "gadgets.$group" "widgets.$group" "things.$group" "things2.$group" --wait=false >/dev/null 2>&1
finish
