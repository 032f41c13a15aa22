#!/usr/bin/env bash
# The fast block-YAML reader (util/yaml_block) against yaml-cpp on real YAML: every .yaml/.yml file of
# this repository and of the Go module cache (Kubernetes, helm, operators' CRDs and charts fetched as
# Go modules). Fails on any file where both read documents and they differ.
# Usage: tests/compat/yaml_block_sweep.sh PATH/TO/yaml_block_sweep [DIR...]
set -euo pipefail
if [[ $# -lt 1 || ! -x "$1" ]]; then
  echo "usage: $0 PATH/TO/yaml_block_sweep [DIR...]" >&2
  exit 2
fi
tool=$1; shift
here=$(cd "$(dirname "$0")/../.." && pwd)
dirs=("$@")
if [ ${#dirs[@]} -eq 0 ]; then
  dirs=("$here")
  mod=$(go env GOMODCACHE 2>/dev/null || true)
  [ -n "$mod" ] && [ -d "$mod" ] && dirs+=("$mod")
fi
find "${dirs[@]}" \( -name '*.yaml' -o -name '*.yml' \) -type f -size -8M -print0 2>/dev/null \
  | xargs -0 -r "$tool" | awk '{print} $NF == "differ" {fast += $2; left += $8; differ += $16}
      END {printf "total: %d files read by the block reader, %d left to yaml-cpp, %d differ\n", fast, left, differ;
           exit differ > 0 || fast == 0}'
