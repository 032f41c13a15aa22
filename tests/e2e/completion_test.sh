#!/usr/bin/env bash
# Shell completion: for `kubectl tazuna <TAB>` kubectl (1.26+) runs kubectl_complete-tazuna with the words
# typed so far plus the word being completed, and relays cobra's protocol: one candidate per line, then
# `:<directive>` (4 = no file completion). Subcommands, flags, manifest names from the tazuna.yaml in use
# and kubeconfig contexts are completed.
source "$(dirname "$0")/lib.sh"

helper=$TAZUNA_BUILD_DIR/kubectl_complete-tazuna
if [ -x "$helper" ]; then pass "completion helper built"; else fail "no $helper"; fi

# kubectl completes plugins from v1.26 on; an older one (a distribution's dispatcher) cannot be the judge.
minor=$(kubectl version --client -o json 2>/dev/null | python3 -c 'import json,sys
print(int(json.load(sys.stdin)["clientVersion"]["minor"].rstrip("+")))' 2>/dev/null || echo 0)
if [ "$minor" -ge 26 ]; then
  pass "kubectl 1.$minor supports plugin completion"
  complete_cmd=(kubectl __complete tazuna)
else
  fail "kubectl 1.$minor predates plugin completion (1.26); set TAZUNA_K8S_BIN_DIR to the control plane's kubectl"
  complete_cmd=("$helper")
fi

# complete DESC WANT WORDS...: completes `kubectl tazuna WORDS...` and checks the candidates (space
# separated, sorted) and the no-file-completion directive.
complete() {
  local desc=$1 want=$2; shift 2
  run "${complete_cmd[@]}" "$@"
  local got directive
  got=$(grep -v '^:' <<<"$OUT" | sed '/^$/d' | sort | tr '\n' ' ')
  directive=$(grep '^:' <<<"$OUT" | tail -1)
  expect_eq "${got% }" "$want" "$desc"
  expect_eq "$directive" ":4" "$desc: directive"
}

# The helper speaks the protocol on its own, as kubectl expects.
run "$helper" sta
expect_eq "$OUT" $'state\n:4' "helper alone: sta -> state, then :4"

complete "subcommand: sta" "state" sta
complete "subcommand of state: d" "delete diff drift" state d
complete "subcommand of state: di" "diff" state di
complete "flag: state sync --pr" "--prune" state sync --pr

# Manifest names come from the tazuna.yaml in the current directory, or the one -f names.
mkdir -p "$E2E_TMP/platform" "$E2E_TMP/other"
cat > "$E2E_TMP/platform/tazuna.yaml" <<'YAML'
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  environments: {dev: {}, prod: {}}
  manifests:
    - {name: namespaces, type: manifests, path: ./namespaces, tags: [base]}
    - {name: cert-manager, type: manifests, path: ./cert-manager, tags: [base, certs]}
    - {name: cilium, type: manifests, path: ./cilium, tags: [net], tests: [{type: WaitUntil}]}
YAML
cat > "$E2E_TMP/other/tazuna.yaml" <<'YAML'
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - {name: elsewhere, type: manifests, path: ./x}
YAML
cd "$E2E_TMP/platform" || exit 1
complete "-m lists the manifests of ./tazuna.yaml" "cert-manager cilium namespaces" state diff -m ""
complete "-m c narrows to names starting with c" "cert-manager cilium" state sync -m c
run "$helper" state sync -m c
expect_eq "$ERR" "" "completion prints no warning about the tests it does not run"
complete "--manifest lists them too" "cert-manager cilium namespaces" state list --manifest ""
complete "-f picks the tazuna.yaml" "elsewhere" state diff -f "$E2E_TMP/other/tazuna.yaml" -m ""
complete "-t lists the tags of the manifests" "base certs net" state diff -t ""
complete "--tags c narrows" "certs" state sync --tags c
complete "-e lists spec.environments" "dev prod" build -e ""
# File flags leave completion to the shell: -f with the extensions kubectl's -f names (FilterFileExt).
run "${complete_cmd[@]}" state diff -f ""
expect_eq "$OUT" $'yaml\nyml\n:8' "-f: yaml/yml files (cobra's FilterFileExt directive)"
for flag in --plan --out --kubeconfig; do
  run "${complete_cmd[@]}" state diff "$flag" ""
  expect_eq "$OUT" ":0" "$flag: file names (cobra's default directive)"
done
cd "$REPO_DIR" || exit 1

# Contexts come from the kubeconfig in use (KUBECONFIG: the local control plane's).
complete "--context lists the kubeconfig's contexts" "admin admin-token exec viewer" state list --context ""
complete "--context a narrows" "admin admin-token" version --context a
complete "--context=a completes the value after =" "--context=admin --context=admin-token" state diff --context=a
complete "-o lists the output formats" "json name table wide yaml" state list -o ""

# Namespaces come from the cluster the command would talk to (one LIST); errors give no candidates.
cns=$(new_namespace compl)
kubectl create namespace "$cns" >/dev/null
run "${complete_cmd[@]}" state list -n ""
expect_eq "$(grep -cx -e "$cns" -e default <<<"$OUT")" "2" "-n lists the cluster's namespaces: default and the new one"
expect_eq "$(grep '^:' <<<"$OUT")" ":4" "-n: directive"
complete "-n with the namespace's prefix narrows to it" "$cns" state diff -n "${cns%-*}"
complete "--namespace= completes after =" "--namespace=$cns" state sync --namespace="$cns"
run "$helper" state list --server https://127.0.0.1:1 -n ""
expect_eq "$OUT" ":4" "unreachable --server: no candidates, only the directive"
expect_eq "$ERR" "" "unreachable --server: no error message"

# Revision ids after `state history`, state keys after `state forget`: read from the cluster, as -n is.
m=compl$RANDOM
repo=$E2E_TMP/crepo
one_manifest "$repo" "$m"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c1, namespace: %s}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c2, namespace: %s}\n' \
  "$cns" "$cns" > "$repo/objs/all.yaml"
(cd "$repo" && kubectl tazuna state sync >/dev/null 2>&1)
rev=$(kubectl tazuna state history -m "$m" -o json | python3 -c 'import json,sys; print(json.load(sys.stdin)["items"][0]["id"])')
run "${complete_cmd[@]}" state history ""
expect_eq "$(grep -cx -e "$rev" <<<"$OUT")" "1" "state history lists revision ids, this sync's among them"
complete "a revision id's prefix narrows to it" "$rev" state history "${rev:0:20}"
complete "state history takes one revision" "" state history "$rev" ""
complete "state forget -m lists that state's keys" "${m}//v1/ConfigMap/${cns}/c1 ${m}//v1/ConfigMap/${cns}/c2" \
  state forget -m "$m" ""
run "${complete_cmd[@]}" state forget "${m}//v1/ConfigMap/${cns}/c"
expect_eq "$(grep -c "^${m}//" <<<"$OUT")" "2" "state forget without -m narrows every state's keys by prefix"
complete "state forget --orphaned takes no keys" "" state forget --orphaned ""
run "$helper" state history --server https://127.0.0.1:1 ""
expect_eq "$OUT" ":4" "unreachable --server: no revisions, only the directive"
(cd "$repo" && kubectl tazuna state delete -m "$m" >/dev/null 2>&1)
kubectl delete namespace "$cns" --wait=false >/dev/null
finish
