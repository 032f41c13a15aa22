#!/usr/bin/env bash
# Objects a readiness wait finds gone (issue 26, part 1), against the local control plane (kwok runs pods,
# the Job TTL controller deletes finished Jobs): a completed Job that its TTL deleted is done for the
# content that ran (not re-run, the dependent layer goes on at once); one whose content changed runs
# again; one that failed and was deleted runs again; any other unchanged object that is gone, or being
# deleted, is created again (`created (was missing)`) and waited for, not waited on until the timeout.
# Every case checks the live objects and their condition transitions. About 60 s.
source "$(dirname "$0")/lib.sh"

ns=$(new_namespace gone)
kubectl create namespace "$ns" >/dev/null
s=$RANDOM
state_hash() {  # state_hash MANIFEST KEY-SUBSTRING: the recorded contentHash ("" pending, "none" when absent)
  kubectl get cm -n tazuna "tazuna-state-$1" -o json | python3 -c '
import json,sys
d=json.load(sys.stdin)["data"]; ks=[k for k in d if sys.argv[1] in k]
print(json.loads(d[ks[0]])["contentHash"] if ks else "none")' "$2"
}
job() {  # job NAME TTL [EXTRA POD LABEL]: a Job whose one pod kwok completes (or fails, with the label)
  cat <<EOF
apiVersion: batch/v1
kind: Job
metadata: {name: $1, namespace: $ns}
spec:
  backoffLimit: 0
  ttlSecondsAfterFinished: $2
  template:
    metadata: {labels: {app: $1${3:+, $3}}}
    spec:
      restartPolicy: Never
      containers: [{name: migrate, image: example.invalid/migrate:1}]
EOF
}

# --- 1. A Job that completed and was deleted by its TTL: later syncs count it done and do not re-run it.
t_case=$(date +%s)
two_layers "$E2E_TMP/ttl" "migrate$s" "app$s"
job db-migrate 3 > base/job.yaml
configmap app-config > top/cm.yaml
expect_rc 0 "first sync runs the Job, then the dependent layer" kubectl tazuna state sync
complete_at=$(jget job db-migrate -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="Complete")].lastTransitionTime}')
job_uid=$(uid job db-migrate -n "$ns")
not_before "$(jget cm app-config -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')" "$complete_at" \
  "the dependent layer was created after the Job completed"
for _ in $(seq 1 60); do [ -z "$(uid job db-migrate -n "$ns")" ] && break; sleep 0.5; done
expect_eq "$(uid job db-migrate -n "$ns")" "" "the TTL controller deleted the completed Job"
configmap app-config 2 > top/cm.yaml  # the dependent layer has work, so it must pass the wait
timed_rc 0 "a sync after the Job is gone does not wait for it" "" kubectl tazuna state sync --timeout 60s
took_within "" 5 "no wait on the vanished Job"
expect_contains "$OUT" "migrate$s  job.batch/db-migrate -n $ns unchanged (gone after it ran; not run again for the same content)" \
  "the row says the Job is done and why"
expect_contains "$OUT" "app$s  configmap/app-config -n $ns configured" "the dependent layer went on"
expect_contains "$ERR" "wait: job.batch/db-migrate -n $ns: not found" "the wait told it found the Job gone"
expect_eq "$(uid job db-migrate -n "$ns")" "" "the Job was not created again"
[ -n "$job_uid" ] && pass "the first Job had a uid ($job_uid)" || fail "no first Job uid"
expect_eq "$(jget cm app-config -n "$ns" -o jsonpath='{.data.v}')" "2" "the dependent ConfigMap was updated"
echo "# case 1 (completed Job deleted by TTL): $(elapsed_since "$t_case")s"

# --- 2. The same Job with new content (the template changed) runs again: created, waited for, then app.
t_case=$(date +%s)
job db-migrate 3 'version: "2"' > base/job.yaml
configmap app-config 3 > top/cm.yaml
expect_rc 0 "changed Job content runs again" kubectl tazuna state sync --timeout 60s
expect_contains "$OUT" "migrate$s  job.batch/db-migrate -n $ns created" "the Job was created again"
expect_eq "$(jget job db-migrate -n "$ns" -o jsonpath='{.spec.template.metadata.labels.version}')" "2" \
  "the live Job has the new content"
complete_at=$(jget job db-migrate -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="Complete")].lastTransitionTime}')
cm_changed=$(jget cm app-config -n "$ns" -o jsonpath='{.metadata.managedFields[?(@.manager=="tazuna")].time}')
not_before "$cm_changed" "$complete_at" "the dependent layer changed after the new Job completed"
echo "# case 2 (changed Job runs again): $(elapsed_since "$t_case")s"

# --- 3. A Job that failed is recorded pending; deleted by a person, the next sync runs it again (it
# failed: its content did not run to the end) and the dependent layer stays skipped.
t_case=$(date +%s)
two_layers "$E2E_TMP/failed" "fmigrate$s" "fapp$s"
job doomed 600 'pod-container-running-failed.stage.kwok.x-k8s.io: "true"' > base/job.yaml
configmap never > top/cm.yaml
expect_rc 1 "a failing Job fails the sync" kubectl tazuna state sync --timeout 60s
expect_contains "$ERR" "job.batch/doomed -n $ns: applied, but failed: Failed=True BackoffLimitExceeded" "names its Failed condition"
expect_eq "$(state_hash "fmigrate$s" "__Job__${ns}__doomed")" "" "the failed Job is recorded pending (empty hash)"
first=$(uid job doomed -n "$ns")
kubectl delete job doomed -n "$ns" --wait=true >/dev/null
expect_rc 1 "after a person deleted the failed Job, the sync runs it again" kubectl tazuna state sync --timeout 60s
second=$(uid job doomed -n "$ns")
[ -n "$second" ] && [ "$second" != "$first" ] && pass "a new Job was created ($second)" || fail "Job uid '$first' -> '$second'"
expect_contains "$OUT" "fmigrate$s  job.batch/doomed -n $ns failed" "it failed again: not counted done"
expect_contains "$OUT" "fapp$s  configmap/never -n $ns skipped" "the dependent layer is still skipped"
expect_eq "$(jget cm never -n "$ns" -o name)" "" "the skipped ConfigMap does not exist"
echo "# case 3 (failed Job deleted runs again): $(elapsed_since "$t_case")s"

# --- 4. ttlSecondsAfterFinished: 0 deletes the Job the moment it completes, maybe before a poll saw it:
# its Completed event (by uid) says it ran; the dependent layer goes on.
t_case=$(date +%s)
two_layers "$E2E_TMP/ttl0" "zmigrate$s" "zapp$s"
job quick 0 > base/job.yaml
configmap after-quick > top/cm.yaml
expect_rc 0 "a Job deleted the moment it completes does not fail the sync" kubectl tazuna state sync --timeout 60s
expect_contains "$OUT" "zapp$s  configmap/after-quick -n $ns created" "the dependent layer was applied"
expect_eq "$(uid job quick -n "$ns")" "" "the Job is gone (TTL 0)"
completed=$(kubectl get events -n "$ns" --field-selector involvedObject.name=quick,reason=Completed -o jsonpath='{.items[0].lastTimestamp}')
not_before "$(jget cm after-quick -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')" "$completed" \
  "the dependent layer was created after the Job's Completed event"
echo "# case 4 (TTL 0): $(elapsed_since "$t_case")s"

# --- 5. An unchanged Deployment that a person deleted is created again and waited for; the dependent
# layer starts after it is Available again (not after a timeout).
t_case=$(date +%s)
two_layers "$E2E_TMP/deploy" "dbase$s" "dtop$s"
cat > base/d.yaml <<EOF
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: $ns}
spec:
  replicas: 2
  minReadySeconds: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: app, image: example.invalid/app:1}]
EOF
configmap after-web > top/cm.yaml
expect_rc 0 "first sync" kubectl tazuna state sync --timeout 60s
old=$(uid deploy web -n "$ns")
kubectl delete deploy web -n "$ns" --wait=true >/dev/null
configmap after-web 2 > top/cm.yaml
timed_rc 0 "the deleted Deployment is created again" "" kubectl tazuna state sync --timeout 60s
took_within "" 20 "recreated and waited for, not timed out"
expect_contains "$OUT" "dbase$s  deployment.apps/web -n $ns created (was missing)" "the row says it was missing"
new=$(uid deploy web -n "$ns")
[ -n "$new" ] && [ "$new" != "$old" ] && pass "a new Deployment exists ($new)" || fail "uid '$old' -> '$new'"
expect_eq "$(jget deploy web -n "$ns" -o jsonpath='{.metadata.annotations.tazuna\.pepabo\.com/manifest}')" "dbase$s" \
  "it carries the manifest mark (applied like every object)"
available=$(jget deploy web -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="Available")].lastTransitionTime}')
cm_changed=$(jget cm after-web -n "$ns" -o jsonpath='{.metadata.managedFields[?(@.manager=="tazuna")].time}')
not_before "$cm_changed" "$available" "the dependent layer changed after the new Deployment became Available"
expect_contains "$(state_keys "dbase$s")" "dbase${s}__apps__v1__Deployment__${ns}__web" "state still records it"
echo "# case 5 (deleted Deployment): $(elapsed_since "$t_case")s"

# --- 6. An unchanged Deployment being deleted (held by a finalizer): the wait says so, and once it is
# gone creates it again.
t_case=$(date +%s)
old=$(uid deploy web -n "$ns")
kubectl patch deploy web -n "$ns" --type=merge -p '{"metadata":{"finalizers":["example.com/hold"]}}' >/dev/null
kubectl delete deploy web -n "$ns" --wait=false >/dev/null
configmap after-web 3 > top/cm.yaml
(sleep 4; kubectl patch deploy web -n "$ns" --type=merge -p '{"metadata":{"finalizers":null}}' >/dev/null; now > "$E2E_TMP/released") &
timed_rc 0 "a Deployment being deleted is waited for, then created again" $! kubectl tazuna state sync --timeout 60s
took_within 3 25 "waited while it was being deleted"
expect_contains "$ERR" "wait: deployment.apps/web -n $ns: being deleted (since " "the wait said it is being deleted"
expect_contains "$ERR" "waiting for finalizers example.com/hold" "and what holds it"
expect_contains "$OUT" "dbase$s  deployment.apps/web -n $ns created (was missing)" "then created it again"
new=$(uid deploy web -n "$ns")
[ -n "$new" ] && [ "$new" != "$old" ] && pass "a new Deployment exists" || fail "uid '$old' -> '$new'"
not_before "$(jget deploy web -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')" "$(cat "$E2E_TMP/released")" \
  "created after the finalizer was released"
echo "# case 6 (Deployment being deleted): $(elapsed_since "$t_case")s"

# --- 7. A Job deleted while it runs (a person stopped it) did not finish: the sync fails at once, names
# it, and records it pending, so the next sync runs it again.
t_case=$(date +%s)
two_layers "$E2E_TMP/stopped" "smigrate$s" "sapp$s"
job stuck 600 > base/job.yaml
printf '      nodeSelector: {tazuna-e2e: nowhere}\n' >> base/job.yaml
configmap after-stuck > top/cm.yaml
(poll_until jget job stuck -n "$ns" -o name; sleep 3; kubectl delete job stuck -n "$ns" >/dev/null) &
timed_rc 1 "a Job deleted while it runs fails the sync" $! kubectl tazuna state sync --timeout 60s
took_within "" 20 "at once, not after the timeout"
expect_contains "$ERR" "job.batch/stuck -n $ns: applied, but failed: deleted before it was seen to finish" "names it and why"
expect_eq "$(state_hash "smigrate$s" "__Job__${ns}__stuck")" "" "recorded pending: the next sync runs it again"
expect_eq "$(jget cm after-stuck -n "$ns" -o name)" "" "the dependent layer was skipped"
echo "# case 7 (Job deleted while it runs): $(elapsed_since "$t_case")s"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
finish
