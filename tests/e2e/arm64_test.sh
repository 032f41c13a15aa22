#!/usr/bin/env bash
# linux/arm64 under qemu-user: scripts/release builds both archives (arm64 cross-compiled into the kept
# build-release-arm64/, so a second run rebuilds only what changed); Krew built for arm64 installs the
# arm64 archive from the two-platform manifest; the installed arm64 plugin, run by kubectl through
# binfmt_misc (or by qemu-aarch64-static explicitly where binfmt_misc cannot be set up), prints the same
# as the amd64 release binary for version, build of examples/platform, state diff, sync --dry-run and
# state sync against the local control plane, and the live cluster holds what the arm64 sync applied.
# Only glibc is dynamic. Skipped (exit 77, with the reason) only where qemu cannot run arm64 code.
# Takes about a minute once the release builds and arm64 Krew are cached.
source "$(dirname "$0")/lib.sh"

version=0.1.0-e2e
dist=$E2E_TMP/dist
arm_archive=$dist/kubectl-tazuna_${version}_linux_arm64.tar.gz
amd_archive=$dist/kubectl-tazuna_${version}_linux_amd64.tar.gz
skip() { echo "SKIP: $*"; exit 77; }

# --- qemu: installed by the release's setup; able to run arm64 code here? ---
if ! "$REPO_DIR/scripts/lib/setup-release" >/dev/null 2>"$E2E_TMP/setup.log"; then
  fail "scripts/lib/setup-release"; tail -20 "$E2E_TMP/setup.log"; finish; exit 1
fi
command -v qemu-aarch64-static >/dev/null || skip "qemu-aarch64-static is not installed (qemu-user-static)"
probe=$(qemu-aarch64-static /lib/ld-linux-aarch64.so.1 --version 2>&1 | head -1) ||
  skip "qemu-aarch64-static cannot run arm64 code on this machine: $probe"
# kubectl execs the plugin, so arm64 executables should run directly (binfmt_misc); where they cannot,
# they are run as qemu-aarch64-static BINARY. TAZUNA_ARM64_EXEC=qemu takes that path anyway (to test it).
QEMU=(qemu-aarch64-static)
if [ "${TAZUNA_ARM64_EXEC:-}" = qemu ]; then
  why="TAZUNA_ARM64_EXEC=qemu"
elif why=$("$REPO_DIR/scripts/lib/qemu-binfmt" 2>&1); then
  QEMU=()
  pass "binfmt_misc runs arm64 executables through qemu-user-static"
fi
[ ${#QEMU[@]} -eq 0 ] || echo "note: arm64 executables are run with qemu-aarch64-static explicitly: $why"

t0=$SECONDS
if "$REPO_DIR/scripts/release" "$version" --dist "$dist" >"$E2E_TMP/release.log" 2>&1; then
  pass "scripts/release $version builds both platforms ($((SECONDS - t0))s)"
else
  fail "scripts/release $version"; tail -40 "$E2E_TMP/release.log"; finish; exit 1
fi
if arm_tools=$("$REPO_DIR/scripts/lib/install-krew" arm64 2>"$E2E_TMP/install-krew.log"); then
  pass "krew built for arm64 from sigs.k8s.io/krew"
else
  fail "scripts/lib/install-krew arm64"; tail -20 "$E2E_TMP/install-krew.log"; finish; exit 1
fi
t_start=$SECONDS

# --- the archives and the manifest ---
for a in "$arm_archive" "$amd_archive"; do
  run tar -tzf "$a"
  expect_eq "$(sort <<<"$OUT" | tr '\n' ' ')" "LICENSE README.md kubectl-tazuna kubectl_complete-tazuna " \
    "$(basename "$a") holds the binaries, LICENSE and README.md"
done
for arch in amd64 arm64; do
  sha=$(sha256sum "$dist/kubectl-tazuna_${version}_linux_$arch.tar.gz" | cut -d' ' -f1)
  block=$(awk -v a="$arch" '/arch: /{p = ($2 == a)} p' "$dist/tazuna.yaml")
  expect_contains "$block" "    uri: https://github.com/kubectl-tazuna/kubectl-tazuna/releases/download/v$version/kubectl-tazuna_${version}_linux_$arch.tar.gz" \
    "manifest: the $arch platform points at its own archive"
  expect_contains "$block" "    sha256: $sha" "manifest: the $arch platform carries its archive's sha256"
done
mkdir -p "$E2E_TMP/amd64"
tar -xzf "$amd_archive" -C "$E2E_TMP/amd64"
AMD=$E2E_TMP/amd64/kubectl-tazuna

# --- Krew for arm64 installs the arm64 archive (and refuses the amd64 one: it picked the arm64 platform) ---
export KREW_ROOT=$E2E_TMP/krew KREW_NO_UPGRADE_CHECK=1
unset KREW_OS KREW_ARCH
export PATH="$KREW_ROOT/bin:$(path_without_plugin)"
krew() { "${QEMU[@]}" "$arm_tools/kubectl-krew" "$@"; }
[ ${#QEMU[@]} -gt 0 ] || krew() { PATH="$arm_tools:$PATH" kubectl krew "$@"; }
expect_rc 1 "arm64 Krew refuses the amd64 archive for the arm64 platform" \
  krew install --manifest="$dist/tazuna.yaml" --archive="$amd_archive" </dev/null
expect_contains "$ERR" "checksum does not match" "the arm64 entry's sha256 is checked"
expect_rc 0 "arm64 Krew installs the arm64 archive" \
  krew install --manifest="$dist/tazuna.yaml" --archive="$arm_archive" </dev/null
expect_contains "$ERR" "Installed plugin: tazuna" "krew reports the install"
ARM=$KREW_ROOT/store/tazuna/v$version/kubectl-tazuna
expect_eq "$(readlink -f "$KREW_ROOT/bin/kubectl-tazuna")" "$ARM" "Krew's link points into its store"
mkdir -p "$E2E_TMP/arm64"
tar -xzf "$arm_archive" -C "$E2E_TMP/arm64"
expect_eq "$(sha256sum <"$ARM")" "$(sha256sum <"$E2E_TMP/arm64/kubectl-tazuna")" "the installed binary is the arm64 archive's"

# --- only glibc is dynamic; glibc 2.35 at most; stripped ---
glibc='^(libc\.so\.6|libm\.so\.6|ld-linux-aarch64\.so\.1)$'
for b in "$ARM" "$KREW_ROOT/store/tazuna/v$version/kubectl_complete-tazuna"; do
  name=$(basename "$b")
  expect_contains "$(readelf -h "$b")" "AArch64" "$name: an AArch64 executable"
  needed=$(readelf -d "$b" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  expect_eq "$(grep -Ev "$glibc" <<<"$needed")" "" "$name: readelf: every NEEDED library is glibc's ($(echo $needed))"
  libs=$(qemu-aarch64-static /lib/ld-linux-aarch64.so.1 --list "$b" 2>&1)
  outside=$(awk '$2 == "=>" {print $1}' <<<"$libs" | grep -Ev "$glibc")
  expect_eq "$outside" "" "$name: ldd (the arm64 loader's --list) resolves only glibc"
  expect_not_contains "$libs" "not found" "$name: no unresolved library"
  expect_eq "$(readelf -d "$b" | sed -n 's/.*(R.*PATH).*\[\(.*\)\]/\1/p')" '$ORIGIN/lib' "$name: rpath is \$ORIGIN/lib alone"
  expect_not_contains "$(readelf -S "$b")" ".symtab" "$name: stripped"
  newest=$(readelf --dyn-syms -W "$b" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
  expect_eq "$(printf '%s\n' "$newest" GLIBC_2.35 | sort -V | tail -1)" "GLIBC_2.35" \
    "$name: needs glibc <= 2.35 (newest symbol version $newest)"
done

# tz_arm ARGS: the installed arm64 plugin, through kubectl (binfmt) or qemu; tz_amd ARGS: the amd64 release.
tz_arm() { if [ ${#QEMU[@]} -eq 0 ]; then kubectl tazuna "$@"; else "${QEMU[@]}" "$KREW_ROOT/bin/kubectl-tazuna" "$@"; fi; }
tz_amd() { "$AMD" "$@"; }
# same DESC WANT_RC ARGS...: both binaries exit WANT_RC and print the same stdout and stderr (the sync
# summary's elapsed time masked); sets OUT/ERR to the arm64 run's.
same() {
  local desc=$1 want=$2; shift 2
  expect_rc "$want" "amd64: $desc" tz_amd "$@"
  local amd_out=$OUT amd_err=$ERR
  expect_rc "$want" "arm64: $desc" tz_arm "$@"
  expect_eq "$OUT" "$amd_out" "$desc: arm64 stdout is amd64's"
  expect_eq "$(mask "$ERR")" "$(mask "$amd_err")" "$desc: arm64 stderr is amd64's"
}
mask() { sed -E 's/ in [0-9]+\.[0-9]+s / in <elapsed> /' <<<"$1"; }

# --- version ---
expect_rc 0 "kubectl tazuna version runs the arm64 plugin" tz_arm version
expect_contains "$OUT" "Client Version: v$version (commit " "arm64 reports the release version"
expect_contains "$OUT" "Server Version: v1." "arm64 talks TLS to the API server"
same "version" 0 version
expect_rc 0 "arm64 version -o json" tz_arm version -o json
arm_json=$OUT
expect_rc 0 "amd64 version -o json" tz_amd version -o json
platforms=$(python3 -c 'import json,sys; print(*(json.loads(a)["clientVersion"]["platform"] for a in sys.argv[1:]))' "$arm_json" "$OUT")
expect_eq "$platforms" "linux/arm64 linux/amd64" "each reports its own platform"
expect_eq "${arm_json//linux\/arm64/linux\/amd64}" "$OUT" "version -o json is amd64's but for the platform"
expect_rc 0 "arm64 version -v 7" tz_arm version -v 7
expect_contains "$ERR" "User-Agent: kubectl-tazuna/v${version%%-*} (linux/arm64) kubernetes/" "the User-Agent names linux/arm64"

# --- build of examples/platform (kustomize through the amd64 kubectl) ---
same "build of examples/platform" 0 build -f "$REPO_DIR/examples/platform/tazuna.yaml"
expect_eq "$(grep -c "^kind: " <<<"$OUT")" "8" "build renders the example's eight objects"
expect_contains "$OUT" "name: web-settings-" "kustomize's configMapGenerator ran"

# --- state diff and sync: the example with its names made unique to this run ---
s=a$RANDOM
repo=$E2E_TMP/platform
cp -r "$REPO_DIR/examples/platform" "$repo"
grep -rl -e demo- -e 'name: ' "$repo" | xargs sed -i -E \
  -e "s/demo-(apps|monitoring)/demo-\1-$s/g" -e "s/demo\.tazuna\.io/$s.demo.tazuna.io/g" \
  -e "s/^    - name: (namespaces|crds|monitoring|apps)$/    - name: \1-$s/" \
  -e "s/dependsOn: \[namespaces\]/dependsOn: [namespaces-$s]/" \
  -e "s/dependsOn: \[namespaces, crds\]/dependsOn: [namespaces-$s, crds-$s]/"
# One more object with non-ASCII text, a block scalar and YAML 1.1 look-alikes: byte handling (char is
# unsigned on arm64) must give the same render and the same content hashes on both platforms.
cat > "$repo/monitoring/text.yaml" <<YAML
apiVersion: v1
kind: ConfigMap
metadata:
  name: alert-text
  namespace: demo-monitoring-$s
  annotations: {note: "Grüße — 世界 ✓"}
data:
  plain: Überwachung läuft
  quoted: "naïve café \\u00e9\\t\\U0001F600"
  block: |
    línea uno
    行 two	end
  lookalikes: "yes, no, on, 0x1F, 1e3, 2024-01-02"
YAML
repo_at "$repo" "https://example.test/arm64-$s/platform.git"
cleanup() {
  kubectl delete ns "demo-apps-$s" "demo-monitoring-$s" --wait=false >/dev/null 2>&1
  kubectl delete crd "widgets.$s.demo.tazuna.io" --wait=false >/dev/null 2>&1
  for m in namespaces crds monitoring apps; do kubectl delete cm -n tazuna "tazuna-state-$m-$s" >/dev/null 2>&1; done
  rm -rf "$E2E_TMP"
}
trap cleanup EXIT
cd "$repo"

same "state diff before the first sync" 1 state diff
expect_eq "$(awk '$2 == "added" {n++} END {print n}' <<<"$OUT")" "9" "diff lists the nine objects as added"
expect_eq "$(awk '$4 == "Namespace" {print $1, $5}' <<<"$OUT" | sort | tr '\n' ' ')" \
  "namespaces-$s demo-apps-$s namespaces-$s demo-monitoring-$s " "diff lists the new namespaces"
same "state diff -o json before the first sync" 1 state diff -o json
expect_rc 1 "the diffs created nothing" kubectl get ns "demo-apps-$s"

expect_rc 0 "arm64: state sync" tz_arm state sync
expect_contains "$ERR" "sync: 9 created" "arm64 sync creates the nine objects"
expect_eq "$(kubectl get "widgets.$s.demo.tazuna.io" -n "demo-apps-$s" sprocket -o jsonpath='{.spec.color}')" "blue" \
  "live: the Widget (CRD applied in the same run)"
# The last layer is not waited for (no --wait): the simulated pods may become ready just after the sync.
kubectl wait --for=jsonpath='{.status.readyReplicas}'=2 deploy/web -n "demo-apps-$s" --timeout=60s >/dev/null 2>&1
expect_eq "$(kubectl get deploy -n "demo-apps-$s" web -o jsonpath='{.status.readyReplicas}')" "2" "live: the Deployment ready"
expect_eq "$(kubectl get cm -n "demo-monitoring-$s" scrape-config -o jsonpath='{.data.interval}')" "30s" "live: the ConfigMap"
expect_eq "$(kubectl get cm -n "demo-monitoring-$s" alert-text -o jsonpath='{.data.plain}|{.metadata.annotations.note}')" \
  "Überwachung läuft|Grüße — 世界 ✓" "live: non-ASCII text as written"
key_text=monitoring-${s}____v1__ConfigMap__demo-monitoring-${s}__alert-text
key_cm=monitoring-${s}____v1__ConfigMap__demo-monitoring-${s}__scrape-config
key_svc=monitoring-${s}____v1__Service__demo-monitoring-${s}__metrics
expect_eq "$(state_keys "monitoring-$s")" "$key_text $key_cm $key_svc" \
  "live: the state ConfigMap records what the arm64 sync applied"
uids="$(uid ns "demo-apps-$s") $(uid deploy -n "demo-apps-$s" web)"

same "state diff after the sync" 0 state diff
expect_eq "$OUT" "No changes detected." "nothing left to change"
same "state sync with nothing to do" 0 state sync
expect_contains "$ERR" "9 unchanged" "the second sync changes nothing"
same "state list" 0 state list

# A changed value and a removed object: both see the same diff; the arm64 sync applies and prunes.
sed -i 's/interval: 30s/interval: 15s/' "$repo/monitoring/config.yaml"
python3 - "$repo/monitoring/config.yaml" <<'EOF'
import sys
p = sys.argv[1]
docs = open(p).read().split('---\n')
open(p, 'w').write('---\n'.join(d for d in docs if 'kind: Service' not in d))
EOF
same "state diff of a change and a removal" 1 state diff
expect_contains "$OUT" "modified" "diff shows the modified ConfigMap"
expect_contains "$OUT" "removed" "diff shows the removed Service"
same "state sync --prune --dry-run=server of the change" 0 state sync --prune --dry-run=server
expect_rc 0 "arm64: state sync --prune" tz_arm state sync --prune
expect_contains "$OUT" "service/metrics -n demo-monitoring-$s deleted" "arm64 prunes the Service"
expect_eq "$(kubectl get cm -n "demo-monitoring-$s" scrape-config -o jsonpath='{.data.interval}')" "15s" "live: new value"
expect_rc 1 "live: the Service is gone" kubectl get svc -n "demo-monitoring-$s" metrics
expect_eq "$(uid ns "demo-apps-$s") $(uid deploy -n "demo-apps-$s" web)" "$uids" \
  "live: the namespace and Deployment kept their uids"
expect_eq "$(state_keys "monitoring-$s")" "$key_text $key_cm" "live: the state forgot the Service"
same "state diff after the prune" 0 state diff

echo "arm64 checks took $((SECONDS - t_start))s after the builds"
finish
