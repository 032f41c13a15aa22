#!/usr/bin/env bash
# What `kubectl apply` accepts, build, diff, sync and drift accept with the same meaning (issue 25): each
# quirk is one file, applied by kubectl into one namespace (-n) and synced by tazuna into another from
# the same file; the live objects must match (namespace, data, labels, annotations without tazuna's marks
# and kubectl's last-applied copy), `build` must print no null, diff after the sync must be clean and
# drift must find nothing. Prints the quirk table (kubectl beside tazuna). About 20 s.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
nk=$(new_namespace qk)  # kubectl's objects
nt=$(new_namespace qt)  # tazuna's objects
kubectl create namespace "$nk" >/dev/null
kubectl create namespace "$nt" >/dev/null
repo=$E2E_TMP/repo
mkdir -p "$repo/files"
cd "$repo"

# name|file content (printf format; %s is the object name prefix). Each file holds ConfigMaps only.
quirks=(
  "ns-null|apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace:\ndata: {a: \"1\"}\n"
  "ns-null-word|apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: null\ndata: {a: \"1\"}\n"
  "ns-empty|apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: \"\"\ndata: {a: \"1\"}\n"
  "labels-null|apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  labels: null\ndata: {a: \"1\"}\n"
  "labels-empty|apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  labels:\ndata: {a: \"1\"}\n"
  "annotations-null|apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  annotations: null\n  labels: {k: v}\ndata: {a: \"1\"}\n"
  "comment-docs|# only a comment\n---\n# another one\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: {a: \"1\"}\n---\n# trailing\n"
  "list|apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: %s}\n  data: {a: \"1\"}\n"
  "bom|\xef\xbb\xbfapiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: {a: \"1\"}\n"
  "crlf|apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: %s\r\n  labels:\r\n    k: v\r\ndata:\r\n  a: \"1\"\r\n  b: |\r\n    two\r\n    lines\r\n"
  "all-at-once|\xef\xbb\xbf# head\r\n---\r\napiVersion: v1\r\nkind: List\r\nitems:\r\n- apiVersion: v1\r\n  kind: ConfigMap\r\n  metadata:\r\n    name: %s\r\n    namespace:\r\n    labels:\r\n    annotations: null\r\n  data: {a: \"1\"}\r\n"
)

manifests=""
for q in "${quirks[@]}"; do
  name=${q%%|*}
  printf -- "${q#*|}" "q-$name" > "files/$name.yaml"
  manifests+="    - {name: q$s-$name, type: manifests, path: ./files/$name.yaml}"$'\n'
done
printf 'spec:\n  manifests:\n%s' "$manifests" > tazuna.yaml

# The object as each tool left it: namespace, data, labels and annotations, less what only one tool adds.
live() {
  kubectl get configmap "$1" -n "$2" -o json 2>/dev/null | python3 -c '
import json, sys
o = json.load(sys.stdin); m = o["metadata"]
drop = ("kubectl.kubernetes.io/last-applied-configuration", "tazuna.pepabo.com/", "app.kubernetes.io/managed-by",
        "applyset.kubernetes.io/part-of")
clean = lambda d: {k: v for k, v in (d or {}).items() if not k.startswith(drop)}
print(json.dumps({"namespace": m["namespace"], "labels": clean(m.get("labels")),
                  "annotations": clean(m.get("annotations")), "data": o.get("data")}, sort_keys=True))'
}

expect_rc 0 "build accepts every quirk" kubectl tazuna build
build_out=$OUT
expect_not_contains "$build_out" ": null" "build prints no null value"
expect_rc 0 "sync accepts every quirk" kubectl tazuna state sync -n "$nt"
table="QUIRK               KUBECTL              TAZUNA               SAME"
for q in "${quirks[@]}"; do
  name=${q%%|*}
  run kubectl apply -f "files/$name.yaml" -n "$nk"
  k_rc=$RC
  k_live=$(live "q-$name" "$nk" | sed "s/\"$nk\"/\"NS\"/")
  t_live=$(live "q-$name" "$nt" | sed "s/\"$nt\"/\"NS\"/")
  k_word=$([ "$k_rc" = 0 ] && echo "applied" || echo "refused rc=$k_rc")
  t_word=$([ -n "$t_live" ] && echo "synced" || echo "missing")
  same=$([ -n "$k_live" ] && [ "$k_live" = "$t_live" ] && echo yes || echo NO)
  table+=$'\n'$(printf '%-19s %-20s %-20s %s' "$name" "$k_word" "$t_word" "$same")
  expect_eq "$k_rc" "0" "kubectl applies $name"
  expect_eq "$t_live" "$k_live" "$name: tazuna's live object equals kubectl's"
  expect_contains "$build_out" "name: q-$name" "$name: build renders it"
done
echo "$table"
expect_rc 0 "diff after the sync is clean (-n $nt)" kubectl tazuna state diff -n "$nt"
expect_eq "$OUT" "No changes detected." "no false diff for any quirk"
expect_rc 0 "drift finds nothing" kubectl tazuna state drift -n "$nt"
expect_not_contains "$OUT$ERR" "live-missing" "no object reads as live-missing"

for q in "${quirks[@]}"; do kubectl delete cm -n tazuna "tazuna-state-q$s-${q%%|*}" >/dev/null 2>&1; done
kubectl delete ns "$nk" "$nt" --wait=false >/dev/null 2>&1
finish
