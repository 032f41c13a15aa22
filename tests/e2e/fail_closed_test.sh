#!/usr/bin/env bash
# Checks that cannot answer refuse, never pass:
# 1. Cluster identity is known or refused. A user without get on namespace kube-system (viewer, bound to a Role
#    in namespace tazuna and in one test namespace) reaches the one cluster through two URLs (127.0.0.1 and
#    localhost): a rollout over both contexts is refused, and so is a plan, until an identity can be read (the
#    uid of ConfigMap tazuna/kube-root-ca.crt, which the control plane publishes in every namespace; made here
#    by hand, as this local control plane runs without that controller) or --insecure-skip-cluster-identity
#    accepts the risk. A plan pins what it read; a rebuilt identity refuses it.
# 2. A plan pins the whole rendered object: an unreviewed edit of status (an ordinary field of a custom
#    resource whose CRD has no status subresource, left out of the state's hash) makes the plan stale.
# Takes ~20 s.
source "$(dirname "$0")/lib.sh"

s=$RANDOM
ns=$(new_namespace fc)
server=$(kubectl config view --raw -o jsonpath='{.clusters[?(@.name=="local")].cluster.server}')
ca=$(kubectl config view --raw -o jsonpath='{.clusters[?(@.name=="local")].cluster.certificate-authority}')
cert=$(kubectl config view --raw -o jsonpath='{.users[?(@.name=="viewer")].user.client-certificate}')
key=$(kubectl config view --raw -o jsonpath='{.users[?(@.name=="viewer")].user.client-key}')
kc=$E2E_TMP/two-urls.kubeconfig
k2() { kubectl --kubeconfig "$kc" "$@"; }
k2 config set-cluster by-ip --server "$server" --certificate-authority "$ca" >/dev/null
k2 config set-cluster by-name --server "${server/127.0.0.1/localhost}" --certificate-authority "$ca" >/dev/null
k2 config set-credentials viewer --client-certificate "$cert" --client-key "$key" >/dev/null
k2 config set-credentials admin --client-certificate "$(kubectl config view --raw -o jsonpath='{.users[?(@.name=="admin")].user.client-certificate}')" \
  --client-key "$(kubectl config view --raw -o jsonpath='{.users[?(@.name=="admin")].user.client-key}')" >/dev/null
k2 config set-context va --cluster by-ip --user viewer --namespace "$ns" >/dev/null
k2 config set-context vb --cluster by-name --user viewer --namespace "$ns" >/dev/null
k2 config set-context admin --cluster by-ip --user admin >/dev/null
k2 config use-context va >/dev/null

# viewer may do what a sync of namespace $ns needs (and get namespaces tazuna and $ns), no get on kube-system.
kubectl create namespace "$ns" >/dev/null
for where in tazuna "$ns"; do
  kubectl create role "fc-$s" -n "$where" --verb='*' --resource=configmaps,leases.coordination.k8s.io >/dev/null
  kubectl create rolebinding "fc-$s" -n "$where" --role "fc-$s" --user viewer >/dev/null
done
kubectl create clusterrole "fc-$s" --verb=get --resource=namespaces --resource-name=tazuna --resource-name="$ns" >/dev/null
kubectl create clusterrolebinding "fc-$s" --clusterrole "fc-$s" --user viewer >/dev/null
kubectl delete configmap -n tazuna kube-root-ca.crt --ignore-not-found >/dev/null

m=fc$s
repo=$E2E_TMP/repo
one_manifest "$repo" "$m"
repo_at "$repo" "https://github.com/e2e-fail-closed/$m.git"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {v: "1"}\n' > "$repo/objs/c.yaml"
cd "$repo"
export KUBECONFIG=$kc

# --- 1a. Nothing identifies the cluster: the rollout is refused before anything is written.
expect_rc 2 "a rollout over two URLs of one cluster, identity unreadable, is refused" \
  kubectl tazuna state sync --prune --contexts va,vb
expect_contains "$ERR" "cannot tell which cluster context \"va\" reaches, so a rollout over contexts could act on the wrong one" \
  "the error says which context cannot be identified"
expect_contains "$ERR" "Grant the user get on namespace kube-system" "the hint says what to grant"
expect_contains "$ERR" "--insecure-skip-cluster-identity" "the hint names the flag that accepts the risk"
expect_eq "$(kubectl --context admin get cm c -n "$ns" -o name 2>/dev/null)" "" "nothing was written"
expect_rc 2 "a plan where identity is unreadable is refused" kubectl tazuna state diff --out "$E2E_TMP/p0.json"
expect_contains "$ERR" "so a plan could act on the wrong one" "the plan's refusal says why"
[ -e "$E2E_TMP/p0.json" ] && fail "the refused plan was written" || pass "the refused plan was not written"

# --- 1b. The risk accepted by name: the rollout runs; a plan made so applies only with the flag again.
expect_rc 0 "--insecure-skip-cluster-identity runs the rollout" \
  kubectl tazuna state sync --contexts va,vb --insecure-skip-cluster-identity
expect_eq "$(kubectl --context admin get cm c -n "$ns" -o jsonpath='{.data.v}')" "1" "the object was applied"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {v: "2"}\n' > "$repo/objs/c.yaml"
expect_rc 1 "a plan with the risk accepted" kubectl tazuna state diff --out "$E2E_TMP/p1.json" --insecure-skip-cluster-identity
expect_rc 2 "that plan without the flag is refused" kubectl tazuna state sync --plan "$E2E_TMP/p1.json"
expect_contains "$ERR" "cannot tell which cluster context \"va\" reaches" "the sync says why"

# --- 1c. The root CA ConfigMap identifies the cluster: two URLs of it are one cluster; a plan pins it.
kubectl --context admin create configmap -n tazuna kube-root-ca.crt --from-file=ca.crt="$ca" >/dev/null
root_uid=$(kubectl --context admin get cm -n tazuna kube-root-ca.crt -o jsonpath='{.metadata.uid}')
expect_rc 2 "a rollout over two URLs of one cluster is refused" kubectl tazuna state sync --prune --contexts va,vb
expect_contains "$ERR" "contexts \"va\" and \"vb\" reach the same cluster (kube-root-ca.crt uid $root_uid)" \
  "identified by the root CA ConfigMap"
expect_rc 1 "a plan pinned to the root CA ConfigMap" kubectl tazuna state diff --out "$E2E_TMP/p2.json"
expect_eq "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["target"]["clusterRootCAUID"])' "$E2E_TMP/p2.json")" \
  "$root_uid" "the plan pins the ConfigMap's uid"
kubectl --context admin delete configmap -n tazuna kube-root-ca.crt >/dev/null
kubectl --context admin create configmap -n tazuna kube-root-ca.crt --from-file=ca.crt="$ca" >/dev/null
expect_rc 2 "the plan on a rebuilt identity is refused" kubectl tazuna state sync --plan "$E2E_TMP/p2.json"
expect_contains "$ERR" "plan was made for the cluster whose ConfigMap tazuna/kube-root-ca.crt has uid $root_uid" \
  "the refusal names the pinned identity"
expect_eq "$(kubectl --context admin get cm c -n "$ns" -o jsonpath='{.data.v}')" "1" "nothing was written"
expect_rc 1 "a new plan" kubectl tazuna state diff --out "$E2E_TMP/p3.json"
expect_rc 0 "applies on the same identity" kubectl tazuna state sync --plan "$E2E_TMP/p3.json"
expect_eq "$(kubectl --context admin get cm c -n "$ns" -o jsonpath='{.data.v}')" "2" "the plan was applied"
kubectl --context admin delete configmap -n tazuna kube-root-ca.crt >/dev/null

# --- 2. A status-only edit after the review (a CRD without a status subresource applies status).
export KUBECONFIG=${kc%/*}/admin.kubeconfig
k2 config view --raw > "$KUBECONFIG"
kubectl config use-context admin >/dev/null
group=fc$s.example.com
crd_doc widgets "$group" Widget Namespaced v1:true:true | kubectl apply -f - >/dev/null
established "widgets.$group"
m2=fcs$s
repo2=$E2E_TMP/repo2
one_manifest "$repo2" "$m2"
repo_at "$repo2" "https://github.com/e2e-fail-closed/$m2.git"
widget() { printf 'apiVersion: %s/v1\nkind: Widget\nmetadata: {name: w, namespace: %s}\nspec: {size: %s}\nstatus: {phase: %s}\n' \
  "$group" "$ns" "$1" "$2" > "$repo2/objs/w.yaml"; }
widget 1 reviewed
cd "$repo2"
expect_rc 0 "the widget is synced" kubectl tazuna state sync
widget 2 reviewed
expect_rc 1 "a plan of spec.size 2" kubectl tazuna state diff --out "$E2E_TMP/ps.json"
widget 2 unreviewed
expect_rc 2 "a status-only edit after the review makes the plan stale" kubectl tazuna state sync --plan "$E2E_TMP/ps.json"
expect_contains "$ERR" "renders differently than planned (in a field the state's hash leaves out, such as status)" "says why"
expect_eq "$(kubectl get "widgets.$group" w -n "$ns" -o jsonpath='{.spec.size}/{.status.phase}')" "1/reviewed" "nothing was written"
widget 2 reviewed
expect_rc 0 "the plan as reviewed applies" kubectl tazuna state sync --plan "$E2E_TMP/ps.json"
expect_eq "$(kubectl get "widgets.$group" w -n "$ns" -o jsonpath='{.spec.size}/{.status.phase}')" "2/reviewed" "applied"

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete crd "widgets.$group" --wait=false >/dev/null 2>&1
kubectl delete role,rolebinding -n tazuna "fc-$s" >/dev/null 2>&1
kubectl delete clusterrole,clusterrolebinding "fc-$s" >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$m" "tazuna-state-$m2" >/dev/null 2>&1
finish
