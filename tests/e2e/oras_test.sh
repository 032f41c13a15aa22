#!/usr/bin/env bash
# e2e (#49): `type: oras` against a real registry (the CNCF distribution registry, built from its Go module, on
# loopback: plain HTTP, and TLS with the test's own CA plus htpasswd basic auth) with artifacts pushed by the real
# `oras` CLI. Pulled by tag and by digest; a real kustomize base (prometheus-operator's, from its Go module) gives
# the objects `kubectl kustomize` gives on the same files; a tag moved to new content renders the new content and
# nothing of the old; oras.target and the delegate's defaultNamespace; the not-rendered path of a pinned artifact;
# --offline and --no-cache; a pull killed while it unpacks; archives the Go tool refuses (absolute and `..` paths,
# links leaving the root, devices, too many entries, too many bytes), layers that are not archives, two layers,
# a layer whose bytes the registry changed; a registry that is down, refuses the credentials (401, 403) or
# stalls; runs racing to unpack the same freshly moved tag; credentials from docker's config.json and from a
# credential helper; oras.auth refused; and the password never printed. About 2 minutes (release build).
source "$(dirname "$0")/lib.sh"

source "$(dirname "$0")/registry.sh"
export XDG_CACHE_HOME=$E2E_TMP/cache  # the plugin's ORAS cache and render cache: nothing from other runs
export DOCKER_CONFIG=$E2E_TMP/docker  # no credentials unless a case writes some
mkdir -p "$DOCKER_CONFIG"
ns=$(new_namespace oras)
art=art-$(date +%s%N | tail -c 7)  # the manifest's name: its state ConfigMap is this run's alone
kubectl create namespace "$ns" >/dev/null
"$REPO_DIR/scripts/lib/gen-certs" "$E2E_TMP/pki" >/dev/null
PASSWORD=pw-$RANDOM-$RANDOM-secret
python3 -W ignore -c 'import crypt,sys; print("tazuna:" + crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH)))' \
  "$PASSWORD" > "$E2E_TMP/htpasswd"
PLAIN=127.0.0.1:$(start_registry plain)
SECURE=127.0.0.1:$(start_registry secure tls)

# push REF DIR [oras flags]: DIR packed as one tar.gz layer (as the Go tool's users publish), pushed with oras.
push() {
  local ref=$1 dir=$2; shift 2
  tar czf "$E2E_TMP/layer.tar.gz" -C "$dir" .
  (cd "$E2E_TMP" && oras push --plain-http "$@" "$ref" "layer.tar.gz:application/vnd.oci.image.layer.v1.tar+gzip" >/dev/null)
}
# push_file REF FILE MEDIATYPE: FILE as the one layer, as it is.
push_file() {
  (cd "$(dirname "$2")" && oras push --plain-http "$1" "$(basename "$2"):$3" >/dev/null)
}
digest_of() { oras resolve --plain-http "$1"; }

# oras_repo DIR REF [EXTRA]: DIR/tazuna.yaml with the one oras manifest `art` delegating to kustomize.
oras_repo() {
  mkdir -p "$1"
  tazuna_yaml "$1" "{name: $art, type: oras, path: ., oras: {reference: \"$2\", plainHTTP: true, delegate: {type: kustomize${4:+, $4}}${3:+, $3}}}"
}

# objects FILE: the objects of multi-document YAML, normalized and sorted (kind, namespace, name, body).
objects() {
  python3 - "$1" <<'PY'
import json, sys, yaml
yaml.SafeLoader.add_constructor("tag:yaml.org,2002:value", yaml.SafeLoader.construct_yaml_str)  # a CRD's enum "="
docs = [d for d in yaml.safe_load_all(open(sys.argv[1])) if d]
key = lambda d: (d.get("kind", ""), d.get("metadata", {}).get("namespace", ""), d["metadata"]["name"])
for d in sorted(docs, key=key):
    print(json.dumps(d, sort_keys=True))
PY
}

# ---------------------------------------------------------------- a real kustomize base, by tag and by digest
PO_DIR=$(cd "$E2E_TMP" && GOFLAGS=-mod=mod go mod download -json "github.com/prometheus-operator/prometheus-operator@v0.79.2" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])') || { echo "FAIL - cannot download prometheus-operator"; exit 1; }
mkdir -p "$E2E_TMP/po" && cp "$PO_DIR/kustomization.yaml" "$PO_DIR/bundle.yaml" "$E2E_TMP/po/" && chmod -R u+w "$E2E_TMP/po"
push "$PLAIN/po:v0.79.2" "$E2E_TMP/po"
kubectl kustomize "$E2E_TMP/po" > "$E2E_TMP/po.want.yaml"
oras_repo "$E2E_TMP/r1" "$PLAIN/po:v0.79.2"
cd "$E2E_TMP/r1"
expect_rc 0 "build: prometheus-operator's kustomize base pulled by tag" kubectl tazuna build -v 2
printf '%s\n' "$OUT" > "$E2E_TMP/po.got.yaml"
expect_eq "$(objects "$E2E_TMP/po.got.yaml" | md5sum)" "$(objects "$E2E_TMP/po.want.yaml" | md5sum)" \
  "the objects kubectl kustomize renders from the same files"
expect_eq "$(objects "$E2E_TMP/po.got.yaml" | wc -l)" "$(grep -c '^kind:' "$E2E_TMP/po.want.yaml")" "all of them ($(grep -c '^kind:' "$E2E_TMP/po.want.yaml"))"
expect_contains "$ERR" "unpacked" "the layer unpacked by the plugin"
expect_rc 0 "build again" kubectl tazuna build -v 2
expect_not_contains "$ERR" "unpacked" "... from the cache: not fetched or unpacked again"
expect_contains "$ERR" "manifest \"$art\" read from the render cache" "... and the render from the render cache"
po_digest=$(digest_of "$PLAIN/po:v0.79.2")
oras_repo "$E2E_TMP/r2" "$PLAIN/po@$po_digest"
cd "$E2E_TMP/r2"
expect_rc 0 "build by digest" kubectl tazuna build
printf '%s\n' "$OUT" > "$E2E_TMP/po.digest.yaml"
expect_eq "$(objects "$E2E_TMP/po.digest.yaml" | md5sum)" "$(objects "$E2E_TMP/po.want.yaml" | md5sum)" "the same objects"

# ---------------------------------------------------------------- a tag moved; target; defaultNamespace
app=$E2E_TMP/app
mkdir -p "$app/base" "$app/overlays/dev"
printf 'resources: [a.yaml, b.yaml]\n' > "$app/base/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: oras-a}\ndata: {v: "1"}\n' > "$app/base/a.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: oras-b}\ndata: {v: "1"}\n' > "$app/base/b.yaml"
printf 'resources: [../../base]\nnamePrefix: dev-\n' > "$app/overlays/dev/kustomization.yaml"
push "$PLAIN/app:stable" "$app"
oras_repo "$E2E_TMP/r3" "$PLAIN/app:stable" "target: overlays/dev" "kustomize: {defaultNamespace: $ns}"
cd "$E2E_TMP/r3"
expect_rc 0 "build: oras.target inside the artifact" kubectl tazuna build
expect_contains "$OUT" "name: dev-oras-b" "the overlay rendered"
expect_contains "$OUT" "namespace: $ns" "the delegate's defaultNamespace set"
expect_rc 0 "sync" kubectl tazuna state sync --wait=false
expect_eq "$(state_keys "$art")" "${art}____v1__ConfigMap__${ns}__dev-oras-a ${art}____v1__ConfigMap__${ns}__dev-oras-b" \
  "the state keys carry the delegate's defaultNamespace"
expect_rc 0 "diff after the sync" kubectl tazuna state diff -v 2
expect_contains "$ERR" "manifest \"$art\" not rendered: its state records the render of the same inputs" \
  "a tag resolving to the recorded artifact: not rendered"
rm "$app/base/b.yaml"
printf 'resources: [a.yaml]\n' > "$app/base/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: oras-a}\ndata: {v: "2"}\n' > "$app/base/a.yaml"
push "$PLAIN/app:stable" "$app"
expect_rc 1 "diff after the tag moved" kubectl tazuna state diff -v 2
expect_contains "$OUT" "dev-oras-b" "the removed file's object is a row ..."
expect_contains "$ERR" "rendering manifest \"$art\"" "... from a new render"
expect_rc 0 "build" kubectl tazuna build
expect_not_contains "$OUT" "oras-b" "nothing of the old artifact"
expect_contains "$OUT" 'v: "2"' "the new content"
expect_eq "$(ls "$XDG_CACHE_HOME/kubectl-tazuna/oras/tmp" | wc -l)" "0" "no temporary files left"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: oras-a}\ndata: {v: "3"}\n' > "$app/base/a.yaml"
push "$PLAIN/app:stable" "$app"
expect_rc 0 "build --offline after the tag moved again" kubectl tazuna build --offline -v 2
expect_contains "$OUT" 'v: "2"' "... the artifact the tag last resolved to on this machine"
expect_not_contains "$ERR" "unpacked" "... from the cache"
expect_rc 0 "build --no-cache" kubectl tazuna build --no-cache -v 2
expect_contains "$OUT" 'v: "3"' "... the tag resolved again"
expect_contains "$ERR" "unpacked" "... fetched and unpacked"
expect_rc 0 "build --no-cache again" kubectl tazuna build --no-cache -v 2
expect_contains "$ERR" "unpacked" "... unpacked again although cached"
expect_rc 2 "--offline with --no-cache" kubectl tazuna build --offline --no-cache
expect_eq "$ERR" "error: --offline and --no-cache cannot be used together" "... refused in one line"
expect_rc 0 "build --offline: now the new resolution" kubectl tazuna build --offline
expect_contains "$OUT" 'v: "3"' "... recorded by the last online run"
# Runs racing to unpack the same new artifact (as CI jobs sharing a cache do), each then rendering it for a second
# or so (prometheus-operator's base): the first tree in place is kept, never taken from under a run rendering it;
# --no-cache runs swap theirs in without a moment of absence. The plugin itself, so that the runs start together.
(cd "$E2E_TMP/r1" && kubectl-tazuna build --kubeconfig /dev/null > "$E2E_TMP/race-want.out")
oras_repo "$E2E_TMP/rr" "$PLAIN/po:race"
cd "$E2E_TMP/rr"
for round in 1 2 3 4; do
  echo "round $round $RANDOM" > "$E2E_TMP/po/race.txt"  # not a resource: a new layer digest, the same objects
  push "$PLAIN/po:race" "$E2E_TMP/po"
  pids=()
  for i in 1 2 3 4 5 6; do
    flag=; [ $((i % 3)) = 0 ] && flag=--no-cache
    kubectl-tazuna build --kubeconfig /dev/null $flag > "$E2E_TMP/race-$i.out" 2> "$E2E_TMP/race-$i.err" & pids+=($!)
  done
  bad=0
  for i in 1 2 3 4 5 6; do
    wait "${pids[$((i - 1))]}" || { bad=$((bad + 1)); echo "  round $round run $i: $(head -3 "$E2E_TMP/race-$i.err")"; }
    cmp -s "$E2E_TMP/race-$i.out" "$E2E_TMP/race-want.out" || bad=$((bad + 1))
  done
  expect_eq "$bad" "0" "round $round: 6 concurrent builds (2 of them --no-cache) of a freshly moved tag all render it whole"
done
rm -f "$E2E_TMP/po/race.txt"
expect_eq "$(ls "$XDG_CACHE_HOME/kubectl-tazuna/oras/tmp" | wc -l)" "0" "... and leave no temporary files"

# ---------------------------------------------------------------- archives and layers refused
bad=$E2E_TMP/bad
mkdir -p "$bad"
python3 - "$bad" <<'PY'
import io, os, sys, tarfile
d = sys.argv[1]
def tar(name, entries, gz=True):
    with tarfile.open(os.path.join(d, name), "w:gz" if gz else "w", format=tarfile.GNU_FORMAT) as t:
        for info, data in entries:
            t.addfile(info, io.BytesIO(data) if data is not None else None)
def f(name, data=b"x"):
    i = tarfile.TarInfo(name); i.size = len(data); return (i, data)
def link(name, target, kind):
    i = tarfile.TarInfo(name); i.type = kind; i.linkname = target; return (i, None)
def dev(name, kind):
    i = tarfile.TarInfo(name); i.type = kind; i.devmajor = 1; i.devminor = 3; return (i, None)
k = f("kustomization.yaml", b"resources: []\n")
tar("absolute.tar.gz", [k, f("/etc/evil")])
tar("dotdot.tar.gz", [k, f("a/../../evil")])
tar("symlink.tar.gz", [k, link("l", "../../outside", tarfile.SYMTYPE)])
tar("hardlink.tar.gz", [k, link("h", "../outside", tarfile.LNKTYPE)])
tar("device.tar.gz", [k, dev("null", tarfile.CHRTYPE)])
tar("fifo.tar", [k, dev("p", tarfile.FIFOTYPE)], gz=False)
tar("entries.tar.gz", [k] + [f("f%05d" % i, b"") for i in range(10000)])
# a header declaring more than 1 GiB (with none of it sent): refused before anything is read
with open(os.path.join(d, "huge.tar"), "wb") as out:
    big = tarfile.TarInfo("big"); big.size = (1 << 30) + 1
    out.write(big.tobuf(format=tarfile.GNU_FORMAT) + b"\0" * 1024)
open(os.path.join(d, "notes.txt"), "w").write("not an archive\n")
PY
refused() {  # refused DESC REF WANT
  oras_repo "$E2E_TMP/rb" "$2"
  cd "$E2E_TMP/rb"
  expect_rc 2 "build refuses $1" kubectl tazuna build
  expect_contains "$ERR" "$3" "... saying: $3"
  expect_eq "$(printf '%s\n' "$ERR" | grep -c .)" "1" "... in one line"
}
for c in absolute:"entry \"/etc/evil\": an absolute path or one with \`..\`" \
         dotdot:"entry \"a/../../evil\": an absolute path or one with \`..\`" \
         symlink:"entry \"l\": a symlink to \"../../outside\" leaves the artifact" \
         hardlink:"entry \"h\": a hard link to \"../outside\" leaves the artifact" \
         device:"entry \"null\": a device or FIFO" \
         entries:"the archive has more than 10000 entries"; do
  name=${c%%:*}
  push_file "$PLAIN/bad:$name" "$bad/$name.tar.gz" application/vnd.oci.image.layer.v1.tar+gzip
  refused "$name" "$PLAIN/bad:$name" "${c#*:}"
done
push_file "$PLAIN/bad:fifo" "$bad/fifo.tar" application/vnd.oci.image.layer.v1.tar
refused "a FIFO" "$PLAIN/bad:fifo" "entry \"p\": a device or FIFO"
push_file "$PLAIN/bad:huge" "$bad/huge.tar" application/vnd.oci.image.layer.v1.tar
refused "over 1 GiB" "$PLAIN/bad:huge" "the archive's files are larger than 1073741824 bytes"
push_file "$PLAIN/bad:text" "$bad/notes.txt" text/plain
refused "a layer that is not an archive" "$PLAIN/bad:text" "the layer's media type \"text/plain\" is not an archive"
push_file "$PLAIN/bad:lies" "$bad/notes.txt" application/vnd.oci.image.layer.v1.tar
refused "a tar layer that is not a tar" "$PLAIN/bad:lies" "the layer is not a tar archive"
(cd "$bad" && cp "$E2E_TMP/layer.tar.gz" two.tar.gz &&
  oras push --plain-http "$PLAIN/bad:two" notes.txt:application/vnd.oci.image.layer.v1.tar two.tar.gz:application/vnd.oci.image.layer.v1.tar+gzip >/dev/null)
refused "two layers" "$PLAIN/bad:two" "the artifact has 2 layers; exactly one tar or tar.gz is expected"
expect_eq "$(ls "$XDG_CACHE_HOME/kubectl-tazuna/oras/tmp" | wc -l)" "0" "a refused archive leaves nothing behind"

# a layer whose bytes changed in the registry's storage: the digest check refuses it
echo "tampered-$RANDOM" > "$app/base/unique.txt"  # a layer of its own, not one in the cache
push "$PLAIN/app:tampered" "$app"
rm "$app/base/unique.txt"
layer=$(oras manifest fetch --plain-http "$PLAIN/app:tampered" | python3 -c 'import json,sys; print(json.load(sys.stdin)["layers"][0]["digest"][7:])')
blob=$(find "$E2E_TMP/plain/data" -path "*/blobs/sha256/*/$layer/data")
cp "$E2E_TMP/layer.tar.gz" "$E2E_TMP/tampered" && printf 'x' >> "$E2E_TMP/tampered" && cp "$E2E_TMP/tampered" "$blob"
oras_repo "$E2E_TMP/rb" "$PLAIN/app:tampered"
cd "$E2E_TMP/rb"
expect_rc 2 "build of a layer the registry changed" kubectl tazuna build
expect_contains "$ERR" "oras: \"$PLAIN/app:tampered\": " "... refused, naming the reference"
expect_contains "$ERR" "digest" "... for its digest"

# ---------------------------------------------------------------- a pull killed while it unpacks
big=$E2E_TMP/big
mkdir -p "$big"
printf 'resources: [cm.yaml]\n' > "$big/kustomization.yaml"
printf 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: oras-big}\ndata: {v: "1"}\n' > "$big/cm.yaml"
head -c 400000000 /dev/zero > "$big/padding.bin"
push "$PLAIN/big:v1" "$big"
rm -f "$big/padding.bin"
oras_repo "$E2E_TMP/rk" "$PLAIN/big:v1"
cd "$E2E_TMP/rk"
kubectl-tazuna build >/dev/null 2>&1 &  # the plugin itself, so that the kill reaches it
pid=$!
for _ in $(seq 400); do compgen -G "$XDG_CACHE_HOME/kubectl-tazuna/oras/tmp/tree-*/padding.bin" >/dev/null && break; sleep 0.02; done
kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
if compgen -G "$XDG_CACHE_HOME/kubectl-tazuna/oras/tmp/tree-*/padding.bin" >/dev/null; then pass "killed while unpacking"; else
  fail "killed while unpacking: the unpacking was not seen"; fi
expect_rc 0 "build after the killed pull" kubectl tazuna build
expect_contains "$OUT" "name: oras-big" "the whole artifact rendered"

# ---------------------------------------------------------------- registries that fail
oras_repo "$E2E_TMP/rd" "127.0.0.1:$(free_port)/app:v1"
cd "$E2E_TMP/rd"
expect_rc 2 "build against a registry that is down" kubectl tazuna build
expect_contains "$ERR" "connection refused" "... says why"
expect_eq "$(printf '%s\n' "$ERR" | grep -c .)" "1" "... in one line"
expect_rc 2 "build --offline of a tag never resolved here" kubectl tazuna build --offline
expect_contains "$ERR" "never resolved on this machine; run once without --offline" "... says so"
state_before=$(kubectl get cm -n tazuna "tazuna-state-$art" -o jsonpath='{.metadata.resourceVersion}')
expect_rc 2 "sync against a registry that is down" kubectl tazuna state sync --wait=false
expect_eq "$(kubectl get cm -n tazuna "tazuna-state-$art" -o jsonpath='{.metadata.resourceVersion}')" "$state_before" \
  "the state of the earlier sync is unchanged"
expect_eq "$(kubectl get cm -n "$ns" dev-oras-b -o name 2>/dev/null)" "configmap/dev-oras-b" "nothing deleted"
oras_repo "$E2E_TMP/rm" "$PLAIN/app:no-such-tag"
cd "$E2E_TMP/rm"
expect_rc 2 "build of a tag that does not exist" kubectl tazuna build
expect_contains "$ERR" "not found" "... says so"
stall_port=$(free_port)
python3 -c '
import socket, sys, time
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(8)
conns = []
while True:
    c, _ = s.accept(); conns.append(c)
' "$stall_port" &
REGS+=($!)
sleep 0.3
oras_repo "$E2E_TMP/rs" "127.0.0.1:$stall_port/app:v1"
cd "$E2E_TMP/rs"
start=$(date +%s)
TAZUNA_ORAS_TIMEOUT=3 expect_rc 2 "build against a registry that stalls" kubectl tazuna build
expect_contains "$ERR" "the registry did not answer within 3s" "... stops after TAZUNA_ORAS_TIMEOUT"
[ "$(elapsed_since "$start")" -lt 20 ] && pass "... once, not for every pass" || fail "the stall took $(elapsed_since "$start") s"
# a registry that forbids this user the repository (403 and the distribution spec's DENIED error, as registries with
# token auth answer a pull the token's scope does not cover)
deny_port=$(free_port)
python3 -c '
import http.server, sys
class Deny(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"{\"errors\":[{\"code\":\"DENIED\",\"message\":\"requested access to the resource is denied\"}]}"
        self.send_response(403); self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
    do_HEAD = do_GET
    def log_message(self, *a): pass
http.server.HTTPServer(("127.0.0.1", int(sys.argv[1])), Deny).serve_forever()
' "$deny_port" &
REGS+=($!)
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$deny_port/v2/" && break; sleep 0.1; done
oras_repo "$E2E_TMP/rf" "127.0.0.1:$deny_port/app:v1"
cd "$E2E_TMP/rf"
expect_rc 2 "build against a registry that answers 403" kubectl tazuna build
expect_contains "$ERR" "oras: \"127.0.0.1:$deny_port/app:v1\": " "... naming the reference"
expect_contains "$ERR" "response status code 403: Forbidden" "... with the registry's answer"
expect_eq "$(printf '%s\n' "$ERR" | grep -c .)" "1" "... in one line"

# ---------------------------------------------------------------- TLS with our CA, basic auth from docker's config.json
(cd "$E2E_TMP" && tar czf layer.tar.gz -C "$app" . &&
  SSL_CERT_FILE=$E2E_TMP/pki/ca.crt oras push -u tazuna -p "$PASSWORD" "$SECURE/app:v1" \
    layer.tar.gz:application/vnd.oci.image.layer.v1.tar+gzip >/dev/null) || fail "push to the TLS registry"
export SSL_CERT_FILE=$E2E_TMP/pki/ca.crt
mkdir -p "$E2E_TMP/rt"
tazuna_yaml "$E2E_TMP/rt" "{name: $art, type: oras, path: ., oras: {reference: \"$SECURE/app:v1\", target: overlays/dev, delegate: {type: kustomize}}}"
cd "$E2E_TMP/rt"
expect_rc 2 "build without credentials" kubectl tazuna build
expect_contains "$ERR" "oras: \"$SECURE/app:v1\": failed to resolve digest: basic credential not found" "... oras's answer"
auth=$(printf 'tazuna:%s' "$PASSWORD" | base64 -w0)
printf '{"auths": {"%s": {"auth": "%s"}}}\n' "$SECURE" "$auth" > "$DOCKER_CONFIG/config.json"
expect_rc 0 "build with docker's config.json" kubectl tazuna build -v 10
expect_contains "$OUT" "name: dev-oras-a" "the artifact rendered"
expect_not_contains "$OUT$ERR" "$PASSWORD" "the password is never printed (-v 10)"
expect_not_contains "$OUT$ERR" "$auth" "... nor its base64"
printf '{"auths": {"%s": {"auth": "%s"}}}\n' "$SECURE" "$(printf 'tazuna:wrong-%s' "$PASSWORD" | base64 -w0)" > "$DOCKER_CONFIG/config.json"
expect_rc 2 "build with a wrong password" kubectl tazuna build --no-render-cache -v 10
expect_not_contains "$OUT$ERR" "$PASSWORD" "the wrong password is not printed either"
# a docker credential helper (credHelpers), as oras and docker run it: `docker-credential-NAME get`, the server on stdin
mkdir -p "$E2E_TMP/credbin"
cat > "$E2E_TMP/credbin/docker-credential-tazunatest" <<EOF
#!/bin/sh
[ "\$1" = get ] || exit 1
read -r server
echo "\$server" >> "$E2E_TMP/credbin/asked"
printf '{"ServerURL":"%s","Username":"tazuna","Secret":"%s"}\n' "\$server" "$PASSWORD"
EOF
chmod +x "$E2E_TMP/credbin/docker-credential-tazunatest"
printf '{"credHelpers": {"%s": "tazunatest"}}\n' "$SECURE" > "$DOCKER_CONFIG/config.json"
PATH=$E2E_TMP/credbin:$PATH expect_rc 0 "build with a credential helper" kubectl tazuna build --no-cache -v 10
expect_contains "$OUT" "name: dev-oras-a" "the artifact rendered"
expect_contains "$(cat "$E2E_TMP/credbin/asked" 2>/dev/null)" "$SECURE" "the helper was asked for the registry"
expect_not_contains "$OUT$ERR" "$PASSWORD" "the helper's secret is never printed (-v 10)"
unset SSL_CERT_FILE
rm -f "$DOCKER_CONFIG/config.json"
oras_repo "$E2E_TMP/ra" "$PLAIN/app:stable" "auth: {username: tazuna, password: \"$PASSWORD\"}"
cd "$E2E_TMP/ra"
expect_rc 2 "oras.auth in tazuna.yaml" kubectl tazuna build
expect_contains "$ERR" "oras.auth: not supported; log in with \`oras login\` (credentials come from its store)" "... refused with its hint"
expect_eq "$(printf '%s\n' "$ERR" | grep -c .)" "1" "... in one line"
expect_not_contains "$OUT$ERR" "$PASSWORD" "... and the password in it is not printed"

kubectl delete cm -n tazuna "tazuna-state-$art" >/dev/null 2>&1
kubectl delete namespace "$ns" --wait=false >/dev/null 2>&1
finish
