# Shared helpers for e2e tests. Each test is a bash script: `source "$(dirname "$0")/lib.sh"`, then checks.
# Environment (set by CTest / scripts/test): TAZUNA_BUILD_DIR (holds kubectl-tazuna), KUBECONFIG (the
# local control plane from scripts/cluster). The built binary is reached through kubectl's plugin lookup.
set -uo pipefail
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO_DIR=$(cd "$E2E_DIR/../.." && pwd)
: "${TAZUNA_BUILD_DIR:=$REPO_DIR/build}"
export PATH="$TAZUNA_BUILD_DIR:$PATH"
export NO_COLOR=1
if [ -n "${TAZUNA_K8S_BIN_DIR:-}" ]; then export PATH="$TAZUNA_K8S_BIN_DIR:$PATH"; fi
E2E_PASSED=0
E2E_FAILED=0
E2E_TMP=$(mktemp -d)
trap 'rm -rf "$E2E_TMP"' EXIT

pass() { E2E_PASSED=$((E2E_PASSED + 1)); echo "ok   - $*"; }
fail() { E2E_FAILED=$((E2E_FAILED + 1)); echo "FAIL - $*"; }

# run CMD...: runs a command, capturing OUT, ERR and RC.
run() {
  OUT=$("$@" 2>"$E2E_TMP/stderr"); RC=$?; ERR=$(cat "$E2E_TMP/stderr")
}

# expect_rc N DESC CMD...: runs CMD and checks its exit code.
expect_rc() {
  local want=$1 desc=$2; shift 2
  run "$@"
  if [ "$RC" = "$want" ]; then pass "$desc (rc=$RC)"; else
    fail "$desc: want rc=$want, got rc=$RC"; echo "  stdout: $(excerpt "$OUT")"; echo "  stderr: $(excerpt "$ERR")"; fi
}

# excerpt TEXT: TEXT, or when long its start and its end (where an error usually is, after -v logs)
excerpt() {
  if [ "${#1}" -le 4000 ]; then printf '%s' "$1"; else printf '%s\n  [...]\n%s' "${1:0:1500}" "${1: -2500}"; fi
}

# expect_contains HAYSTACK NEEDLE DESC
expect_contains() {
  if [[ "$1" == *"$2"* ]]; then pass "$3"; else fail "$3: missing '$2'"; echo "  in: ${1:0:3000}"; fi
}

# expect_not_contains HAYSTACK NEEDLE DESC
expect_not_contains() {
  if [[ "$1" != *"$2"* ]]; then pass "$3"; else fail "$3: unexpected '$2'"; echo "  in: ${1:0:3000}"; fi
}

# expect_eq GOT WANT DESC
expect_eq() {
  if [ "$1" == "$2" ]; then pass "$3"; else fail "$3"; echo "  got:  ${1:0:3000}"; echo "  want: ${2:0:3000}"; fi
}

# new_namespace PREFIX: prints a unique namespace name (not created).
new_namespace() { echo "$1-$(date +%s%N | tail -c 7)-$RANDOM"; }

# tazuna_yaml DIR ENTRY...: writes DIR/tazuna.yaml with one manifest per ENTRY (a flow mapping).
tazuna_yaml() {
  local dir=$1; shift
  mkdir -p "$dir"
  { printf 'apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n'; for e in "$@"; do printf '    - %s\n' "$e"; done; } > "$dir/tazuna.yaml"
}

# one_manifest DIR NAME [FIELDS]: DIR/tazuna.yaml with the one manifest NAME (type manifests, path ./objs, FIELDS
# added to its entry); makes DIR/objs.
one_manifest() {
  mkdir -p "$1/objs"
  tazuna_yaml "$1" "{name: $2, type: manifests, path: ./objs${3:+, $3}}"
}

# repo_at DIR URL: makes DIR a git repository whose remote origin is URL (a state's origin).
repo_at() { git -C "$1" init -q 2>/dev/null && git -C "$1" remote add origin "$2"; }

# uid KUBECTL-GET-ARGS...: the live object's uid, empty when it does not exist.
uid() { kubectl get "$@" -o jsonpath='{.metadata.uid}' 2>/dev/null; }

# state_keys MANIFEST: the data keys of its state ConfigMap, sorted, `_metadata` left out.
state_keys() {
  kubectl get cm -n tazuna "tazuna-state-$1" -o json |
    python3 -c 'import json,sys; print(" ".join(sorted(k for k in json.load(sys.stdin)["data"] if k != "_metadata")))'
}

# sanitizer_build: true when TAZUNA_BUILD_DIR holds the ASan/UBSan build (scripts/test runs the e2e suite with
# it too): long tests may do fewer rounds there.
sanitizer_build() { grep -q '^TAZUNA_SANITIZE:BOOL=ON' "$TAZUNA_BUILD_DIR/CMakeCache.txt" 2>/dev/null; }

# jget KUBECTL-GET-ARGS...: kubectl get with errors dropped (empty output when the object does not exist).
jget() { kubectl get "$@" 2>/dev/null; }

# elapsed_since EPOCH: whole seconds since EPOCH (from date +%s).
elapsed_since() { echo $(( $(date +%s) - $1 )); }

# not_before LATER EARLIER DESC: passes when both RFC 3339 UTC times are set and LATER >= EARLIER.
not_before() {
  if [ -n "$1" ] && [ -n "$2" ] && [[ ! "$1" < "$2" ]]; then pass "$3 ($1 >= $2)"; else fail "$3: '$1' vs '$2'"; fi
}

# two_layers DIR BASE TOP [FIELDS]: DIR/tazuna.yaml with manifest BASE (path ./base, FIELDS added to its
# entry) and TOP (path ./top, dependsOn BASE); makes both directories and changes into DIR.
two_layers() {
  mkdir -p "$1/base" "$1/top"
  tazuna_yaml "$1" "{name: $2, type: manifests, path: ./base${4:+, $4}}" "{name: $3, type: manifests, path: ./top, dependsOn: [$2]}"
  cd "$1" || return 1
}

# crd_doc PLURAL GROUP KIND SCOPE VERSION...: a CustomResourceDefinition of PLURAL.GROUP. Each VERSION is
# NAME:SERVED:STORAGE[:status[:SCHEMA]]: `status` adds a status subresource; SCHEMA, a flow mapping (newlines
# allowed), is its openAPIV3Schema, by default one that keeps any field. E.g. v1:true:true:status, v2:true:false.
crd_doc() {
  local plural=$1 group=$2 kind=$3 scope=$4 any='{type: object, x-kubernetes-preserve-unknown-fields: true}'
  local v name served storage sub schema; shift 4
  printf 'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: %s.%s}\nspec:\n  group: %s\n  scope: %s\n  names: {plural: %s, kind: %s}\n  versions:\n' \
    "$plural" "$group" "$group" "$scope" "$plural" "$kind"
  for v in "$@"; do
    IFS=: read -r name served storage sub schema <<<"${v//$'\n'/ }"
    [ -n "$sub" ] && sub='subresources: {status: {}}, '
    printf '    - {name: %s, served: %s, storage: %s, %sschema: {openAPIV3Schema: %s}}\n' \
      "$name" "$served" "$storage" "$sub" "${schema:-$any}"
  done
}

# established CRD-NAME...: waits (up to 30 s) until the server serves each CustomResourceDefinition.
established() { kubectl wait --for=condition=Established "${@/#/crd/}" --timeout=30s >/dev/null; }

# cm_doc NAME NAMESPACE [DATA]: a ConfigMap document and a `---` after it (DATA a flow mapping, default {v: "1"}).
cm_doc() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: %s\n---\n' "$1" "$2" "${3:-{v: \"1\"\}}"; }

# deployment_doc NAME NAMESPACE [IMAGE]: a Deployment of one pod (container NAME) and a `---` after it.
deployment_doc() {
  printf 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: %s, namespace: %s}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: %s}}\n  template:\n    metadata: {labels: {app: %s}}\n    spec: {containers: [{name: %s, image: %s}]}\n---\n' \
    "$1" "$2" "$1" "$1" "$1" "${3:-registry.example/$1:1}"
}

# go_state MANIFEST SYNCED-AT COMMIT KEY=HASH...: applies MANIFEST's state ConfigMap as the Go tool writes it
# (no origin): a contentHash per state KEY (in its encoded form), _metadata with COMMIT and SYNCED-AT.
go_state() {
  local m=$1 at=$2 commit=$3 e; shift 3
  { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: tazuna-state-%s, namespace: tazuna}\ndata:\n' "$m"
    printf '  _metadata: '\''{"gitCommitHash":"%s","lastSyncedAt":"%s"}'\''\n' "$commit" "$at"
    for e in "$@"; do printf '  %s: '\''{"contentHash":"%s"}'\''\n' "${e%%=*}" "${e#*=}"; done
  } | kubectl apply -f - >/dev/null
}

# secret_repo DIR NAME VAR NAMESPACE [FIELDS]: DIR/tazuna.yaml with provider local-env (DIR/secrets.env, which
# sets VAR), manifest NAME (path ./objs, FIELDS added to its entry) and NAME-sec, a GenesisSecret (DIR/secret.yaml)
# putting VAR into key `token` of Secret NAMESPACE/api.
secret_repo() {
  mkdir -p "$1/objs"
  printf '%s=not-a-real-token\n' "$3" > "$1/secrets.env"
  cat > "$1/secret.yaml" <<EOF
apiVersion: tazuna.pepabo.com/v1
kind: GenesisSecret
spec:
  provider: local-env
  secrets:
    - uri: op://example.1password.com/vault/item
      items:
        $3: {mapTo: token}
  outputs:
    - kubernetesSecret: {namespace: $4, name: api}
EOF
  cat > "$1/tazuna.yaml" <<EOF
apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  providers:
    - {name: local-env, type: envfile, envfile: {path: ./secrets.env}}
  manifests:
    - {name: $2, type: manifests, path: ./objs${5:+, $5}}
    - {name: $2-sec, type: genesissecret, path: ./secret.yaml}
EOF
}

# now: the current time as the API server writes it (RFC 3339 UTC, whole seconds).
now() { date -u +%Y-%m-%dT%H:%M:%SZ; }

# configmap NAME [V]: a ConfigMap document in namespace $ns with data v: V (default 1).
configmap() { printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {v: "%s"}\n' "$1" "$ns" "${2:-1}"; }

# cm_written NAME: when tazuna last wrote ConfigMap NAME in namespace $ns (its managedFields time).
cm_written() { jget cm "$1" -n "$ns" -o jsonpath='{.metadata.managedFields[?(@.manager=="tazuna")].time}'; }

# hold_sync_lease HOLDER SECONDS: the sync Lease tazuna/tazuna-sync held by HOLDER, renewed now, for SECONDS.
hold_sync_lease() {
  local now; now=$(date -u +%Y-%m-%dT%H:%M:%S.000000Z)
  printf 'apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: tazuna-sync, namespace: tazuna}\nspec: {holderIdentity: %s, leaseDurationSeconds: %s, renewTime: "%s", acquireTime: "%s"}\n' \
    "$1" "$2" "$now" "$now" | kubectl apply -f - >/dev/null 2>&1
}

# poll_until CMD...: runs CMD (output dropped) every 0.2 s until it succeeds, for 90 s at most.
poll_until() { local n=0; until "$@" >/dev/null 2>&1 || [ $((n += 1)) -gt 450 ]; do sleep 0.2; done; }

# timed_rc N DESC PID CMD...: expect_rc N DESC CMD..., then waits for the background job PID (none when
# empty); sets took, the whole seconds from CMD's start until then.
timed_rc() {
  local want=$1 desc=$2 pid=$3 t0; shift 3
  t0=$(date +%s)
  expect_rc "$want" "$desc" "$@"
  [ -z "$pid" ] || wait "$pid"
  took=$(elapsed_since "$t0")
}

# took_within MIN MAX DESC: passes "DESC (Ns)" when MIN <= $took <= MAX (an empty MIN or MAX: no such bound).
took_within() {
  if { [ -z "$1" ] || [ "$took" -ge "$1" ]; } && { [ -z "$2" ] || [ "$took" -le "$2" ]; }; then pass "$3 (${took}s)"
  else fail "$3: took ${took}s (want ${1:-0}-${2:-})"; fi
}

# path_without_plugin: $PATH less every entry that holds a kubectl-tazuna (lib.sh put the build dir
# first), for tests that must reach an installed plugin instead of a build.
path_without_plugin() {
  local d dirs out=""
  IFS=: read -ra dirs <<<"$PATH"
  for d in "${dirs[@]}"; do
    [ -n "$d" ] && [ ! -e "$d/kubectl-tazuna" ] && out+="${out:+:}$d"
  done
  echo "$out"
}

# finish: prints the closing line and exits non-zero on any failure.
finish() {
  echo "$E2E_PASSED passed, $E2E_FAILED failed"
  [ "$E2E_FAILED" -eq 0 ]
}
