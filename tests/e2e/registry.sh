# Sourced after lib.sh by the tests that need an OCI registry: the CNCF distribution registry and the oras CLI,
# both built from their Go modules (scripts/lib/install-registry, install-oras), oras on PATH.
ORAS=$("$REPO_DIR/scripts/lib/install-oras") || { echo "FAIL - cannot build oras"; exit 1; }
REGISTRY=$("$REPO_DIR/scripts/lib/install-registry") || { echo "FAIL - cannot build the registry"; exit 1; }
mkdir -p "$E2E_TMP/bin" && ln -s "$ORAS" "$E2E_TMP/bin/oras"
export PATH="$E2E_TMP/bin:$PATH"
REGS=()
cleanup_registries() { for p in "${REGS[@]}"; do kill "$p" 2>/dev/null; done; }
trap 'cleanup_registries; rm -rf "$E2E_TMP"' EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

# start_registry NAME [tls]: a registry storing under $E2E_TMP/NAME; prints its port. With tls: HTTPS with the
# test CA's serving certificate and htpasswd basic auth (user tazuna).
start_registry() {
  local name=$1 mode=${2:-} port dir=$E2E_TMP/$1
  port=$(free_port)
  mkdir -p "$dir"
  {
    printf 'version: 0.1\nlog: {level: error}\nstorage: {filesystem: {rootdirectory: %s/data}, delete: {enabled: true}}\n' "$dir"
    printf 'http:\n  addr: 127.0.0.1:%s\n' "$port"
    if [ "$mode" = tls ]; then
      printf '  tls: {certificate: %s/pki/apiserver.crt, key: %s/pki/apiserver.key}\n' "$E2E_TMP" "$E2E_TMP"
      printf 'auth: {htpasswd: {realm: tazuna, path: %s/htpasswd}}\n' "$E2E_TMP"
    fi
  } > "$dir/config.yml"
  "$REGISTRY" serve "$dir/config.yml" > "$dir/log" 2>&1 &
  REGS+=($!)
  local url=http://127.0.0.1:$port/v2/ ca=()
  [ "$mode" = tls ] && url=https://127.0.0.1:$port/v2/ ca=(--cacert "$E2E_TMP/pki/ca.crt")
  for _ in $(seq 100); do
    curl -s -o /dev/null "${ca[@]}" "$url" && break
    sleep 0.1
  done
  echo "$port"
}

