#!/usr/bin/env bash
# STYLE.md's rules that a grep can check, over plugin/ with no exceptions: a rule with exceptions stops
# being checked. Each prints the offending lines and fails the test.
#   - no std::sto* (stoi, stol, stod, ...): they throw; parse with std::from_chars or util's Go parsers
#   - std::cout / std::cerr only in main.cpp and complete_main.cpp; getenv only in the environment snapshot
#   - includes inside plugin/state/ point one way: store <- readiness <- diff <- apply <- prune, plan
set -uo pipefail
cd "$(dirname "$0")/../.."
failed=0
check() {  # check DESC GREP-OUTPUT
  if [ -n "$2" ]; then echo "FAIL - $1:"; echo "$2" | sed 's/^/  /'; failed=$((failed + 1)); else echo "ok   - $1"; fi
}
check "no std::sto* in plugin/" "$(grep -rnE 'std::sto(i|l|ll|ul|ull|f|d|ld)\(' plugin)"
check "std::cout/std::cerr only in main" \
  "$(grep -rn 'std::cout\|std::cerr' plugin | grep -v '^plugin/main.cpp:\|^plugin/complete_main.cpp:')"
check "getenv only in main" "$(grep -rnw 'getenv' plugin | grep -v '^plugin/main.cpp:\|^plugin/complete_main.cpp:' | grep -v '///')"
# Rooms of plugin/state, lowest first; a room may include the rooms before it (plan/ not prune/).
rooms=(store readiness diff apply prune plan)
allowed() {  # allowed FROM TO
  local from=$1 to=$2 i j
  [ "$from" = "$to" ] && return 0
  [ "$from" = plan ] && [ "$to" = prune ] && return 1
  for i in "${!rooms[@]}"; do [ "${rooms[$i]}" = "$from" ] && break; done
  for j in "${!rooms[@]}"; do [ "${rooms[$j]}" = "$to" ] && break; done
  [ "$j" -lt "$i" ]
}
bad=""
for from in "${rooms[@]}"; do
  while IFS=: read -r file line; do
    [ -n "$file" ] || continue
    to=$(sed -E 's#.*"state/([a-z_]+)/.*#\1#' <<< "$line")
    allowed "$from" "$to" || bad+="$file: $from includes $to"$'\n'
  done < <(grep -rH '#include "state/' "plugin/state/$from")
done
check "plugin/state rooms include only the rooms below them" "${bad%$'\n'}"
check "no file directly in plugin/state but README.md" "$(find plugin/state -maxdepth 1 -type f ! -name README.md)"
echo "$(( 5 - failed )) passed, $failed failed"
[ "$failed" = 0 ]
