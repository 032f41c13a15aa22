#!/usr/bin/env bash
# e2e (#44): a manifest is skipped only when its digest accounts for every input it reads, so a skip never hides a
# change. One case per kind of input that once slipped past the digest: a chart action holding a `}`, a values
# string run through `tpl` into a random function, an archived subchart calling one, a manifests path through a
# symlink followed by `..`, a renderer binary replaced at the same path (same size and modification time), and a helmfile 0.x (it templates a plain
# helmfile.yaml). For each: sync, change the input (or nothing: a random value changes by itself), then `state
# diff` through the caches and with --no-render-cache must give the same exit code and rows. The previous binary
# answered "No changes detected." through the caches for each. Then --verify-render-cache (and
# TAZUNA_VERIFY_RENDER_CACHE=1): a tampered render cache entry is named and refused. About 40 s.
source "$(dirname "$0")/lib.sh"

HELM=$("$REPO_DIR/scripts/lib/install-helm") || { echo "FAIL - cannot build helm"; exit 1; }
HELMFILE=$("$REPO_DIR/scripts/lib/install-helmfile") || { echo "FAIL - cannot build helmfile"; exit 1; }
bin=$E2E_TMP/bin
mkdir -p "$bin" && ln -s "$HELM" "$bin/helm"
export PATH=$bin:$PATH
export XDG_CACHE_HOME=$E2E_TMP/cache  # a render cache of its own
ns=$(new_namespace ri)
p=${ns%%-*}${ns##*-}  # the manifests' names: their states are the cluster's, shared with other tests
kubectl create namespace "$ns" >/dev/null
repo=$E2E_TMP/repo
mkdir -p "$repo" && git -C "$repo" init -q && cd "$repo" || exit 1

# chart DIR TEMPLATE-DATA-LINE [VALUES]: a chart whose one ConfigMap (named after DIR) has `v: TEMPLATE-DATA-LINE`.
chart() {
  mkdir -p "$1/templates"
  printf 'apiVersion: v2\nname: %s\nversion: 0.1.0\n' "$(basename "$1")" > "$1/Chart.yaml"
  printf 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  v: %s\n' "$(basename "$1")" "$2" \
    > "$1/templates/cm.yaml"
  printf '%s\n' "${3:-}" > "$1/values.yaml"
}
# helmfile_over NAME CHART: hf-NAME/helmfile.yaml with one release of CHART into the test's namespace.
helmfile_over() {
  mkdir -p "hf-$1"
  printf 'releases:\n- name: %s\n  namespace: %s\n  chart: ../%s\n' "$1" "$ns" "$2" > "hf-$1/helmfile.yaml"
}
# same_answer NAME DESC [ENV...]: state diff of NAME through the caches and without them (ENV set for both).
same_answer() {
  local name=$1 desc=$2; shift 2
  run env "$@" kubectl tazuna state diff -n "$ns" -m "$p-$name" -o name -v 2
  local cached="rc=$RC $OUT"
  LOG=$ERR
  run env "$@" kubectl tazuna state diff -n "$ns" -m "$p-$name" -o name --no-render-cache
  expect_eq "$cached" "rc=$RC $OUT" "$desc: the same answer through the caches as without them"
}
synced() { local name=$1; shift; expect_rc 0 "sync $name" env "$@" kubectl tazuna state sync -n "$ns" -m "$p-$name" --wait=false; }

chart charts/brace '{{ printf "%s}" (randAlphaNum 8) | quote }}'
helmfile_over brace charts/brace
chart charts/tpl '{{ tpl .Values.stamp . | quote }}' "stamp: '{{ randAlphaNum 8 }}'"
helmfile_over tpl charts/tpl
chart src/sub '{{ randAlphaNum 8 | quote }}'
chart charts/parent '"fixed"'
mkdir -p charts/parent/charts && helm package src/sub -d charts/parent/charts >/dev/null
helmfile_over parent charts/parent
chart charts/plain '"fixed"'
helmfile_over hf0 charts/plain
mkdir -p objs far/objs far/deep && ln -s far/deep vendor
configmap link here > objs/cm.yaml
configmap link there > far/objs/cm.yaml
mkdir -p tool && printf 'resources:\n- cm.yaml\n' > tool/kustomization.yaml && configmap tool > tool/cm.yaml
tazuna_yaml . "{name: $p-brace, type: helmfile, path: ./hf-brace}" "{name: $p-tpl, type: helmfile, path: ./hf-tpl}" \
  "{name: $p-parent, type: helmfile, path: ./hf-parent}" "{name: $p-hf0, type: helmfile, path: ./hf-hf0}" \
  "{name: $p-link, type: manifests, path: ./vendor/../objs}" \
  "{name: $p-tool, type: kustomize, path: ./tool}"

# --- random values a chart makes, which no change of files shows ---
for m in brace tpl parent; do
  synced "$m"
  same_answer "$m" "$m"
  expect_contains "$LOG" "manifest \"$p-$m\" is rendered every time" "$m: rendered every time, as its render is not a function of its files"
done
[[ "$(kubectl tazuna build -m "$p-brace")" =~ v:\ [A-Za-z0-9]{8}\} ]] && pass "a chart action holding a } renders" ||
  fail "a chart action holding a } renders"

# --- a path through a symlink followed by `..`: read as Go's filepath.Join reads it, the digest the same ---
synced link
expect_eq "$(kubectl get cm link -n "$ns" -o jsonpath='{.data.v}')" "here" \
  "vendor/../objs is objs, as the Go tool reads it (not far/objs through the symlink)"
configmap link there-now > far/objs/cm.yaml
same_answer link "link: far/objs (through the symlink) changed"
configmap link here-now > objs/cm.yaml
same_answer link "link: objs changed"
expect_contains "$OUT" "configmap/link" "link: the change is a row"

# --- a renderer binary replaced by another of the same size and modification time ---
toolbin=$E2E_TMP/toolbin
mkdir -p "$toolbin"
fake_kustomize() {  # a kustomize that adds a ConfigMap holding MARK to kubectl kustomize's output
  cat > "$E2E_TMP/kz.c" <<EOF
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char** argv) {
  char cmd[8192];
  if (argc < 3 || strlen(argv[argc - 1]) > 8000) return 2;
  snprintf(cmd, sizeof cmd, "kubectl kustomize '%s'", argv[argc - 1]);
  if (system(cmd) != 0) return 1;
  printf("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stamp\ndata:\n  v: \"%s\"\n", "$1");
  return 0;
}
EOF
  cc -O1 -o "$2" "$E2E_TMP/kz.c" && touch -d '2020-01-01 00:00:00' "$2"
}
fake_kustomize aaaa "$E2E_TMP/kz-a" && fake_kustomize bbbb "$E2E_TMP/kz-b" || fail "cannot compile a fake kustomize"
expect_eq "$(stat -c '%s %Y' "$E2E_TMP/kz-a")" "$(stat -c '%s %Y' "$E2E_TMP/kz-b")" "the two kustomize binaries: same size and time"
cp "$E2E_TMP/kz-a" "$toolbin/kustomize" && touch -d '2020-01-01 00:00:00' "$toolbin/kustomize"
synced tool "PATH=$toolbin:$PATH"
expect_eq "$(kubectl get cm stamp -n "$ns" -o jsonpath='{.data.v}')" "aaaa" "the first kustomize rendered the stamp"
cp "$E2E_TMP/kz-b" "$toolbin/kustomize" && touch -d '2020-01-01 00:00:00' "$toolbin/kustomize"
same_answer tool "tool: kustomize replaced at the same path" "PATH=$toolbin:$PATH"
expect_contains "$OUT" "configmap/stamp" "tool: the other binary's output is a row"

# --- a helmfile 0.x renders a plain helmfile.yaml as a template: the digest, which reads it as YAML, refuses ---
hf0bin=$E2E_TMP/hf0bin
mkdir -p "$hf0bin"
cat > "$E2E_TMP/hf0.c" <<EOF
#include <stdio.h>
#include <string.h>
#include <unistd.h>
int main(int argc, char** argv) {
  if (argc == 2 && strcmp(argv[1], "--version") == 0) { puts("helmfile version v0.169.2"); return 0; }
  argv[0] = "$HELMFILE";
  execv(argv[0], argv);
  return 127;
}
EOF
cc -O1 -o "$hf0bin/helmfile" "$E2E_TMP/hf0.c" || fail "cannot compile a helmfile 0.x stand-in"
synced hf0 "PATH=$hf0bin:$PATH"
same_answer hf0 "hf0" "PATH=$hf0bin:$PATH"
expect_contains "$LOG" "is helmfile v0.169.2, not 1.x" "hf0: rendered every time, and says why"
ln -s "$HELMFILE" "$bin/helmfile"
synced hf0
same_answer hf0 "hf0 under helmfile 1.x"
expect_contains "$LOG" "manifest \"$p-hf0\" not rendered: its state records" "hf0 under helmfile 1.x: skipped, as nothing changed"
expect_contains "$LOG" "manifest \"$p-hf0\": its digest covers" "-v 2 says what the digest covered ..."
expect_contains "$LOG" "charts/plain/templates/cm.yaml" "... naming the chart's files"
rm "$bin/helmfile"

# --- --verify-render-cache renders what the caches skip and refuses a render that differs ---
synced link
expect_rc 0 "verify after the syncs: the skips hold" kubectl tazuna state diff -n "$ns" -m "$p-link" -m "$p-hf0" --verify-render-cache -v 2
expect_contains "$ERR" "manifest \"$p-link\": rendered again to verify the cache, the same" "the skipped manifest was rendered again"
mkdir -p fresh && configmap fresh 1 > fresh/cm.yaml
tazuna_yaml . "{name: $p-link, type: manifests, path: ./vendor/../objs}" "{name: $p-fresh, type: manifests, path: ./fresh}"
expect_rc 0 "build fills the render cache" kubectl tazuna build -m "$p-fresh"
cached=$(grep -l "\"name\":\"$p-fresh\"" "$XDG_CACHE_HOME"/kubectl-tazuna/render/*.json | head -1)
[ -n "$cached" ] && sed -i 's/"v":"1"/"v":"tampered"/' "$cached"
expect_contains "$(kubectl tazuna build -m "$p-fresh")" "tampered" "the tampered entry is what the cache answers"
expect_rc 2 "diff --verify-render-cache over it" kubectl tazuna state diff -n "$ns" -m "$p-fresh" --verify-render-cache
expect_contains "$ERR" "manifest \"$p-fresh\" was not rendered (the render cache stood for it), but rendering it now differs" \
  "names the manifest"
expect_rc 2 "TAZUNA_VERIFY_RENDER_CACHE=1 build over it" env TAZUNA_VERIFY_RENDER_CACHE=1 kubectl tazuna build -m "$p-fresh"
expect_contains "$ERR" "manifest \"$p-fresh\" was not rendered" "build: names the manifest"
expect_not_contains "$OUT" "tampered" "build: prints nothing of the tampered render"

kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
kubectl get configmap -n tazuna -o name | grep "/tazuna-state-$p-" |
  xargs -r kubectl delete -n tazuna >/dev/null 2>&1
finish
