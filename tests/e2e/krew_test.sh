#!/usr/bin/env bash
# Distribution: scripts/release builds the portable archive and the Krew manifest; real Krew (built from
# its pinned Go module by scripts/lib/install-krew) installs them offline into a temporary KREW_ROOT; the
# installed plugin runs from Krew's bin directory, needs nothing outside glibc and the install directory,
# passes Krew's manifest validator, and completes through kubectl. Takes a few minutes: a release build.
source "$(dirname "$0")/lib.sh"

version=0.1.0-e2e
dist=$E2E_TMP/dist
archive=$dist/kubectl-tazuna_${version}_linux_amd64.tar.gz

if "$REPO_DIR/scripts/release" "$version" --dist "$dist" >"$E2E_TMP/release.log" 2>&1; then
  pass "scripts/release $version"
else
  fail "scripts/release $version"; tail -40 "$E2E_TMP/release.log"; finish; exit 1
fi
if tools=$("$REPO_DIR/scripts/lib/install-krew" 2>"$E2E_TMP/install-krew.log"); then
  pass "krew and validate-krew-manifest built from sigs.k8s.io/krew"
else
  fail "scripts/lib/install-krew"; tail -20 "$E2E_TMP/install-krew.log"; finish; exit 1
fi

run tar -tvzf "$archive"
expect_contains "$OUT" "-rwxr-xr-x 0/0" "archive keeps the executable bit"
for f in kubectl-tazuna kubectl_complete-tazuna LICENSE README.md; do
  expect_contains "$OUT" " $f" "archive holds $f"
done
# One platform per archive, each with its own sha256 (tests/e2e/arm64_test.sh runs the arm64 one).
shas=""
for arch in amd64 arm64; do shas+="    sha256: $(sha256sum "$dist/kubectl-tazuna_${version}_linux_$arch.tar.gz" | cut -d' ' -f1)"$'\n'; done
run grep -E '^ +(sha256|arch): ' "$dist/tazuna.yaml"
expect_eq "$(grep sha256 <<<"$OUT")"$'\n' "$shas" "manifest carries each archive's sha256"
expect_eq "$(grep -o 'arch: .*' <<<"$OUT" | tr '\n' ' ')" "arch: amd64 arch: arm64 " "manifest lists linux/amd64 and linux/arm64"

# kubectl must find the Krew-installed plugin, not a build: drop every PATH entry holding a kubectl-tazuna
# (lib.sh put the build dir first), then put the tools and Krew's bin directory in front.
export KREW_ROOT=$E2E_TMP/krew KREW_NO_UPGRADE_CHECK=1
export PATH="$tools:$KREW_ROOT/bin:$(path_without_plugin)"
real_kubectl=$(command -v kubectl)

expect_rc 0 "kubectl krew install --manifest --archive" \
  kubectl krew install --manifest="$dist/tazuna.yaml" --archive="$archive" </dev/null
expect_contains "$ERR" "Installed plugin: tazuna" "krew reports the install"
install_dir=$KREW_ROOT/store/tazuna/v$version
expect_eq "$(command -v kubectl-tazuna)" "$KREW_ROOT/bin/kubectl-tazuna" "kubectl-tazuna on PATH is Krew's"
bin=$(readlink -f "$KREW_ROOT/bin/kubectl-tazuna")
expect_eq "$bin" "$install_dir/kubectl-tazuna" "Krew's link points into its store"
for f in LICENSE README.md; do
  if [ -s "$install_dir/$f" ]; then pass "$f installed"; else fail "$f not installed in $install_dir"; fi
done
if [ -x "$install_dir/kubectl_complete-tazuna" ]; then pass "completion helper installed"; else
  fail "kubectl_complete-tazuna not installed in $install_dir"; fi

expect_rc 0 "kubectl tazuna version from Krew's bin" kubectl tazuna version
expect_contains "$OUT" "Client Version: v$version (commit " "reports the release version"
expect_contains "$OUT" "Server Version: v1." "talks TLS to the API server"
expect_rc 0 "kubectl tazuna version -o json" kubectl tazuna version -o json
commit=$(git -C "$REPO_DIR" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
got=$(python3 -c 'import json,sys; c=json.loads(sys.argv[1])["clientVersion"]; print(c["gitVersion"], c["gitCommit"])' "$OUT")
expect_eq "$got" "v$version $commit" "json gitVersion and gitCommit"
expect_rc 0 "the installed plugin lists state over the API" kubectl tazuna state list --all

# The installed binaries need glibc and nothing else outside the install directory; stripped; glibc 2.35.
glibc='^(linux-vdso\.so|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libresolv\.so|ld-linux-x86-64\.so)'
for b in "$bin" "$install_dir/kubectl_complete-tazuna"; do
  name=$(basename "$b")
  libs=$(ldd "$b" 2>&1)
  outside=$(awk '$2 == "=>" {print $1, $3}' <<<"$libs" | while read -r soname path; do
    [[ $soname =~ $glibc ]] || [[ $path == "$KREW_ROOT"/* ]] || echo "$soname => $path"; done)
  expect_eq "$outside" "" "$name: ldd resolves every non-glibc library inside KREW_ROOT"
  expect_not_contains "$libs" "not found" "$name: no unresolved library"
  sections=$(readelf -S "$b")
  expect_not_contains "$sections" ".symtab" "$name: stripped"
  newest=$(objdump -T "$b" | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1)
  expect_eq "$(printf '%s\n' "$newest" GLIBC_2.35 | sort -V | tail -1)" "GLIBC_2.35" \
    "$name: needs glibc <= 2.35 (newest symbol version $newest), as the caveats say"
done

# Completion as the caveats tell users: link the helper next to kubectl-tazuna (Krew links only bin).
link_cmd=$(grep -A1 -E '^ +ln -sf ' "$dist/tazuna.yaml" | sed 's/\\$//' | tr -d '\n')
expect_rc 0 "the caveats' ln command" bash -c "$link_cmd"
expect_eq "$(readlink -f "$KREW_ROOT/bin/kubectl_complete-tazuna")" "$install_dir/kubectl_complete-tazuna" \
  "completion helper linked into Krew's bin"
run kubectl __complete tazuna sta
expect_contains "$OUT" $'state\n' "kubectl __complete tazuna sta offers state"
expect_contains "$OUT" ":4" "completion directive"

run kubectl plugin list
expect_contains "$OUT" "$KREW_ROOT/bin/kubectl-tazuna" "kubectl plugin list shows the Krew-installed plugin"
# Other plugins on the machine may warn; only lines naming our executables count.
tazuna_warnings=$(grep -E 'kubectl(-|_complete-)tazuna([^/]|$)' <<<"$ERR" || true)
expect_eq "$tazuna_warnings" "" "kubectl plugin list has no warning about tazuna"

# Krew's own validator: structure, platforms, and (through a kubectl that hands Krew the local archive of
# the platform it installs, KREW_ARCH, instead of downloading the uri) a real install per platform with
# the license check.
mkdir -p "$E2E_TMP/validate" "$E2E_TMP/shim"
cp "$dist/tazuna.yaml" "$E2E_TMP/validate/tazuna.yaml"
expect_rc 0 "validate-krew-manifest -skip-install" \
  validate-krew-manifest -manifest "$E2E_TMP/validate/tazuna.yaml" -skip-install
cat > "$E2E_TMP/shim/kubectl" <<SH
#!/bin/sh
if [ "\$1 \$2" = "krew install" ]; then
  exec "$real_kubectl" "\$@" --archive="$dist/kubectl-tazuna_${version}_linux_\${KREW_ARCH:-amd64}.tar.gz"
fi
exec "$real_kubectl" "\$@"
SH
chmod +x "$E2E_TMP/shim/kubectl"
expect_rc 0 "validate-krew-manifest with install and license check" \
  env PATH="$E2E_TMP/shim:$PATH" validate-krew-manifest -manifest "$E2E_TMP/validate/tazuna.yaml"
cp "$REPO_DIR/krew/tazuna.yaml" "$E2E_TMP/validate/tazuna.yaml"
expect_rc 0 "the committed krew/tazuna.yaml validates" \
  validate-krew-manifest -manifest "$E2E_TMP/validate/tazuna.yaml" -skip-install

# list and uninstall want a plugin index; an empty local git repository stands in for krew-index offline.
git init -q "$KREW_ROOT/index/default"
expect_rc 0 "kubectl krew list" kubectl krew list
expect_contains "$OUT" "tazuna" "kubectl krew list shows tazuna"
expect_rc 0 "kubectl krew uninstall tazuna" kubectl krew uninstall tazuna
if [ ! -e "$install_dir" ]; then pass "uninstall removed the store"; else fail "$install_dir left behind"; fi
finish
