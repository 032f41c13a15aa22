#!/usr/bin/env bash
# Records answers of a real kube-apiserver as seeds for the api_answers fuzz target: writes
# tests/testdata/api_answers/<status>-<name>.json (the body as the server sent it); make_corpus.py turns
# them into tests/fuzz/corpus/api_answers/seed-*. Run against `scripts/cluster up` (KUBECONFIG exported,
# client certificate files); it creates and deletes namespace fuzz-record and objects in namespace tazuna.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=tests/testdata/api_answers
mkdir -p "$out"
server=$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.server}')
cert=$(kubectl config view --minify -o jsonpath='{.users[0].user.client-certificate}')
key=$(kubectl config view --minify -o jsonpath='{.users[0].user.client-key}')
ca=$(kubectl config view --minify -o jsonpath='{.clusters[0].cluster.certificate-authority}')
# rec NAME METHOD PATH [ACCEPT] [CONTENT-TYPE BODY]: one request; the answer goes to <status>-NAME.json.
rec() {
  local name=$1 method=$2 path=$3 accept=${4:-application/json} ctype=${5:-} body=${6:-}
  local args=(-sS --cacert "$ca" --cert "$cert" --key "$key" -X "$method" -H "Accept: $accept" -o "$out/tmp" -w '%{http_code}')
  [ -n "$ctype" ] && args+=(-H "Content-Type: $ctype" --data-binary "$body")
  local status
  status=$(curl "${args[@]}" "$server$path")
  mv "$out/tmp" "$out/$status-$name.json"
}
agg="application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
meta_list="application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
ns=fuzz-record
kubectl create namespace "$ns" >/dev/null
kubectl create namespace tazuna >/dev/null 2>&1 || true
printf 'apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: %s}\nstringData: {password: fuzz-seed-value}\n' "$ns" |
  kubectl apply -f - >/dev/null
kubectl create configmap -n "$ns" a --from-literal=k=1 >/dev/null
kubectl create configmap -n "$ns" b --from-literal=k=2 >/dev/null
kubectl create configmap -n tazuna tazuna-state-fuzz \
  --from-literal=_metadata='{"gitCommitHash":"","lastSyncedAt":"2026-01-01T00:00:00Z","shards":["tazuna-state-fuzz.0a1b2c3d.1"]}' \
  --from-literal=fuzz____v1__ConfigMap__fuzz-record__a='{"contentHash":"0249f181d3152337422031bf3ab1e1be25cbe74b0a672e1865bf6bcefd5b4a06"}' \
  >/dev/null
kubectl create configmap -n tazuna tazuna-state-fuzz.0a1b2c3d.1 \
  --from-literal=fuzz____v1__Secret__fuzz-record__s='{"contentHash":"878488370a68d67f02c52019b1df7d24fc373f97b200ea42ca656e41d86c47a4"}' >/dev/null
rec discovery-core GET /api "$agg"
rec discovery-apis GET /apis "$agg"
rec resourcelist-v1 GET /api/v1
rec grouplist GET /apis application/json
rec status-notfound GET "/api/v1/namespaces/$ns/configmaps/missing"
rec list-page GET "/api/v1/namespaces/$ns/configmaps?limit=1"
rec secret GET "/api/v1/namespaces/$ns/secrets/s"
rec secret-metadata-list GET "/api/v1/namespaces/$ns/secrets" "$meta_list"
rec state-configmap GET /api/v1/namespaces/tazuna/configmaps/tazuna-state-fuzz
rec state-shard GET /api/v1/namespaces/tazuna/configmaps/tazuna-state-fuzz.0a1b2c3d.1
rec status-invalid POST "/api/v1/namespaces/$ns/configmaps" application/json application/json \
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"Not_Valid"}}'
rec status-conflict PUT "/api/v1/namespaces/$ns/configmaps/a" application/json application/json \
  '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","resourceVersion":"1"}}'
rec status-typed-patch PATCH "/api/v1/namespaces/$ns/secrets/bad?fieldManager=tazuna&force=true" application/json \
  application/apply-patch+yaml '{"apiVersion":"v1","kind":"Secret","metadata":{"name":"bad"},"stringData":{"p":["fuzz-seed-echo"]}}'
rec lease-created POST /apis/coordination.k8s.io/v1/namespaces/tazuna/leases application/json application/json \
  '{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"fuzz-lease"},"spec":{"holderIdentity":"h","leaseDurationSeconds":15}}'
rec selfsubjectreview POST /apis/authentication.k8s.io/v1/selfsubjectreviews application/json application/json \
  '{"apiVersion":"authentication.k8s.io/v1","kind":"SelfSubjectReview"}'
kubectl delete lease -n tazuna fuzz-lease >/dev/null
kubectl delete configmap -n tazuna tazuna-state-fuzz tazuna-state-fuzz.0a1b2c3d.1 >/dev/null
kubectl delete namespace "$ns" --wait=false >/dev/null
ls "$out"
