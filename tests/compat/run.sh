#!/usr/bin/env bash
# Compares the C++ YAML typing + ContentHash with the Go oracle on every corpus file.
# Usage: tests/compat/run.sh PATH/TO/compat_yamlhash
# Builds the Go oracle (sigs.k8s.io/yaml from the normal module proxy/cache) into a temporary
# directory outside the repository. Prints "N passed, M failed"; exits non-zero on a mismatch.
set -euo pipefail

if [[ $# -ne 1 || ! -x "$1" ]]; then
  echo "usage: $0 PATH/TO/compat_yamlhash" >&2
  exit 2
fi
cpp_tool=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(cd "$here/../testdata/compat" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tazuna-compat.XXXXXX")
trap 'rm -rf "$work"' EXIT

export GOFLAGS=-mod=mod
(cd "$here" && go build -o "$work/yamlhash-go" ./yamlhash)

passed=0
failed=0
while IFS= read -r -d '' file; do
  rel=${file#"$corpus"/}
  "$work/yamlhash-go" "$file" >"$work/go.out"
  "$cpp_tool" "$file" >"$work/cpp.out"
  if cmp -s "$work/go.out" "$work/cpp.out"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "MISMATCH $rel"
    diff <(tr '\t' '\n' <"$work/go.out") <(tr '\t' '\n' <"$work/cpp.out") | head -n 20 | sed "s/^/  /" || true
  fi
  lines=$(wc -l <"$work/go.out")
  documents=$((${documents:-0} + lines))
done < <(find "$corpus" -name '*.yaml' -print0 | sort -z)

echo "$passed passed, $failed failed (${documents:-0} documents)"
[[ $failed -eq 0 ]]
