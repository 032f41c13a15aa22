#!/usr/bin/env bash
# Generations (issue 26, part 2), against the local control plane; the test plays the controller, writing
# status through the status subresource at known times: a custom resource just created (no status yet)
# waits until a controller writes one; after a spec change a Ready=True whose observedGeneration is the
# old one is stale; a CR no controller writes status for counts as ready after the grace period, with a
# warning naming it (statusGraceSeconds, --status-grace), at once on a later sync; -o json tells the
# wait as JSON events on stderr. Every case checks the live conditions' transitions. About 40 s.
source "$(dirname "$0")/lib.sh"

ns=$(new_namespace gen)
kubectl create namespace "$ns" >/dev/null
s=$RANDOM
group=gen$s.tazuna.io
crd() { crd_doc "$1" "$group" "$2" Namespaced v1:true:true:status; }  # crd PLURAL KIND: with a status subresource
widget() { printf -- '---\napiVersion: %s/v1\nkind: Widget\nmetadata: {name: %s, namespace: %s}\nspec: {size: %s}\n' "$group" "$1" "$ns" "$2"; }
set_ready() {  # set_ready NAME GENERATION: the "controller" writes Ready=True for that generation
  kubectl patch "widgets.$group" "$1" -n "$ns" --subresource=status --type=merge -p "{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\",\"reason\":\"Reconciled\",\"message\":\"generation $2\",\"observedGeneration\":$2,\"lastTransitionTime\":\"$(now)\"}]}}" >/dev/null
}
generation_is() { [ "$(jget "widgets.$group" "$1" -n "$ns" -o jsonpath='{.metadata.generation}')" = "$2" ]; }  # generation_is NAME N
ready_at() { jget "widgets.$group" "$1" -n "$ns" -o jsonpath='{.status.conditions[?(@.type=="Ready")].lastTransitionTime}'; }
{ crd widgets Widget; echo "---"; crd gadgets Gadget; } | kubectl apply -f - >/dev/null
established "widgets.$group" "gadgets.$group"

# --- 1. A new custom resource waits until a controller writes its status (it had none at creation).
t_case=$(date +%s)
two_layers "$E2E_TMP/new" "crs$s" "user$s"
widget w1 1 > base/w.yaml
configmap after-w1 > top/cm.yaml
(poll_until jget "widgets.$group" w1 -n "$ns" -o name; sleep 4; set_ready w1 1) &
timed_rc 0 "a new custom resource is waited for until its controller wrote status" $! kubectl tazuna state sync --timeout 60s
took_within 4 "" "waited for the status"
expect_contains "$ERR" "wait: widget.$group/w1 -n $ns: waiting for a controller to write its status" "the wait says what it waits for"
expect_contains "$ERR" "wait: widget.$group/w1 -n $ns: ready" "then ready"
not_before "$(jget cm after-w1 -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')" "$(ready_at w1)" \
  "the dependent layer was created after Ready=True was written"
echo "# case 1 (new CR): $(elapsed_since "$t_case")s"

# --- 2. A spec change: Ready=True of generation 1 is stale until the controller writes generation 2.
t_case=$(date +%s)
widget w1 2 > base/w.yaml
configmap after-w1 2 > top/cm.yaml
(poll_until generation_is w1 2; sleep 4; set_ready w1 2) &
timed_rc 0 "a modified custom resource waits for status of its new generation" $! kubectl tazuna state sync --timeout 60s
took_within 4 "" "the stale Ready=True did not count"
expect_contains "$ERR" "wait: widget.$group/w1 -n $ns: status is for generation 1, not 2" "the wait names the stale generation"
expect_eq "$(jget "widgets.$group" w1 -n "$ns" -o jsonpath='{.status.conditions[0].observedGeneration}')" "2" "the live condition is for generation 2"
not_before "$(cm_written after-w1)" "$(ready_at w1)" "the dependent layer changed after generation 2 was Ready"

# A status for generation 2 that is not Ready keeps it waiting: the timeout names the condition.
widget w1 3 > base/w.yaml
(poll_until generation_is w1 3
 kubectl patch "widgets.$group" w1 -n "$ns" --subresource=status --type=merge -p '{"status":{"conditions":[{"type":"Ready","status":"False","reason":"Degraded","message":"size 3 is too big","observedGeneration":3,"lastTransitionTime":"'"$(now)"'"}]}}' >/dev/null) &
writer=$!
expect_rc 1 "Ready=False for the current generation: not ready in time" kubectl tazuna state sync --timeout 4s
wait "$writer"
expect_contains "$ERR" "widget.$group/w1 -n $ns: applied, but not ready after 4s: Ready=False Degraded: size 3 is too big" \
  "the timeout names the current condition"
echo "# case 2 (stale condition): $(elapsed_since "$t_case")s"

# --- 3. No controller writes status at all: ready after the manifest's statusGraceSeconds, with a warning;
# a later sync warns at once (the grace counts from the object's own timestamps).
t_case=$(date +%s)
two_layers "$E2E_TMP/grace" "lone$s" "loneuser$s" "statusGraceSeconds: 3"
printf -- '---\napiVersion: %s/v1\nkind: Gadget\nmetadata: {name: g1, namespace: %s}\nspec: {size: 1}\n' "$group" "$ns" > base/g.yaml
configmap after-g1 > top/cm.yaml
timed_rc 0 "a custom resource no controller writes status for is ready after the grace period" "" kubectl tazuna state sync --timeout 60s
took_within 3 10 "waited the grace period"
expect_contains "$ERR" "warning: gadget.$group/g1 -n $ns: no controller wrote its status within 3s; counted as ready" "the warning names it"
created=$(jget "gadgets.$group" g1 -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')
dependent=$(jget cm after-g1 -n "$ns" -o jsonpath='{.metadata.creationTimestamp}')
expect_eq "$(jget "gadgets.$group" g1 -n "$ns" -o jsonpath='{.status}')" "" "no status was ever written"
if [ -n "$created" ] && [ -n "$dependent" ] && [ $(( $(date -d "$dependent" +%s) - $(date -d "$created" +%s) )) -ge 3 ]; then
  pass "the dependent layer came 3s or more after the CR ($created -> $dependent)"
else
  fail "CR created $created, dependent $dependent"
fi
configmap after-g1 2 > top/cm.yaml
timed_rc 0 "a later sync: the grace period is long over" "" kubectl tazuna state sync --timeout 60s
took_within "" 3 "no second grace period"
expect_contains "$ERR" "warning: gadget.$group/g1 -n $ns: no controller wrote its status within 3s; counted as ready" "warns again"
echo "# case 3 (no controller, grace): $(elapsed_since "$t_case")s"

# --- 4. --status-grace sets it for manifests without their own; -o json tells the wait as JSON events.
t_case=$(date +%s)
two_layers "$E2E_TMP/grace" "lone$s" "loneuser$s"
printf -- '---\napiVersion: %s/v1\nkind: Gadget\nmetadata: {name: g2, namespace: %s}\nspec: {size: 1}\n' "$group" "$ns" >> base/g.yaml
timed_rc 0 "--status-grace 2s with -o json" "" kubectl tazuna state sync --timeout 60s --status-grace 2s -o json
took_within 2 8 "waited --status-grace"
events=$(printf '%s\n' "$ERR" | grep '^{"apiVersion"')
expect_contains "$events" "\"kind\":\"Gadget\",\"manifest\":\"lone$s\",\"message\":\"waiting for a controller to write its status\",\"name\":\"g2\"" \
  "a JSON event says what it waits for"
expect_contains "$events" "\"warning\":\"no controller wrote its status within 2s; counted as ready\"" "a JSON event carries the warning"
expect_eq "$(printf '%s\n' "$events" | python3 -c 'import json,sys; print(all(json.loads(l)["type"]=="wait" for l in sys.stdin))')" "True" \
  "every event line is one JSON object"
expect_eq "$(printf '%s' "$OUT" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["items"]))')" "3" "stdout stays one JSON document"
expect_rc 2 "a bad --status-grace is a usage error" kubectl tazuna state sync --status-grace 5x
expect_contains "$ERR" 'invalid --status-grace "5x"' "names the flag"
echo "# case 4 (--status-grace, -o json): $(elapsed_since "$t_case")s"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl delete crd "widgets.$group" "gadgets.$group" --wait=false >/dev/null 2>&1
finish
