#!/usr/bin/env python3
"""Writes the seed corpora tests/fuzz/corpus/<target>/seed-* from the project's existing test data.

Run from anywhere: python3 tests/fuzz/make_corpus.py. Deterministic; replaces only seed-* files, so
regression cases (crash-*, added by scripts/fuzz or by hand) stay. Sources per target:
  yaml_json        documents of tests/testdata/compat/*.yaml, YAML of tests/e2e/fixtures and examples
  tazuna_load      tazuna.yaml of tests/e2e/fixtures and examples, plus files in load_test.cpp's shape
  kubeconfig       tests/testdata/kube/parity, YAML raw strings of tests/unit/kube/rest_config_test.cpp
  exec_credential  JSON raw strings of tests/unit/kube/exec_credential_test.cpp
  state_configmap  state in the Go tool's form as tests/e2e/state_list_diff_test.sh and store_test.cpp write it
  go_json          the Go oracle's JSON column of tests/unit/util/yaml_json_test.cpp, go_json_test.cpp values
  content_hash     the objects of tests/unit/state/content_hash_test.cpp and of the e2e fixtures
  api_answers      answers of a real kube-apiserver in tests/testdata/api_answers (record_api_answers.sh),
                   prefixed by the status byte and the discovery byte api_answers_fuzz.cpp reads
"""
import hashlib
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests/fuzz/corpus"
SEPARATOR = "\n#%next-file\n"  # tazuna_load: what follows is repo/inc/a.yaml, then repo/inc/b.yaml


def yaml_files(*dirs):
    for d in dirs:
        yield from sorted((ROOT / d).rglob("*.yaml"))


def split_documents(text):
    """Documents of a YAML stream, split on `---` lines (enough for the test data)."""
    docs, current = [], []
    for line in text.splitlines(keepends=True):
        if line.rstrip("\r\n") == "---" and current:
            docs.append("".join(current))
            current = []
        else:
            current.append(line)
    if current:
        docs.append("".join(current))
    return docs


def raw_strings(path):
    return re.findall(r'R"\((.*?)\)"', (ROOT / path).read_text(), re.S)


def yaml_json():
    for f in yaml_files("tests/testdata/compat"):
        data = f.read_bytes()
        if f.name in ("crlf.yaml", "billion_laughs.yaml", "deep.yaml"):  # only meaningful whole
            yield f"{f.stem}-whole", data
            continue
        for i, doc in enumerate(split_documents(data.decode("utf-8"))):
            yield f"{f.stem}-{i}", doc.encode()
    for f in yaml_files("tests/e2e/fixtures", "examples"):
        yield f"{f.parent.name}-{f.stem}", f.read_bytes()


LOAD_FULL = """apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  minimumSupportedTazunaVersion: v1.4.0
  context_matches: ["kind-.*"]
  environments:
    prod: { context_matches: ["prod-tokyo"], context_match_mode: and }
  providers:
    - { name: ops-env, type: envfile, envfile: { path: ./secrets/ops.env } }
  manifests:
    - name: cni
      type: kustomize
      path: ./cni/overlays/{{ .Environment }}
      kustomize: { defaultNamespace: kube-system }
      tags: [infra]
    - name: addons
      includes: [{ path: ./inc/a.yaml }]
    - name: cert-manager
      type: helmfile
      path: ./cert-manager
      dependsOn: [cni, metrics]
      helmfile:
        includeCRDs: yes
        kubeVersion: "1.31.0"
        extraValueFiles: [values/{{- .Environment -}}.yaml]
        vars:
          email: { from: env, env: ACME_EMAIL }
          token: { from: op, op: { key: id, vault: Platform, item: cm, field: token } }
          zones: { from: static, staticSlice: [a, b] }
    - name: chart
      type: oras
      oras: { reference: ghcr.io/x/y:1, delegate: helmfile }
""" + SEPARATOR + """apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - { name: metrics, type: manifests, path: addons/metrics-{{ .Environment }}.yaml }
    - { name: creds, type: genesissecret, path: secrets/creds.yaml }
"""

LOAD_SMALL = [
    "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n"
    "    - { name: a, type: manifests, path: a.yaml, dependsOn: [b] }\n"
    "    - { name: b, type: manifests, path: b.yaml }\n",
    "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  context_match_mode: or\n"
    "  environments:\n    dev: {}\n    prod: {}\n  manifests:\n"
    "    - includes: [{ path: inc/a.yaml }, { path: inc/b.yaml }]\n" + SEPARATOR +
    "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n"
    "    - { name: x, type: manifests, path: x }\n" + SEPARATOR +
    "apiVersion: tazuna.pepabo.com/v1\nkind: Tazuna\nspec:\n  manifests:\n"
    "    - { name: y, type: kustomize, path: y }\n",
]


def tazuna_load():
    for f in yaml_files("tests/e2e/fixtures", "examples"):
        if f.name == "tazuna.yaml":
            yield f"{f.parent.name}", f.read_bytes()
    yield "load-test-full", LOAD_FULL.encode()
    for i, text in enumerate(LOAD_SMALL):
        yield f"load-small-{i}", text.encode()


def kubeconfig():
    for f in sorted((ROOT / "tests/testdata/kube/parity").rglob("*.yaml")):
        yield f"parity-{f.stem}", f.read_bytes()
    for i, text in enumerate(raw_strings("tests/unit/kube/rest_config_test.cpp")):
        if "clusters:" in text or "users:" in text or "contexts:" in text:
            yield f"rest-config-test-{i}", text.encode()


def exec_credential():
    for i, text in enumerate(raw_strings("tests/unit/kube/exec_credential_test.cpp")):
        if text.startswith("{") and text.endswith("}"):
            yield f"exec-credential-test-{i}", text.encode()
    yield "expiring", (b'{"apiVersion":"client.authentication.k8s.io/v1","kind":"ExecCredential",'
                       b'"status":{"token":"t","expirationTimestamp":"2026-01-02T03:04:05.123456+09:00"}}')


def state_configmap():
    h = "0" * 64
    g = hashlib.sha256(b"go").hexdigest()
    long_key = "m//v1/ConfigMap/ns/" + "x" * 300
    hashed = "_h" + hashlib.sha256(long_key.encode()).hexdigest()[:40]
    states = {
        "go-form": {"m____v1__ConfigMap__ns__keep": json.dumps({"contentHash": g}, separators=(",", ":")),
                    "m__apps__v1__Deployment__ns__web": '{"contentHash":"%s"}' % h,
                    "m__rbac.authorization.k8s.io__v1__ClusterRole__admin_x3aview": '{"contentHash":"%s"}' % h,
                    "_metadata": '{"gitCommitHash":"abc","lastSyncedAt":"2026-01-02T03:04:05Z"}'},
        "sharded": {"m____v1__ConfigMap__ns__a": '{"contentHash":"%s"}' % g,
                    "_metadata": '{"gitCommitHash":"","lastSyncedAt":"t","shards":["tazuna-state-m.0a1b2c3d.1"]}'},
        "legacy-count": {"_metadata": '{"gitCommitHash":"","lastSyncedAt":"t","shards":2}'},
        "hashed-key": {hashed: json.dumps({"contentHash": h, "key": long_key}, separators=(",", ":"))},
        "unconfirmed": {"m____v1__ConfigMap__ns__a": '{"contentHash":""}'},
        "legacy-plain": {"m____v1__ConfigMap__ns__plain": '{"contentHash":"%s"}' % h},
        "bad-entry": {"m____v1__ConfigMap__c": "not json"},
    }
    for name, data in states.items():
        yield name, json.dumps(data).encode()
    yield "data-key", b"m__apps__v1__Deployment__ns__web_x2dx"
    yield "state-key", b"m/apps/v1/Deployment/ns/web"


def go_json():
    text = (ROOT / "tests/unit/util/yaml_json_test.cpp").read_text()
    for i, m in enumerate(re.findall(r'^\s*\{"(?:[^"\\]|\\.)*", "((?:[^"\\]|\\.)*)"\},$', text, re.M)):
        value = bytes(m, "utf-8").decode("unicode_escape")
        if value != "error":
            yield f"typing-{i}", value.encode("utf-8", "surrogatepass")
    for i, t in enumerate(raw_strings("tests/unit/util/go_json_test.cpp")):
        yield f"go-json-test-{i}", t.encode()
    yield "numbers", b'[0,-0,1e21,1e-7,123456789012345678901234,9007199254740993,18446744073709551615,0.1,1.5e300]'
    yield "strings", '["<a href>&", "\\u2028\\u2029", "\\ud83d\\ude00", "é", "\\u0000"]'.encode()


def content_hash():
    for i, t in enumerate(raw_strings("tests/unit/state/content_hash_test.cpp")):
        yield f"content-hash-test-{i}", t.encode()
    yield "served", json.dumps({"apiVersion": "apps/v1", "kind": "Deployment",
                                "metadata": {"name": "web", "namespace": "ns", "resourceVersion": "1", "uid": "u",
                                             "generation": 2, "labels": {"a": "<b>"}},
                                "spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "c"}]}}},
                                "status": {"readyReplicas": 3}}).encode()
    yield "not-an-object", b'[1, "two", 3.5]'


# api_answers_fuzz.cpp's kStatuses: byte 0 of an input is an index into it.
API_STATUSES = [200, 201, 400, 401, 403, 404, 409, 410, 422, 429, 500, 503]


def api_answers():
    for path in sorted((ROOT / "tests/testdata/api_answers").glob("*.json")):
        status, name = path.stem.split("-", 1)
        discovery = 1 if name.startswith("discovery") else 0
        yield name, bytes([API_STATUSES.index(int(status)), discovery]) + path.read_bytes()
    expired = {"kind": "Status", "apiVersion": "v1", "status": "Failure", "reason": "Expired", "code": 410,
               "message": "The provided continue parameter is too old to display a consistent list result."}
    yield "status-expired", bytes([API_STATUSES.index(410), 0]) + json.dumps(expired).encode()
    yield "throttled", bytes([API_STATUSES.index(429), 0]) + b'{"kind":"Status","reason":"TooManyRequests","code":429}'
    yield "endless-list", bytes([0, 0]) + b'{"kind":"ConfigMapList","items":[],"metadata":{"continue":"again"}}'


def main():
    for target, seeds in [("yaml_json", yaml_json), ("tazuna_load", tazuna_load), ("kubeconfig", kubeconfig),
                          ("exec_credential", exec_credential), ("state_configmap", state_configmap),
                          ("go_json", go_json), ("content_hash", content_hash), ("api_answers", api_answers)]:
        out = CORPUS / target
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("seed-*"):
            old.unlink()
        count = 0
        for name, data in seeds():
            (out / f"seed-{name}").write_bytes(data)
            count += 1
        print(f"{target}: {count} seeds")


if __name__ == "__main__":
    main()
