#!/usr/bin/env bash
# Differential test of the helmfile template functions (sprig v3 and the Go tool's toYaml, fromYaml,
# toJson, fromJson; plugin/manifest/sprig_functions.cpp) against Go's text/template with sprig, as the
# Go tazuna renders helmfile.yaml.gotmpl (tests/compat/helmfiletemplate).
# Usage: tests/compat/helmfile_template_run.sh PATH/TO/compat_helmfile_template
# Cases: tests/testdata/helmfile_template/*.tmpl. A file holds cases, each starting with a line
# `=== NAME`; lines before the first case may be `# vars: JSON-OBJECT` (the vars of the file's cases,
# default vars.json beside them) and `# env: NAME` (default "default"). A case's template is the
# lines after its `===` line, without the last newline. Every case must agree: the same output bytes,
# or both an error. A case the C++ side refuses because it calls a function it does not define (sprig
# functions left out or not written yet) is skipped and listed, not failed.
# Builds the Go oracle into a temporary directory outside the repository. Prints the figures; exits
# non-zero on a mismatch (the first ones are shown with both results).
set -euo pipefail
if [[ $# -lt 1 || ! -x "$1" ]]; then
  echo "usage: $0 PATH/TO/compat_helmfile_template" >&2
  exit 2
fi
cpp_tool=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
corpus=$(cd "$here/../testdata/helmfile_template" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/tazuna-helmfile-template.XXXXXX")
trap 'rm -rf "$work"' EXIT

export GOFLAGS=-mod=mod
(cd "$here" && go build -o "$work/helmfiletemplate-go" ./helmfiletemplate)

python3 - "$corpus" "$work/cases" "$work/names" <<'PY'
import json, os, sys
corpus, out, names_out = sys.argv[1:]
default_vars = open(os.path.join(corpus, "vars.json"), "rb").read().strip()
json.loads(default_vars)
names = []
with open(out, "wb") as f:
    for name in sorted(os.listdir(corpus)):
        if not name.endswith(".tmpl"):
            continue
        lines = open(os.path.join(corpus, name), "rb").read().split(b"\n")
        vars_, env, cases, current = default_vars, b"default", [], None
        for line in lines:
            if line.startswith(b"=== "):
                current = [line[4:].decode().strip(), []]
                cases.append(current)
            elif current is not None:
                current[1].append(line)
            elif line.startswith(b"# vars:"):
                vars_ = line[len(b"# vars:"):].strip()
                json.loads(vars_)
            elif line.startswith(b"# env:"):
                env = line[len(b"# env:"):].strip()
        for case_name, body in cases:
            if body and body[-1] == b"":
                body = body[:-1]
            text = b"\n".join(body)
            f.write(env + b"\0" + vars_ + b"\0" + text + b"\0")
            names.append(f"{name}:{case_name}")
open(names_out, "w").write("\n".join(names) + "\n")
PY

"$work/helmfiletemplate-go" run "$work/cases" >"$work/go" 2>/dev/null
"$cpp_tool" run "$work/cases" >"$work/cpp" 2>/dev/null
python3 - "$work/names" "$work/go" "$work/cpp" <<'PY'
import sys
names_path, go_path, cpp_path = sys.argv[1:]
def results(path):
    data, out, i = open(path, "rb").read(), [], 0
    while i < len(data):
        nl = data.index(b"\n", i)
        head = data[i:nl].decode()
        if head == "error" or head.startswith("undefined "):
            out.append(head if head != "error" else None); i = nl + 1
        else:
            n = int(head.split()[1]); out.append(data[nl + 1:nl + 1 + n]); i = nl + 2 + n
    return out
names = open(names_path).read().split("\n")[:-1]
go, cpp = results(go_path), results(cpp_path)
assert len(go) == len(names) and len(cpp) == len(names), (len(names), len(go), len(cpp))
skipped = [i for i in range(len(names)) if isinstance(cpp[i], str)]
bad = [i for i in range(len(names)) if not isinstance(cpp[i], str) and go[i] != cpp[i]]
ok = sum(1 for r in go if r is not None)
print(f"helmfile templates: {len(names)} cases ({ok} rendered, {len(names) - ok} errors in Go), "
      f"{len(names) - len(bad) - len(skipped)} agree, {len(skipped)} skipped (not implemented), {len(bad)} differ")
if skipped:
    functions = sorted({cpp[i].split(" ", 1)[1] for i in skipped})
    print("  skipped, function not implemented: " + " ".join(functions))
    for i in skipped:
        print(f"    {names[i]} ({cpp[i].split(' ', 1)[1]})")
for i in bad[:20]:
    print(f"  DIFFER {names[i]}\n    go:  {go[i]!r}\n    c++: {cpp[i]!r}")
sys.exit(1 if bad else 0)
PY
