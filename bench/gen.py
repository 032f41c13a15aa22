#!/usr/bin/env python3
"""Generates the synthetic repositories measured by scripts/bench.

gen.py OUT N PREFIX
  Writes, for N objects (ConfigMaps 40%, Secrets 20%, headless Services 20%, Deployments 20%, spread in blocks of 10 over
  5 manifests, one namespace per manifest named PREFIX-mJ, each namespace also an object of its manifest):
    OUT/base/tazuna.yaml               5 manifests of type `manifests` (./manifests/mJ), names PREFIX-mJ
    OUT/base/manifests/mJ/*.yaml       multi-document files, 20 objects each; 00-namespace.yaml first
    OUT/changed/...                    the same with every 10th object changed (a data value, a port, an env value)
    OUT/revert/mJ/*.yaml               only the changed objects, in their base form (to undo a 10% change cheaply)
    OUT/base-kustomize/, OUT/changed-kustomize/   the same objects as 5 `kustomize` manifests (for the Go tazuna)
    OUT/objects-{base,changed,changed-only,revert-only}.json   [{"path": REST path, "body": object}] for bench/loadgen
Services are headless (clusterIP: None) so that thousands fit in the local cluster's /24 service range.
Output is deterministic: the same arguments give byte-identical files.
"""
import json
import re
import os
import shutil
import sys

MANIFESTS = 5
PER_FILE = 20


def kind_of(i):
    r = i % 10
    if r < 4:
        return "ConfigMap"
    if r < 6:
        return "Secret"
    if r < 8:
        return "Service"
    return "Deployment"


def is_changed(i):
    # 10% of the objects, spread over every kind (i % 10 picks the kind).
    return i % 10 == (i // 10) % 10


def b64(s):
    import base64
    return base64.b64encode(s.encode()).decode()


def make(i, ns, changed):
    kind = kind_of(i)
    rev = "2" if changed else "1"
    name = f"{kind.lower()}-{i:05d}"
    labels = {"app.kubernetes.io/name": f"bench-{i % 50}", "app.kubernetes.io/part-of": "tazuna-bench"}
    meta = {"name": name, "namespace": ns, "labels": labels}
    if kind == "ConfigMap":
        return {"apiVersion": "v1", "kind": kind, "metadata": meta,
                "data": {"revision": rev, "app.properties": f"key.{i}=value-{i}\nlog.level=info\nrevision={rev}\n",
                         "settings.json": json.dumps({"id": i, "enabled": True, "tags": ["a", "b", "c"]})}}
    if kind == "Secret":
        return {"apiVersion": "v1", "kind": kind, "metadata": meta, "type": "Opaque",
                "data": {"username": b64(f"user-{i}"), "password": b64(f"secret-{i}-rev{rev}")}}
    if kind == "Service":
        return {"apiVersion": "v1", "kind": kind, "metadata": meta,
                "spec": {"clusterIP": "None", "selector": {"app.kubernetes.io/name": f"bench-{i % 50}"},
                         "ports": [{"name": "http", "port": 8080 if not changed else 8081, "targetPort": 8080,
                                    "protocol": "TCP"}]}}
    sel = {"app.kubernetes.io/name": name}
    return {"apiVersion": "apps/v1", "kind": kind, "metadata": meta,
            "spec": {"replicas": 1, "selector": {"matchLabels": sel},
                     "template": {"metadata": {"labels": sel},
                                  "spec": {"containers": [{
                                      "name": "app", "image": "registry.example/bench/app:1.0",
                                      "ports": [{"containerPort": 8080}],
                                      "env": [{"name": "REVISION", "value": rev}, {"name": "INDEX", "value": str(i)}],
                                      "resources": {"requests": {"cpu": "10m", "memory": "16Mi"}}}]}}}}


def rest_path(obj):
    kind, ns, name = obj["kind"], obj["metadata"].get("namespace"), obj["metadata"]["name"]
    if kind == "Namespace":
        return f"/api/v1/namespaces/{name}"
    plural = {"ConfigMap": "configmaps", "Secret": "secrets", "Service": "services"}.get(kind)
    if plural:
        return f"/api/v1/namespaces/{ns}/{plural}/{name}"
    return f"/apis/apps/v1/namespaces/{ns}/deployments/{name}"


PLAIN = re.compile(r"^[A-Za-z][A-Za-z0-9_./-]*$")
RESERVED = {"y", "n", "yes", "no", "on", "off", "true", "false", "null"}


def scalar(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if PLAIN.match(v) and v.lower() not in RESERVED:
        return v
    return json.dumps(v)  # a JSON string is a valid YAML double-quoted scalar


def emit(v, indent, out):
    """Block-style YAML, as people write it: maps indented by 2, list items as '- ' at the map's indent."""
    pad = " " * indent
    if isinstance(v, dict):
        for k, x in v.items():
            if isinstance(x, (dict, list)) and x:
                out.append(f"{pad}{scalar(k)}:")
                emit(x, indent + 2 if isinstance(x, dict) else indent, out)
            else:
                out.append(f"{pad}{scalar(k)}: {scalar(x) if not isinstance(x, (dict, list)) else json.dumps(x)}")
    else:
        for x in v:
            if isinstance(x, dict) and x:
                sub = []
                emit(x, indent + 2, sub)
                out.append(pad + "- " + sub[0][indent + 2:])
                out.extend(sub[1:])
            else:
                out.append(f"{pad}- {scalar(x)}")


def dump(docs):
    out = []
    for d in docs:
        out.append("---")
        emit(d, 0, out)
    return "\n".join(out) + "\n"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def main():
    out, n, prefix = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if os.path.exists(out):
        shutil.rmtree(out)
    namespaces = [f"{prefix}-m{j}" for j in range(MANIFESTS)]
    per_manifest = {j: [i for i in range(n) if (i // 10) % MANIFESTS == j] for j in range(MANIFESTS)}  # blocks of 10: every kind in every manifest
    objs = {}
    for variant in ("base", "changed"):
        objs[variant] = {}
        for j, idx in per_manifest.items():
            ns_obj = {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": namespaces[j]}}
            objs[variant][j] = [ns_obj] + [make(i, namespaces[j], variant == "changed" and is_changed(i)) for i in idx]
    for variant in ("base", "changed"):
        for kustomize in (False, True):
            root = os.path.join(out, variant + ("-kustomize" if kustomize else ""))
            mtype = "kustomize" if kustomize else "manifests"
            lines = ["apiVersion: tazuna.pepabo.com/v1", "kind: Tazuna", "spec:", "  manifests:"]
            for j in range(MANIFESTS):
                name = f"{prefix}-m{j}"
                lines.append(f"    - {{name: {name}, type: {mtype}, path: ./manifests/m{j}}}")
                docs = objs[variant][j]
                d = os.path.join(root, "manifests", f"m{j}")
                files = ["00-namespace.yaml"]
                write(os.path.join(d, files[0]), dump(docs[:1]))
                body = docs[1:]
                for k in range(0, len(body), PER_FILE):
                    fn = f"objects-{k // PER_FILE + 1:04d}.yaml"
                    files.append(fn)
                    write(os.path.join(d, fn), dump(body[k:k + PER_FILE]))
                if kustomize:
                    write(os.path.join(d, "kustomization.yaml"),
                          "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n" +
                          "".join(f"  - {f}\n" for f in files))
            write(os.path.join(root, "tazuna.yaml"), "\n".join(lines) + "\n")
    # The base form of the changed objects, to go back from `changed` to `base` with 10% of the work.
    for j in range(MANIFESTS):
        docs = [o for o in objs["base"][j][1:] if is_changed(int(o["metadata"]["name"][-5:]))]
        if docs:
            write(os.path.join(out, "revert", f"m{j}", "objects.yaml"), dump(docs))

    def entries(variant, only_changed):
        ns_first = [objs[variant][j][0] for j in range(MANIFESTS)]
        rest = [o for j in range(MANIFESTS) for o in objs[variant][j][1:]
                if not only_changed or is_changed(int(o["metadata"]["name"][-5:]))]
        return [{"path": rest_path(o), "body": o} for o in (rest if only_changed else ns_first + rest)]
    for fn, variant, only in (("objects-base.json", "base", False), ("objects-changed.json", "changed", False),
                              ("objects-changed-only.json", "changed", True),
                              ("objects-revert-only.json", "base", True)):
        write(os.path.join(out, fn), json.dumps(entries(variant, only)))
    changed = sum(1 for i in range(n) if is_changed(i))
    print(json.dumps({"objects": n, "namespaces": MANIFESTS, "changed": changed}))


if __name__ == "__main__":
    main()
