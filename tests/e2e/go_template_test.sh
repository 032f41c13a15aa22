#!/usr/bin/env bash
# e2e (#32): tazuna.yaml is a Go text/template. `if`/`eq` on .Environment picks manifests, and sync puts
# exactly those in the cluster. `state list` needs no loadable tazuna.yaml to list what the cluster holds
# (--all, or a ./tazuna.yaml found by default whose names need -e) and takes -e. Takes about 10 s.
source "$(dirname "$0")/lib.sh"

m=gt$RANDOM
ns=$(new_namespace gt)
repo=$E2E_TMP/repo
mkdir -p "$repo/base" "$repo/extra"
cat > "$repo/tazuna.yaml" <<EOF
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  environments:
    dev: {}
    prod: {}
  manifests:
{{- /* one manifest per environment, one more in prod only */}}
    - name: $m-base-{{ .Environment }}
      type: manifests
      path: ./base
      manifests: {defaultNamespace: "$ns-{{ .Environment }}"}
{{- if eq .Environment "prod" }}
    - name: $m-extra
      type: manifests
      path: ./extra
      manifests: {defaultNamespace: $ns-prod}
{{- else if not .Environment }}
{{- fail "never reached: fail is not a text/template builtin" }}
{{- end }}
EOF
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: base\ndata:\n  v: "1"\n' > "$repo/base/cm.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\ndata:\n  v: "1"\n' > "$repo/extra/cm.yaml"
kubectl create namespace "$ns-dev" >/dev/null
kubectl create namespace "$ns-prod" >/dev/null
cd "$repo"

# --- the template picks the manifests per environment ---
expect_rc 2 "a function text/template does not have is a parse error" kubectl tazuna build
expect_contains "$ERR" 'tazuna.yaml:19:5: template: function "fail" not defined' "file:line:col, Go's message"
sed -i '/fail "never reached/d; /else if not .Environment/d' tazuna.yaml
expect_rc 0 "build -e dev" kubectl tazuna build -e dev
expect_eq "$(printf '%s\n' "$OUT" | grep -c '^kind: ConfigMap')" "1" "dev: one object"
expect_contains "$OUT" "namespace: $ns-dev" "dev: {{ .Environment }} in defaultNamespace"
expect_rc 0 "sync -e dev" kubectl tazuna state sync -e dev
expect_rc 0 "sync -e prod" kubectl tazuna state sync -e prod
[ -n "$(uid cm base -n "$ns-dev")" ] && pass "dev: base is live" || fail "dev: base missing"
[ -n "$(uid cm base -n "$ns-prod")" ] && pass "prod: base is live" || fail "prod: base missing"
[ -n "$(uid cm extra -n "$ns-prod")" ] && pass "prod: the if branch's manifest is live" || fail "prod: extra missing"
[ -z "$(uid cm extra -n "$ns-dev")" ] && pass "dev: no extra" || fail "dev: extra applied"
expect_eq "$(state_keys "$m-extra")" "$m-extra____v1__ConfigMap__$ns-prod__extra" "state of the if branch's manifest"

# --- state list: -e, and no loadable tazuna.yaml needed to list the cluster ---
expect_rc 0 "state list -e prod" kubectl tazuna state list -e prod
expect_contains "$OUT" "$m-base-prod" "-e prod: the prod base manifest"
expect_contains "$OUT" "$m-extra" "-e prod: the prod-only manifest"
expect_not_contains "$OUT" "$m-base-dev" "-e prod: not the dev manifest"
expect_rc 0 "state list --all without -e" kubectl tazuna state list --all -o wide
for name in "$m-base-dev" "$m-base-prod" "$m-extra"; do expect_contains "$OUT" "$name" "--all lists $name"; done
expect_rc 0 "state list --all -e dev" kubectl tazuna state list --all -e dev -o wide
row=$(printf '%s\n' "$OUT" | grep "^$m-extra ")
expect_contains "$row" "ORPHANED" "--all -e dev: the prod-only manifest is not in the file"
row=$(printf '%s\n' "$OUT" | grep "^$m-base-dev ")
expect_contains "$row" "active" "--all -e dev: the dev manifest is in the file"
expect_rc 0 "state list with a default tazuna.yaml that needs -e" kubectl tazuna state list
expect_contains "$OUT" "$m-base-prod" "everything in the cluster listed"
expect_contains "$ERR" "Warning: tazuna.yaml not read, listing every state in the cluster" "the skipped file is said"
expect_rc 2 "state list -f tazuna.yaml without -e: the named file must load" kubectl tazuna state list -f tazuna.yaml
expect_rc 2 "state list -e nope" kubectl tazuna state list -f tazuna.yaml -e nope
expect_contains "$ERR" 'environment "nope" (from -e) is not declared' "an undeclared -e is an error when -f is named"

kubectl delete namespace "$ns-dev" "$ns-prod" --wait=false >/dev/null
kubectl delete configmap -n tazuna "tazuna-state-$m-base-dev" "tazuna-state-$m-base-prod" "tazuna-state-$m-extra" >/dev/null
finish
