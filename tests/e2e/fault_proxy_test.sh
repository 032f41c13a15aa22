#!/usr/bin/env bash
# Faults on the other side of the wire (toxiproxy between the plugin and the apiserver): connections reset,
# stalled and closed, answers cut after the server committed a write (limit_data downstream), request bodies
# cut on their way, latency and sliced streams, struck at random points of syncs that create, modify and
# prune objects of a spilled state (over 1 MiB) and a small one. After each faulty sync: the state is
# readable and every shard a base names exists. Then one sync without faults must converge: live objects
# equal the rendered ones (nothing leaked, nothing missing, every value current), `state list` holds
# exactly the rendered keys, every named shard exists, and `state diff` finds nothing.
# Prints the faults injected by kind and every faulty sync's outcome.
# Environment: E2E_FAULTS (default 200; 60 with the sanitizer build) faults at least, E2E_FAULT_TRIALS_MAX (40),
# E2E_FAULTS_PER_SYNC (40),
# E2E_FAULT_LOGS=DIR keeps each faulty sync's stderr there, E2E_FAULT_VERBOSITY=N runs them with -v N (2).
# Takes ~2.5 minutes with the release build (a soak: E2E_FAULTS=2000).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/toxiproxy.sh"
source "$(dirname "$0")/converge.sh"

want_faults=${E2E_FAULTS:-200}
if sanitizer_build; then want_faults=${E2E_FAULTS:-60}; fi
max_trials=${E2E_FAULT_TRIALS_MAX:-40}
per_sync=${E2E_FAULTS_PER_SYNC:-40}
toxi_start || { fail "toxiproxy could not be started"; finish; exit 1; }
pass "toxiproxy proxies the apiserver (kubeconfig $PROXIED_KUBECONFIG)"

new_repo fp dependsOn

# gen TRIAL: the next render. big: 2,600 ConfigMaps with 250-character names (~1.2 MiB of state, spilled),
# 150 of them changed per trial; small: a window of 120 ConfigMaps that moves (created at one end, pruned at
# the other), half of them changed. Writes expected.json: every rendered ConfigMap's name -> value.
gen() {
  python3 - "$repo" "$ns" "$1" <<'PY'
import json, os, random, sys
repo, ns, trial = sys.argv[1], sys.argv[2], int(sys.argv[3])
rng = random.Random(trial * 7919)
path = os.path.join(repo, "values.json")
values = json.load(open(path)) if os.path.exists(path) else {"big": {}, "small": {}}
big = values["big"]
for i in range(2600):
    big.setdefault(str(i), "v0")
for i in rng.sample(range(2600), 150 if trial else 0):
    big[str(i)] = f"v{trial}"
start = rng.randrange(0, 60) if trial else 0
small = {}
for k in range(start, start + 120):
    old = values["small"].get(str(k))
    small[str(k)] = old if old is not None and rng.random() < 0.5 else f"v{trial}"
values["small"] = small
json.dump(values, open(path, "w"))
def cm(name, value):
    return f"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}, namespace: {ns}}}\ndata: {{v: \"{value}\"}}\n"
expected = {}
with open(os.path.join(repo, "big", "all.yaml"), "w") as f:
    for i, v in big.items():
        name = f"b{int(i):04d}-" + "x" * 244
        expected[name] = v
        f.write(cm(name, v))
with open(os.path.join(repo, "small", "all.yaml"), "w") as f:
    f.write(f"apiVersion: v1\nkind: Namespace\nmetadata: {{name: {ns}}}\n")
    for k, v in small.items():
        expected[f"s{int(k):03d}"] = v
        f.write(cm(f"s{int(k):03d}", v))
json.dump(expected, open(os.path.join(repo, "expected.json"), "w"))
PY
}

# error_line FILE: the line of a sync's stderr that says what failed: the first error of an object, or the
# error the run stopped with (the last line but the summary, as -v 2 logs come before it).
error_line() {
  grep -m1 -E '^(error: |Error from server|Unable to connect|The connection to the server)' "$1" ||
    grep -v -E '^(Warning: |waiting for |sync: )' "$1" | tail -n 1
}

gen 0
expect_rc 0 "setup: sync without faults" kubectl tazuna state sync --prune
spilled=$(kubectl get cm -n tazuna "tazuna-state-$big" -o jsonpath='{.data._metadata}' | python3 -c 'import json,sys; print(len(json.load(sys.stdin).get("shards", [])))')
bytes=$(kubectl get cm -n tazuna -o json | python3 -c "
import json,sys
print(sum(len(k)+len(v) for i in json.load(sys.stdin)['items'] if i['metadata']['name'].startswith('tazuna-state-$big') for k,v in (i.get('data') or {}).items()))")
if [ "$spilled" -ge 1 ] && [ "$bytes" -gt 1048576 ]; then pass "the big state spills: $bytes bytes over the base and $spilled shard(s)"
else fail "the big state does not spill over 1 MiB ($bytes bytes, $spilled shards)"; fi
converged "setup"

: > "$E2E_TMP/faults"
: > "$E2E_TMP/outcomes"
: > "$E2E_TMP/settled"
trial=0
t_start=$(date +%s)
while [ "$(wc -l < "$E2E_TMP/faults")" -lt "$want_faults" ] && [ "$trial" -lt "$max_trials" ]; do
  trial=$((trial + 1))
  gen "$trial"
  rm -f "$E2E_TMP/stop-injecting"
  # Faults start at a random point (rendering, the lock, applies, prunes, state writes) and stop after
  # about per_sync of them, so each trial strikes a different stretch of a sync.
  max=$(( $(wc -l < "$E2E_TMP/faults") + per_sync ))
  (sleep "$(ms "$(rand 0 2500)")"; toxi_injector downstream "$max") & down=$!
  (sleep "$(ms "$(rand 0 2500)")"; toxi_injector upstream "$max") & up=$!
  KUBECONFIG=$PROXIED_KUBECONFIG timeout 150 kubectl tazuna state sync --prune -v "${E2E_FAULT_VERBOSITY:-2}" > "$E2E_TMP/faulty.out" 2> "$E2E_TMP/faulty.err"
  rc=$?
  grep ' unanswered (' "$E2E_TMP/faulty.err" >> "$E2E_TMP/settled"
  [ -z "${E2E_FAULT_LOGS:-}" ] || { mkdir -p "$E2E_FAULT_LOGS"; cp "$E2E_TMP/faulty.err" "$E2E_FAULT_LOGS/trial-$trial.err"; }
  touch "$E2E_TMP/stop-injecting"
  wait "$down" "$up"
  toxi_reset
  case $rc in
    0) echo "completed" >> "$E2E_TMP/outcomes" ;;
    1) echo "failed: $(error_line "$E2E_TMP/faulty.err" | cut -c1-160)" >> "$E2E_TMP/outcomes" ;;
    *) echo "rc $rc" >> "$E2E_TMP/outcomes"; fail "trial $trial: the faulty sync exited $rc (124: hung)"; tail -5 "$E2E_TMP/faulty.err" ;;
  esac
  if [ "$rc" = 1 ] && [ -z "$(error_line "$E2E_TMP/faulty.err")" ]; then
    fail "trial $trial: the failed sync printed no error line"; tail -5 "$E2E_TMP/faulty.err"
  fi
  # The faulty run left a readable state, whatever it was cut off at.
  shards_ok "trial $trial (faulty run, rc $rc)"
  run kubectl tazuna state list -o json
  expect_eq "$RC" "0" "trial $trial: the state reads after the faulty run"
  run kubectl tazuna state sync --prune
  if [ "$RC" != 0 ]; then fail "trial $trial: the sync without faults failed"; echo "${ERR:0:2000}"; fi
  converged "trial $trial"
done

faults=$(wc -l < "$E2E_TMP/faults")
echo "faults injected: $faults over $trial faulty syncs in $(( $(date +%s) - t_start ))s"
awk '{print $1}' "$E2E_TMP/faults" | sort | uniq -c | sed 's/^/  /'
awk '{print $1" "$2}' "$E2E_TMP/faults" | sort | uniq -c | sed 's/^/    /'
echo "faulty syncs:"
sed 's/failed: .*/failed with an error/' "$E2E_TMP/outcomes" | sort | uniq -c | sed 's/^/  /'
grep '^failed' "$E2E_TMP/outcomes" | sort | uniq -c | sort -rn | head -8 | sed 's/^/    /'
echo "writes whose answer was lost, settled by reading back (state ConfigMaps / all):"
for outcome in "stored" "not stored, sending again" "another writer's"; do
  printf '  %-28s %4d / %d\n' "$outcome" "$(grep "tazuna-state-" "$E2E_TMP/settled" | grep -c "read back: $outcome")" \
    "$(grep -c "read back: $outcome" "$E2E_TMP/settled")"
done
if [ "$faults" -ge "$want_faults" ]; then pass "$faults faults injected (at least $want_faults)"; else fail "only $faults faults injected"; fi
if [ "$(grep -c completed "$E2E_TMP/outcomes")" -ge 1 ]; then pass "some faulty syncs still completed"; else fail "no faulty sync completed"; fi

kubectl delete ns "$ns" --wait=false >/dev/null 2>&1
kubectl delete cm -n tazuna "tazuna-state-$big" "tazuna-state-$small" >/dev/null 2>&1
kubectl delete cm -n tazuna -l "tazuna.pepabo.com/state-shard-of=$big" >/dev/null 2>&1
finish
