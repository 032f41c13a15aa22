# A repository of two manifests, and checks that cluster and state are exactly its render, for fault tests.
# Source after lib.sh.
#   new_repo PREFIX [dependsOn]  sets ns (a new namespace name), small and big (manifest names: small holds the
#                      Namespace and ConfigMaps s*, big the ConfigMaps b*; with `dependsOn`, big depends on small)
#                      and repo ($E2E_TMP/repo, with ./small and ./big); writes tazuna.yaml and cds into it.
#                      The test writes $repo/expected.json: every rendered ConfigMap's name -> its data.v.
#
#   shards_ok WHAT     every shard a base names exists (the state can be read)
#   converged WHAT     live objects equal the rendered ones (none missing, none left over, every value current),
#                      `state list` holds exactly the rendered keys, shards_ok, and `state diff` finds nothing

new_repo() {
  local depends=""
  ns=$(new_namespace "$1")
  big=${1}big$RANDOM
  small=${1}small$RANDOM
  repo=$E2E_TMP/repo
  [ "${2:-}" = dependsOn ] && depends=", dependsOn: [$small]"
  mkdir -p "$repo/big" "$repo/small"
  printf 'spec:\n  manifests:\n    - {name: %s, type: manifests, path: ./small}\n    - {name: %s, type: manifests, path: ./big%s}\n' \
    "$small" "$big" "$depends" > "$repo/tazuna.yaml"
  cd "$repo" || return 1
}

shards_ok() {
  local m s missing=""
  for m in "$big" "$small"; do
    for s in $(kubectl get cm -n tazuna "tazuna-state-$m" -o jsonpath='{.data._metadata}' 2>/dev/null |
               python3 -c 'import json,sys
t=sys.stdin.read()
print(" ".join(json.loads(t).get("shards", [])) if t else "")'); do
      kubectl get cm -n tazuna "$s" >/dev/null 2>&1 || missing="$missing $s"
    done
  done
  expect_eq "$missing" "" "$1: every shard a base names exists"
}

converged() {
  local live keys
  live=$(kubectl get cm -n "$ns" -o json | python3 -c '
import json, sys
expected = json.load(open(sys.argv[1]))
live = {i["metadata"]["name"]: (i.get("data") or {}).get("v") for i in json.load(sys.stdin)["items"]
        if i["metadata"]["name"] != "kube-root-ca.crt"}
missing = sorted(set(expected) - set(live)); extra = sorted(set(live) - set(expected))
stale = sorted(n for n in expected if n in live and live[n] != expected[n])
print("ok" if not (missing or extra or stale) else f"missing {missing[:3]} ({len(missing)}) extra {extra[:3]} ({len(extra)}) stale {stale[:3]} ({len(stale)})")
' "$repo/expected.json")
  expect_eq "$live" "ok" "$1: live objects equal the rendered ones"
  keys=$(kubectl tazuna state list -o json 2>&1 | python3 -c '
import json, sys
expected = json.load(open(sys.argv[1])); ns, big, small = sys.argv[2:5]
owner = lambda n: big if n[0] == "b" else small
want = {f"{owner(n)}//v1/ConfigMap/{ns}/{n}" for n in expected} | {f"{small}//v1/Namespace/{ns}"}
try:
    got = {i["key"] for i in json.load(sys.stdin)["items"]}
except Exception as e:
    print(f"state list failed: {e}"); sys.exit()
print("ok" if got == want else f"missing {sorted(want - got)[:2]} ({len(want - got)}) extra {sorted(got - want)[:2]} ({len(got - want)})")
' "$repo/expected.json" "$ns" "$big" "$small")
  expect_eq "$keys" "ok" "$1: state list holds exactly the rendered keys"
  shards_ok "$1"
  run kubectl tazuna state diff
  expect_eq "$RC:$OUT" "0:No changes detected." "$1: state diff finds nothing"
}
