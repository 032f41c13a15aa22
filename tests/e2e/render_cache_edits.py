#!/usr/bin/env python3
"""Differential test of the render caches (#27), driven by tests/e2e/render_cache_test.sh.

Builds a platform repository (plain manifests, a glob, kustomize overlays over a base outside the
manifest's folder with a patch, a component, configMapGenerator files and envs (one taking a variable from
the environment), an include file, an environment used by the template, and a helmfile over a local chart
outside its folder with a values file, a helper template and a variable of the environment read through
helmfile.vars (from: env), CRDs whose custom resources are in another manifest, and an ORAS artifact in a real registry (RC_REGISTRY) that
delegates to kustomize or helmfile), then edits, at random, any file a manifest can read, or the artifact (new
content pushed under the same tag, the reference moved between the tag and the digests pushed so far, its target,
its delegate and the delegate's defaultNamespace), (and now and then deletes the CRDs from the cluster). After each edit,
`build` and `state diff -o json` must print the same bytes and exit the same with the caches as with
--no-render-cache. Every few edits a `state sync --prune` records renders in the states (so later diffs
take the not-rendered path), and now and then a state entry is forgotten (its state no longer records the
render exactly). Usage: render_cache_edits.py PLUGIN WORKDIR NAMESPACE EDITS SEED (RC_VERBOSE=1 prints each edit)
"""
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile

plugin, work, ns, edits, seed = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)
repo = os.path.join(work, "repo")
artifact = os.path.join(work, "artifact")  # the ORAS artifact's files, outside the repository
registry = os.environ["RC_REGISTRY"]
prefix = "rc%d" % rng.randrange(10**6)


def write(rel, text):
    path = os.path.join(repo, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def cm(name, value, namespace=None):
    meta = "  name: %s\n" % name + ("  namespace: %s\n" % namespace if namespace else "")
    return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n%sdata:\n  v: %s\n" % (meta, value)


def crd_group():
    return "%s.example.com" % prefix


def crd(kind, scope):
    return f"""apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {kind.lower()}s.{crd_group()}
spec:
  group: {crd_group()}
  scope: {scope}
  names: {{kind: {kind}, plural: {kind.lower()}s, singular: {kind.lower()}, listKind: {kind}List}}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
"""


def setup():
    write("tazuna.yaml", f"""apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  environments:
    dev: {{}}
    prod: {{}}
  manifests:
    - {{name: {prefix}-plain, type: manifests, path: ./plain, manifests: {{defaultNamespace: {ns}}}}}
    - {{name: {prefix}-glob, type: manifests, path: "./glob/*.yaml"}}
    - {{name: {prefix}-crds, type: manifests, path: ./crds}}
    - {{name: {prefix}-crs, type: manifests, path: ./crs, manifests: {{defaultNamespace: {ns}-cr}}}}
    - name: {prefix}-hf
      type: helmfile
      path: ./hf
      helmfile: {{defaultNamespace: {ns}, vars: {{tier: {{from: static, static: base}}, extra: {{from: env, env: RC_HF}}}}}}
    - name: {prefix}-oras
      type: oras
      path: .
      oras: {{reference: "{registry}/{prefix}/app:stable", plainHTTP: true, target: overlays/a, delegate: {{type: kustomize}}}}
    - includes:
        - path: ./inc/more.yaml
""")
    setup_artifact()
    os.environ.setdefault("RC_HF", "none")  # helmfile.vars.extra (a helmfile template reads no environment)
    write("hf/helmfile.yaml.gotmpl", f"""releases:
- name: {prefix}-rel
  chart: ../charts/app
  values:
  - values.yaml
  - extra: {{{{ .Values.extra | default "none" | quote }}}}
    tier: {{{{ .Values.tier }}}}
    note: {{{{ .Values.note | default "none" | quote }}}}
""")
    write("hf/values.yaml", "v: hello\n")
    write("charts/app/Chart.yaml", "apiVersion: v2\nname: app\nversion: 0.1.0\n")
    write("charts/app/templates/_helpers.tpl", '{{- define "app.name" -}}%s-hf-{{ .Release.Name }}{{- end -}}\n' % prefix)
    write("charts/app/templates/cm.yaml", """apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "app.name" . }}
data:
  v: {{ .Values.v | quote }}
  extra: {{ .Values.extra | quote }}
  tier: {{ .Values.tier | quote }}
  chart: {{ .Chart.Version | quote }}
  kube: {{ .Capabilities.KubeVersion.Version | quote }}
""")
    write("inc/more.yaml", f"""apiVersion: tazuna.pepabo.com/v1
kind: Tazuna
spec:
  manifests:
    - name: {prefix}-app-{{{{ .Environment }}}}
      type: kustomize
      path: ./apps/{{{{ .Environment }}}}
      kustomize: {{defaultNamespace: {ns}}}
""")
    for i in range(3):
        write("plain/p%d.yaml" % i, cm("%s-p%d" % (prefix, i), '"%d"' % i))
    for i in range(2):
        write("glob/g%d.yaml" % i, cm("%s-g%d" % (prefix, i), '"g%d"' % i, ns))
    # CRDs in a manifest of their own: their scopes decide the keys of custom resources in other manifests (the
    # Zone is cluster-scoped, not in its manifest's default namespace, which -n would refuse, only because its CRD
    # says so), also when the CRDs are not served.
    for kind, scope in (("Zone", "Cluster"), ("Widget", "Namespaced")):
        write("crds/%s.yaml" % kind.lower(), crd(kind, scope))
        write("%s/%s.yaml" % ("crs" if kind == "Zone" else "plain", kind.lower()), "apiVersion: %s/v1\nkind: %s\nmetadata:\n  name: %s-%s\nspec:\n  v: 1\n"
              % (crd_group(), kind, prefix, kind.lower()))
    write("base/kustomization.yaml", "resources:\n- cm.yaml\n- deploy.yaml\n")
    write("base/cm.yaml", cm("base", '"b"'))
    write("base/deploy.yaml", """apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec: {containers: [{name: web, image: "nginx:1.27"}]}
""")
    write("components/extra/kustomization.yaml",
          "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- extra.yaml\n")
    write("components/extra/extra.yaml", cm("extra", '"x"'))
    for env in ("dev", "prod"):
        write("apps/%s/kustomization.yaml" % env, f"""namePrefix: {env}-
resources:
- ../../base
components:
- ../../components/extra
patches:
- path: patch.yaml
configMapGenerator:
- name: gen
  files:
  - data.txt
  envs:
  - vars.env
""")
        write("apps/%s/patch.yaml" % env,
              "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n")
        write("apps/%s/data.txt" % env, "hello %s\n" % env)
        # dev takes RC_VAR from the environment (kustomize reads it): never served from a cache
        write("apps/%s/vars.env" % env, "A=1\nB=%s\n" % env + ("RC_VAR\n" if env == "dev" else ""))


# ---------------------------------------------------------------- the ORAS artifact
oras_digests = []  # every artifact pushed, by digest


def write_artifact(rel, text):
    path = os.path.join(artifact, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def push_artifact():
    """The artifact's files as one tar.gz layer, pushed as app:stable; its digest remembered."""
    layer = os.path.join(work, "layer.tar.gz")
    with tarfile.open(layer, "w:gz") as t:
        t.add(artifact, arcname=".")
    ref = "%s/%s/app:stable" % (registry, prefix)
    subprocess.run(["oras", "push", "--plain-http", ref, "layer.tar.gz:application/vnd.oci.image.layer.v1.tar+gzip"],
                   cwd=work, stdout=subprocess.DEVNULL, check=True)
    digest = subprocess.run(["oras", "resolve", "--plain-http", ref], stdout=subprocess.PIPE, text=True,
                            check=True).stdout.strip()
    oras_digests.append(digest)


def setup_artifact():
    write_artifact("base/kustomization.yaml", "resources:\n- cm.yaml\n")
    write_artifact("base/cm.yaml", cm("%s-oras" % prefix, '"1"'))
    for o in ("a", "b"):
        write_artifact("overlays/%s/kustomization.yaml" % o, "namePrefix: %s-\nresources:\n- ../../base\n" % o)
    write_artifact("hf/helmfile.yaml", "releases:\n- name: %s-orel\n  chart: ../chart\n" % prefix)
    write_artifact("chart/Chart.yaml", "apiVersion: v2\nname: ochart\nversion: 0.1.0\n")
    write_artifact("chart/templates/cm.yaml", cm("{{ .Release.Name }}", "{{ .Values.v | default \"1\" | quote }}"))
    push_artifact()


def edit_oras(step):
    """One random edit of the ORAS manifest or of its artifact; returns what it did."""
    kind = rng.choice(["content", "content", "file", "reference", "target", "delegate", "namespace"])
    text = open(os.path.join(repo, "tazuna.yaml")).read()
    line = next(l for l in text.splitlines() if l.startswith("      oras: {reference:"))
    new = line
    if kind == "content":  # new content under the same tag
        rel = rng.choice(["base/cm.yaml", "chart/templates/cm.yaml"])
        with open(os.path.join(artifact, rel), "a") as f:
            f.write("  e%d: \"%d\"\n" % (step, step))
        push_artifact()
        return "oras content " + rel
    if kind == "file":  # a file in or out of the artifact
        extra = os.path.join(artifact, "base/extra.yaml")
        if os.path.exists(extra):
            os.remove(extra)
            write_artifact("base/kustomization.yaml", "resources:\n- cm.yaml\n")
        else:
            write_artifact("base/extra.yaml", cm("%s-oras-x%d" % (prefix, step), '"x"'))
            write_artifact("base/kustomization.yaml", "resources:\n- cm.yaml\n- extra.yaml\n")
        push_artifact()
        return "oras file base/extra.yaml"
    ref = line.split('"')[1]
    if kind == "reference":  # the tag, or any artifact pushed so far by its digest
        pick = rng.choice(["tag"] + oras_digests)
        new = line.replace(ref, "%s/%s/app:stable" % (registry, prefix) if pick == "tag" else
                           "%s/%s/app@%s" % (registry, prefix, pick))
    elif kind == "target" or kind == "delegate":
        helmfile = "type: helmfile" in line if kind == "target" else "type: helmfile" not in line
        target = "hf" if helmfile else rng.choice(["base", "overlays/a", "overlays/b"])
        new = re.sub(r"target: [^,]*,", "target: %s," % target, line)
        new = new.replace("type: helmfile", "type: kustomize") if not helmfile else new.replace("type: kustomize", "type: helmfile")
        new = re.sub(r"delegate: \{type: (\w+)(, \w+: \{defaultNamespace: [^}]*\})?\}",
                     lambda m: "delegate: {type: %s%s}" % (m.group(1), (", %s: {defaultNamespace: %s}" % (m.group(1), ns))
                                                           if m.group(2) else ""), new)
    else:  # the delegate's defaultNamespace in or out
        new = re.sub(r"delegate: \{type: (\w+)(, \w+: \{defaultNamespace: [^}]*\})?\}",
                     lambda m: "delegate: {type: %s%s}" % (m.group(1), "" if m.group(2) else
                                                           ", %s: {defaultNamespace: %s}" % (m.group(1), ns)), line)
    write("tazuna.yaml", text.replace(line, new))
    return "oras %s: %s" % (kind, new.strip()[len("oras: "):])


def files():
    out = []
    for root, _, names in os.walk(repo):
        if "/.git" in root:
            continue
        out += [os.path.relpath(os.path.join(root, n), repo) for n in names]
    return sorted(out)


def edit(step):
    """One random edit; returns what it did."""
    kind = rng.choice(["value", "value", "value", "add", "remove", "touch", "replicas", "include", "env",
                       "generator", "kustomization", "envvar", "helm", "helm", "crd", "oras", "oras"])
    fs = files()
    if kind == "value":
        rel = rng.choice([f for f in fs if f.endswith((".yaml", ".txt", ".env")) and "kustomization" not in f
                          and f not in ("tazuna.yaml", "inc/more.yaml") and not f.startswith("crds/")])
        with open(os.path.join(repo, rel), "a") as f:
            f.write("# edit %d\n" % step if rel.endswith(".yaml") else "C%d=%d\n" % (step, step) if rel.endswith(".env")
                    else "line %d\n" % step)
        if rel.endswith(".yaml") and rng.random() < 0.5:
            text = open(os.path.join(repo, rel)).read().replace("v: ", "v: x%d" % step, 1)
            write(rel, text)
        return "value " + rel
    if kind == "add":
        d = rng.choice(["plain", "glob", "base"])
        name = "%s-n%d" % (prefix, step)
        write("%s/n%d.yaml" % (d, step), cm(name, '"%d"' % step, ns if d == "glob" else None))
        if d == "base":
            with open(os.path.join(repo, "base/kustomization.yaml"), "a") as f:
                f.write("- n%d.yaml\n" % step)
        return "add %s/n%d.yaml" % (d, step)
    if kind == "remove":
        extra = [f for f in fs if "/n" in f and f.endswith(".yaml") and not f.startswith("base/")]
        if not extra:
            return "remove (none)"
        rel = rng.choice(extra)
        os.remove(os.path.join(repo, rel))
        return "remove " + rel
    if kind == "touch":
        rel = rng.choice(fs)
        os.utime(os.path.join(repo, rel))
        return "touch " + rel
    if kind == "replicas":
        env = rng.choice(["dev", "prod"])
        write("apps/%s/patch.yaml" % env, "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n"
              "  replicas: %d\n" % rng.randrange(1, 9))
        return "patch " + env
    if kind == "include":
        text = open(os.path.join(repo, "inc/more.yaml")).read()
        text = text.replace("kustomize: {defaultNamespace: %s}" % ns, "kustomize: {}") if rng.random() < 0.5 else \
            text.replace("kustomize: {}", "kustomize: {defaultNamespace: %s}" % ns)
        write("inc/more.yaml", text)
        return "include defaultNamespace"
    if kind == "env":
        return "environment only"
    if kind == "envvar":
        os.environ["RC_VAR"] = str(rng.randrange(10**6))
        return "RC_VAR=" + os.environ["RC_VAR"]
    if kind == "helm":
        return edit_helm(step)
    if kind == "oras":
        return edit_oras(step)
    if kind == "crd":  # the CRDs leave the cluster (restore_crds brings them back) and their custom resources or the
        # Widget's scope change: the scopes of kinds nobody serves come from the CRDs' render (or its record)
        for name in ("zones", "widgets"):
            subprocess.run(["kubectl", "delete", "crd", "%s.%s" % (name, crd_group()), "--ignore-not-found"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        # as on a machine without a discovery cache: the next commands learn that the CRDs are not served
        shutil.rmtree(os.path.join(os.environ["KUBECACHEDIR"], "discovery"), ignore_errors=True)
        if rng.random() < 0.5:  # plain is not edited: rendered only because its Widget's scope changed
            write("crds/widget.yaml", crd("Widget", "Cluster"))
            return "CRDs deleted from the cluster, the Widget made cluster-scoped"
        for rel in ("crs/zone.yaml", "plain/widget.yaml"):
            with open(os.path.join(repo, rel), "a") as f:
                f.write("  e%d: %d\n" % (step, step))
        return "CRDs deleted from the cluster, their resources changed"
    if kind == "generator":
        env = rng.choice(["dev", "prod"])
        write("apps/%s/data.txt" % env, "data %d\n" % rng.randrange(10**6))
        return "generator " + env
    # kustomization: the component in or out
    env = rng.choice(["dev", "prod"])
    path = os.path.join(repo, "apps/%s/kustomization.yaml" % env)
    text = open(path).read()
    text = text.replace("components:\n- ../../components/extra\n", "") if "components:" in text else \
        text.replace("patches:", "components:\n- ../../components/extra\npatches:")
    write("apps/%s/kustomization.yaml" % env, text)
    return "component " + env


def edit_helm(step):
    """One random edit of what the helmfile manifest reads; returns what it did."""
    kind = rng.choice(["values", "helper", "chartver", "envvar", "helmfile", "hint", "tool"])
    if kind == "values":
        write("hf/values.yaml", "v: h%d\n" % rng.randrange(10**6))
    elif kind == "helper":
        write("charts/app/templates/_helpers.tpl",
              '{{- define "app.name" -}}%s-hf%d-{{ .Release.Name }}{{- end -}}\n' % (prefix, rng.randrange(3)))
    elif kind == "chartver":
        write("charts/app/Chart.yaml", "apiVersion: v2\nname: app\nversion: 0.1.%d\n" % rng.randrange(50))
    elif kind == "envvar":
        os.environ["RC_HF"] = str(rng.randrange(10**6))
    elif kind == "hint":  # tazuna.hint.yaml's default for a var not given, or no hint file
        if rng.randrange(3) == 0:
            if os.path.exists(os.path.join(repo, "hf/tazuna.hint.yaml")):
                os.remove(os.path.join(repo, "hf/tazuna.hint.yaml"))
        else:
            write("hf/tazuna.hint.yaml", "vars:\n  note: {type: string, default: n%d}\n" % rng.randrange(3))
    elif kind == "helmfile":
        text = open(os.path.join(repo, "hf/helmfile.yaml.gotmpl")).read()
        text = text.replace("  - values.yaml\n", "") if "  - values.yaml\n" in text else \
            text.replace("  values:\n", "  values:\n  - values.yaml\n")
        write("hf/helmfile.yaml.gotmpl", text)
    else:  # the real helmfile in or out of PATH (else helm template per release)
        link = os.path.join(os.environ["RC_HFBIN"], "helmfile")
        if os.path.lexists(link):
            os.rename(link, link + ".off")
        elif os.path.lexists(link + ".off"):
            os.rename(link + ".off", link)
    return "helm " + kind


def restore_crds():
    write("crds/widget.yaml", crd("Widget", "Namespaced"))
    for name in ("zone", "widget"):
        subprocess.run(["kubectl", "apply", "--server-side", "--field-manager", "tazuna", "-f",
                        os.path.join(repo, "crds/%s.yaml" % name)], stdout=subprocess.DEVNULL, check=True)
    subprocess.run(["kubectl", "wait", "--for", "condition=Established", "crd/zones." + crd_group(),
                    "crd/widgets." + crd_group()], stdout=subprocess.DEVNULL, check=True)


def start(*args, stderr=subprocess.DEVNULL):
    return subprocess.Popen([plugin, *args, "-n", ns, "-f", os.path.join(repo, "tazuna.yaml")],
                            stdout=subprocess.PIPE, stderr=stderr, text=True)


def finish(p):
    out, _ = p.communicate()
    return p.returncode, out


def run(*args):
    return finish(start(*args))


def sync(step, env, *flags):
    """A sync that records the renders; 1 (and what it said) when it failed."""
    p = start("state", "sync", *flags, "--wait=false", "-e", env, stderr=subprocess.STDOUT)
    rc, out = finish(p)
    if rc == 0:
        return 0
    said = [line for line in out.splitlines() if "failed" in line or "rror" in line]
    print("FAIL - edit %d: the sync failed (rc=%d): %s" % (step, rc, " | ".join(said)[-800:]))
    return 1


def compare(step, what, env):
    """build and state diff, each with the caches and without, the four at once (they only read)."""
    flags = ["-e", env] if env else []
    cmds = (["build"], ["state", "diff", "-o", "json"])
    procs = [(start(*cmd, *flags), start(*cmd, *flags, "--no-render-cache")) for cmd in cmds]
    failures = 0
    for cmd, (with_cache, without) in zip(cmds, procs):
        cached, fresh = finish(with_cache), finish(without)
        if fresh[0] not in ((0,) if cmd == ["build"] else (0, 1)):  # equal failures would prove nothing
            failures += 1
            print("FAIL - edit %d (%s, -e %s): %s failed (rc=%d)" % (step, what, env or "-", " ".join(cmd), fresh[0]))
        elif cached != fresh:
            failures += 1
            print("FAIL - edit %d (%s, -e %s): %s differs with the cache" % (step, what, env or "-", " ".join(cmd)))
            print("  cached rc=%d: %s" % (cached[0], cached[1][:1500]))
            print("  fresh  rc=%d: %s" % (fresh[0], fresh[1][:1500]))
    return failures


def main():
    print("prefix %s" % prefix, flush=True)
    os.environ["RC_VAR"] = "0"
    setup()
    subprocess.run(["git", "init", "-q", repo], check=True)
    env = "dev"
    failures = syncs = forgets = failed_syncs = oras_edits = 0
    failed_syncs += sync(0, env)
    for step in range(1, edits + 1):
        what = edit(step)
        oras_edits += what.startswith("oras ")
        print("edit %d: %s" % (step, what), flush=True) if os.environ.get("RC_VERBOSE") else None
        if what == "environment only":
            env = "prod" if env == "dev" else "dev"
        failures += compare(step, what, env)
        if what.startswith("CRDs deleted"):  # back, as they were: a sync applies only what changed
            restore_crds()
        if step % 12 == 0:
            failed_syncs += sync(step, env, "--prune")
            syncs += 1
        elif step % 29 == 0:
            run("state", "forget", "-m", "%s-plain" % prefix, "/v1/ConfigMap/%s/%s-p0" % (ns, prefix))
            forgets += 1
            failures += compare(step, "state forget", env)
    # a failed sync records no render: the diffs after it would not take the not-rendered path
    print("%s - %d edits (%d of the ORAS manifest or artifact), %d syncs (%d failed), %d forgets, %d mismatches" % (
        "ok  " if failures == 0 and failed_syncs == 0 else "FAIL", edits, oras_edits, syncs, failed_syncs, forgets, failures))
    return 1 if failures or failed_syncs else 0


sys.exit(main())
