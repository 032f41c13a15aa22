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
