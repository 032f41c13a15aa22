#!/usr/bin/env bash
# Differential test of the C++ text/template engine against Go's own text/template, as the Go tazuna
# renders tazuna.yaml (missingkey=error, data tmpl.Data{Environment}).
# Usage: tests/compat/gotemplate_run.sh PATH/TO/compat_gotemplate [GENERATED-CASES [SEED]]
# Cases: every tests/testdata/gotemplate/*.tmpl with each of several environments, plus
# GENERATED-CASES (default 20000) random templates from the Go oracle's grammar generator (seed
# SEED, default 1). Both must agree on every case: the same output bytes, or both an error.
# Builds the Go oracle into a temporary directory outside the repository. Prints the figures;
# exits non-zero on a mismatch (the first ones are shown with both results).
set -euo pipefail
if [[ $# -lt 1 || ! -x "$1" ]]; then
  echo "usage: $0 PATH/TO/compat_gotemplate [GENERATED-CASES [SEED]]" >&2
  exit 2
fi
cpp_tool=$(realpath "$1")
generated=${2:-20000}
seed=${3:-1}
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(cd "$here/../testdata/gotemplate" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tazuna-gotemplate.XXXXXX")
trap 'rm -rf "$work"' EXIT

export GOFLAGS=-mod=mod
(cd "$here" && go build -o "$work/gotemplate-go" ./gotemplate)

# The corpus, each template with each environment.
python3 - "$corpus" "$work/corpus.cases" <<'PY'
import os, sys
corpus, out = sys.argv[1], sys.argv[2]
envs = ["", "prod", "staging", "dev-1", "<a&b>\"'=", "日本", "10"]
with open(out, "wb") as f:
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".tmpl"):
            continue
        text = open(os.path.join(corpus, name), "rb").read()
        for env in envs:
            f.write(env.encode() + b"\0" + text + b"\0")
PY
"$work/gotemplate-go" gen "$generated" "$seed" >"$work/generated.cases"

status=0
for set in corpus generated; do
  "$work/gotemplate-go" run "$work/$set.cases" >"$work/$set.go" 2>/dev/null
  "$cpp_tool" run "$work/$set.cases" >"$work/$set.cpp" 2>/dev/null
  python3 - "$work/$set.cases" "$work/$set.go" "$work/$set.cpp" "$set" <<'PY' || status=1
import sys
cases_path, go_path, cpp_path, name = sys.argv[1:]
def results(path):
    data, out, i = open(path, "rb").read(), [], 0
    while i < len(data):
        nl = data.index(b"\n", i)
        head = data[i:nl].decode()
        if head == "error":
            out.append(None); i = nl + 1
        else:
            n = int(head.split()[1]); out.append(data[nl + 1:nl + 1 + n]); i = nl + 2 + n
    return out
parts = open(cases_path, "rb").read().split(b"\0")[:-1]
cases = list(zip(parts[0::2], parts[1::2]))
go, cpp = results(go_path), results(cpp_path)
assert len(go) == len(cases) and len(cpp) == len(cases), (len(cases), len(go), len(cpp))
bad = [i for i in range(len(cases)) if go[i] != cpp[i]]
ok = sum(1 for r in go if r is not None)
print(f"{name}: {len(cases)} cases ({ok} rendered, {len(cases) - ok} errors in Go), {len(cases) - len(bad)} agree, {len(bad)} differ")
for i in bad[:10]:
    env, text = cases[i]
    print(f"  DIFFER case {i} env={env!r}\n    template: {text!r}\n    go:  {go[i]!r}\n    c++: {cpp[i]!r}")
sys.exit(1 if bad else 0)
PY
done
exit $status
