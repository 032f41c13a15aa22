# Checks that cluster and state are exactly a render, for fault tests. Source after lib.sh, then set:
#   repo   the repository; $repo/expected.json maps every rendered ConfigMap's name to its data.v
#   ns     the namespace the ConfigMaps (and the Namespace object) are in
#   big    the manifest of the ConfigMaps named b*; small: the manifest of the others and of the Namespace
#
#   shards_ok WHAT     every shard a base names exists (the state can be read)
#   converged WHAT     live objects equal the rendered ones (none missing, none left over, every value current),
#                      `state list` holds exactly the rendered keys, shards_ok, and `state diff` finds nothing

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
