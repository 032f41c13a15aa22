#!/usr/bin/env bash
# state sync takes back fields tazuna applied that other writers took (issue #45 item 2): kubectl set image,
# label --overwrite and patch show as `drifted` rows in state diff (exit 1; JSON names who took which field)
# and are repaired by one sync as `configured (repaired: fields changed by ...)`; what others added beside
# tazuna's fields (a label, kubectl rollout restart's annotation) stays; replicas an autoscaler
# (kube-controller-manager through the scale subresource) sets are left to it, even when the object is
# applied again; a manifest's yieldFields leave the fields it names to their writers; --repair=missing and
# --repair=none leave drift alone; a plan carries its drifted rows and refuses --repair=missing; state drift
# finds removed fields (and a sync repairs them), dry-runs only what ownership shows changed, and
# --show-changes shows a drifted object as a sync would apply it; a bad
# yieldFields rule is a one-line input error. Items keyed by a defaulted field (a port's protocol), Secrets,
# and maps whose node another writer holds are repaired too.
source "$(dirname "$0")/lib.sh"

sfx=$(date +%s%N | tail -c 6)$RANDOM
m=drift$sfx
ns=$(new_namespace dr)
repo=$E2E_TMP/repo
one_manifest "$repo" "$m" "yieldFields: [{kind: ConfigMap, name: tuned, managers: [my-tuner]}]"
printf 'apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n' "$ns" > "$repo/objs/00-ns.yaml"
{ cm_doc cfg "$ns" '{mode: "blue"}'; cm_doc tuned "$ns" '{level: "1"}'; } > "$repo/objs/10-cm.yaml"
cat > "$repo/objs/20-deploy.yaml" <<DOC
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: $ns, labels: {team: a}}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: app, image: registry.example/web:1}]}
DOC
cd "$repo" || exit 1
deploy_line="$m  deployment.apps/web -n $ns"
cm_line="$m  configmap/cfg -n $ns"
live() { kubectl get deploy -n "$ns" web -o jsonpath='{.spec.replicas} {.metadata.labels.team} {.metadata.labels.extra} {.spec.template.spec.containers[0].image}'; }

expect_rc 0 "first sync" kubectl tazuna state sync
kubectl set image -n "$ns" deploy/web app=registry.example/web:2 >/dev/null
kubectl label -n "$ns" deploy/web team=b extra=kept --overwrite >/dev/null
kubectl patch -n "$ns" cm cfg -p '{"data":{"mode":"red"}}' >/dev/null
kubectl rollout restart -n "$ns" deploy/web >/dev/null
kubectl patch -n "$ns" deploy web --subresource=scale --type=merge -p '{"spec":{"replicas":5}}' \
  --field-manager=kube-controller-manager >/dev/null
kubectl patch -n "$ns" cm tuned -p '{"data":{"level":"7"}}' --field-manager=my-tuner >/dev/null

expect_rc 1 "diff shows the drift" kubectl tazuna state diff
expect_contains "$OUT" "$m   drifted   apps/v1      Deployment   $ns" "diff: the Deployment is drifted"
expect_contains "$OUT" "$m   drifted   v1           ConfigMap    $ns" "diff: the patched ConfigMap is drifted"
expect_not_contains "$OUT" "tuned" "diff: the ConfigMap whose field yieldFields leaves to my-tuner is not"
expect_rc 1 "diff -o json" kubectl tazuna state diff -o json
expect_contains "$OUT" '"drift": "fields changed by kubectl-label (metadata.labels.team), kubectl-set (spec.template.spec.containers[name=app].image)"' \
  "json: who took which field of the Deployment (not its replicas, not the restart annotation, not the added label)"
expect_contains "$OUT" '"drift": "fields changed by kubectl-patch (data.mode)"' "json: who took the ConfigMap's field"
expect_rc 0 "diff --repair=missing leaves drift out" kubectl tazuna state diff --repair=missing
expect_eq "$OUT" "No changes detected." "diff --repair=missing: no rows"

expect_rc 0 "sync --repair=none leaves the drift" kubectl tazuna state sync --repair=none
expect_contains "$OUT" "$deploy_line unchanged" "--repair=none: the Deployment unchanged"
expect_eq "$(live)" "5 b kept registry.example/web:2" "--repair=none: live edits stay"

expect_rc 1 "diff --out makes a plan with the drifted rows" kubectl tazuna state diff --out "$E2E_TMP/plan.json"
expect_contains "$(cat "$E2E_TMP/plan.json")" '"drifted"' "the plan carries drifted rows"
expect_rc 2 "the plan refuses --repair=missing (a usage error)" kubectl tazuna state sync --plan "$E2E_TMP/plan.json" --repair=missing
expect_contains "$ERR" "takes back drifted fields: it cannot be applied with --repair=missing" "--repair=missing: why"
expect_rc 0 "a plan made with --repair=none (no rows)" kubectl tazuna state diff --repair=none --out "$E2E_TMP/plan-none.json"
expect_rc 2 "is refused by a sync that repairs" kubectl tazuna state sync --plan "$E2E_TMP/plan-none.json"
expect_contains "$ERR" "plan was made for a sync with --repair=none, this sync is for --repair=all" \
  "the refusal names both --repair values"
expect_rc 0 "sync --plan repairs" kubectl tazuna state sync --plan "$E2E_TMP/plan.json"
expect_contains "$OUT" "$deploy_line configured (repaired: fields changed by kubectl-label (metadata.labels.team), kubectl-set (spec.template.spec.containers[name=app].image))" \
  "sync: the Deployment is repaired, naming the fields"
expect_contains "$OUT" "$cm_line configured (repaired: fields changed by kubectl-patch (data.mode))" "sync: the ConfigMap is repaired"
expect_contains "$OUT" "$m  configmap/tuned -n $ns unchanged" "sync: the yielded ConfigMap is unchanged"
expect_eq "$(live)" "5 a kept registry.example/web:1" \
  "live: image and label back, the autoscaler's replicas and the added label kept"
expect_eq "$(kubectl get cm -n "$ns" cfg -o jsonpath='{.data.mode}')" "blue" "live: the ConfigMap's value back"
expect_eq "$(kubectl get cm -n "$ns" tuned -o jsonpath='{.data.level}')" "7" "live: the yielded field keeps its writer's value"
expect_contains "$(kubectl get deploy -n "$ns" web -o jsonpath='{.spec.template.metadata.annotations}')" \
  "kubectl.kubernetes.io/restartedAt" "live: kubectl rollout restart's annotation stays"

expect_rc 0 "a second sync" kubectl tazuna state sync -o json
expect_eq "$(python3 -c 'import json,sys; print(sorted({i["result"] for i in json.load(sys.stdin)["items"]}))' <<<"$OUT")" \
  "['unchanged']" "second sync: everything unchanged"
expect_rc 0 "diff after the repair" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "diff after the repair: no rows"

sed -i 's/team: a/team: c/' objs/20-deploy.yaml
expect_rc 0 "a content change applies the Deployment" kubectl tazuna state sync
expect_contains "$OUT" "$deploy_line configured" "content change: configured"
expect_eq "$(live)" "5 c kept registry.example/web:1" "content change: the autoscaler's replicas are still left to it"

# A Service port the manifest writes without its protocol (the server adds TCP to the item's keys); a
# Secret; a ConfigMap kubectl apply (client-side) made and changes again after tazuna adopted
# it (its entry holds the data map itself); a rule yielding all of kubectl-rollout's fields, which owns the
# pod template's annotations map, while tazuna sets an annotation in it.
cat > objs/30-more.yaml <<DOC
apiVersion: v1
kind: Service
metadata: {name: svc, namespace: $ns}
spec: {selector: {app: web}, ports: [{port: 80, targetPort: 80}]}
---
apiVersion: v1
kind: Secret
metadata: {name: sec, namespace: $ns}
data: {pw: Zmlyc3Q=}
DOC
cm_doc csa "$ns" '{mode: "blue", other: "x"}' > "$E2E_TMP/csa.yaml"
kubectl apply -f "$E2E_TMP/csa.yaml" >/dev/null 2>&1
cp "$E2E_TMP/csa.yaml" objs/40-csa.yaml
sed -i 's/yieldFields: \[/yieldFields: [{managers: [kubectl-rollout]}, /' tazuna.yaml
sed -i 's/    metadata: {labels: {app: web}}/    metadata: {labels: {app: web}, annotations: {example.com\/scrape: "true"}}/' objs/20-deploy.yaml
expect_rc 0 "sync: a Service, a Secret, an adopted ConfigMap, an annotation beside kubectl-rollout's" kubectl tazuna state sync
expect_eq "$(kubectl get deploy -n "$ns" web -o jsonpath='{.spec.template.metadata.annotations.example\.com/scrape}')" "true" \
  "the annotation is applied though kubectl-rollout owns the map and is yielded"
kubectl patch -n "$ns" svc svc -p '{"spec":{"ports":[{"port":80,"targetPort":8080}]}}' >/dev/null
kubectl patch -n "$ns" secret sec -p '{"data":{"pw":"b3RoZXI="}}' >/dev/null
sed 's/other: "x"/other: "changed"/' "$E2E_TMP/csa.yaml" | kubectl apply -f - >/dev/null 2>&1
expect_rc 1 "diff: the three are drifted" kubectl tazuna state diff -o json
for what in 'kubectl-patch (spec.ports[port=80,protocol=TCP].targetPort)' 'kubectl-patch (data.pw)' 'kubectl-client-side-apply (data.other)'; do
  expect_contains "$OUT" "\"drift\": \"fields changed by $what\"" "diff: $what"
done
expect_rc 0 "sync repairs them" kubectl tazuna state sync
expect_eq "$(kubectl get svc -n "$ns" svc -o jsonpath='{.spec.ports[0].targetPort}')" "80" "the Service's targetPort is back"
expect_eq "$(kubectl get secret -n "$ns" sec -o jsonpath='{.data.pw}' | base64 -d)" "first" "the Secret's value is back"
expect_eq "$(kubectl get cm -n "$ns" csa -o jsonpath='{.data.other}')" "x" "the adopted ConfigMap's value is back"
expect_rc 0 "then nothing" kubectl tazuna state diff
expect_eq "$OUT" "No changes detected." "after those repairs: no rows"

# A field removed by hand has no owner left: state drift finds it (its FIELDS say which), and a sync, which
# renders, dry-runs the objects whose rendered fields nobody owns and repairs those it would change.
expect_rc 0 "state drift: nothing drifted" kubectl tazuna state drift
kubectl label -n "$ns" cm cfg app- >/dev/null 2>&1
kubectl patch -n "$ns" cm cfg --type=json -p '[{"op":"remove","path":"/data/mode"}]' >/dev/null
expect_rc 1 "state drift finds the removed field" kubectl tazuna state drift -o wide
expect_eq "$(awk 'NR > 1 {print $2, $4, $6, $8}' <<<"$OUT")" "live-drifted ConfigMap cfg data.mode" \
  "drift -o wide: only the ConfigMap, FIELDS naming what was removed"
run kubectl tazuna state drift -v 6
expect_eq "$(grep 'dryRun=All' <<<"$ERR" | sed 's|.*/namespaces/[^/]*/||; s|?.*||' | sort | tr '\n' ' ')" \
  "configmaps/cfg configmaps/csa secrets/sec " \
  "drift: dry runs only for the drifted ConfigMap, the one an earlier tool (kubectl apply) holds fields of, and the Secret (its hash is keyed)"
expect_rc 0 "a plain diff does not look for removed fields (the same with or without its render cache)" \
  kubectl tazuna state diff
expect_rc 1 "a plan (fresh renders) shows the removal" kubectl tazuna state diff --out "$E2E_TMP/plan-removed.json" -o json
expect_contains "$OUT" '"drift": "fields removed (data.mode)"' "the plan's diff: fields removed"
expect_rc 0 "sync repairs the removal" kubectl tazuna state sync
expect_contains "$OUT" "$cm_line configured (repaired: fields removed (data.mode))" "sync: configured (repaired: fields removed)"
expect_eq "$(kubectl get cm -n "$ns" cfg -o jsonpath='{.data.mode}')" "blue" "the removed value is back"
expect_rc 0 "a second sync" kubectl tazuna state sync
expect_not_contains "$OUT" "configured" "second sync after the removal repair: nothing configured"

kubectl set image -n "$ns" deploy/web app=registry.example/web:9 >/dev/null
expect_rc 1 "state drift --show-changes" kubectl tazuna state drift --show-changes
expect_contains "$OUT" "-      - image: registry.example/web:9" "drift --show-changes: the live image"
expect_contains "$OUT" "+      - image: registry.example/web:1" "drift --show-changes: the image a sync applies"
expect_not_contains "$OUT" "replicas: 2" "drift --show-changes: not the replicas the autoscaler owns"
expect_rc 0 "sync after it" kubectl tazuna state sync

# An item removed from a list (an env var), and a replace from the repository's own file (an update that drops
# tazuna's marks) with another image.
sed -i 's|image: registry.example/web:1}|image: registry.example/web:1, env: [{name: A, value: "1"}, {name: B, value: "2"}]}|' \
  objs/20-deploy.yaml
expect_rc 0 "sync: env vars added" kubectl tazuna state sync
kubectl patch -n "$ns" deploy web --type=json -p '[{"op":"remove","path":"/spec/template/spec/containers/0/env/1"}]' >/dev/null
expect_rc 0 "sync after an env var was removed" kubectl tazuna state sync
expect_contains "$OUT" "$deploy_line configured (repaired: fields removed (spec.template.spec.containers[name=app].env[name=B]))" \
  "sync: the removed list item is repaired"
expect_eq "$(kubectl get deploy -n "$ns" web -o jsonpath='{.spec.template.spec.containers[0].env[1].name}')" "B" "live: B is back"
sed 's|web:1|web:hotfix|' objs/20-deploy.yaml | kubectl replace -f - >/dev/null
expect_rc 0 "sync after kubectl replace" kubectl tazuna state sync
expect_contains "$OUT" "$deploy_line configured" "sync: the replaced Deployment is applied again"
expect_eq "$(kubectl get deploy -n "$ns" web -o jsonpath='{.spec.template.spec.containers[0].image} {.metadata.annotations.tazuna\.pepabo\.com/manifest}')" \
  "registry.example/web:1 $m" "live: the image and tazuna's mark are back"

cp tazuna.yaml tazuna.yaml.good
sed -i 's/yieldFields: .*/yieldFields: [{paths: [spec..replicas]}]}/' tazuna.yaml
expect_rc 2 "a bad yieldFields path" kubectl tazuna state diff
expect_contains "$ERR" "yieldFields[0].paths: invalid field path \"spec..replicas\"" "bad path: named"
expect_eq "$(wc -l <<<"$ERR")" "1" "bad path: one line"
sed -i 's/yieldFields: .*/yieldFields: [{}]}/' tazuna.yaml
expect_rc 2 "an empty yieldFields rule" kubectl tazuna state diff
expect_contains "$ERR" "needs at least one of group, kind, name, namespace, paths, managers" "empty rule: why"
cp tazuna.yaml.good tazuna.yaml

kubectl delete namespace "$ns" --wait=false >/dev/null
kubectl delete cm -n tazuna "tazuna-state-$m" >/dev/null
finish
