#!/usr/bin/env python3
"""Writes one JSON line describing a timed run of scripts/bench (called by it after each run).

record.py AUDIT_LOG START END SCENARIO TOOL N RUN WALL_NS RC EXPECTED_RCS LOG_BASE COMMAND
Counts the audit events in AUDIT_LOG[START:END] (bytes written while the run was in progress), leaving out the
control plane's own requests (kube-controller-manager, kube-apiserver, system:* users), and reads the peak RSS
and CPU time (LOG_BASE.rss, from GNU time %M %U %S) and, for our binary, the summary line of `state sync` on stderr.
Attribution: the server's time by request kind (ResponseComplete stageTimestamp - requestReceivedTimestamp, summed
over the run's requests: request-seconds, not wall time) and, for our binary run with TAZUNA_PROFILE=1, the
`profile:` lines it prints at exit (client CPU and wall time by phase, bytes written to state).
"""
import collections
import datetime
import json
import re
import sys

PROFILE = re.compile(r"^profile: (\S+) calls=(\d+) cpu_ms=([0-9.]+) wall_ms=([0-9.]+)(?: bytes=(\d+))?$")


def request_kind(e):
    """The attribution bucket of one audit event: state writes and reads, other tazuna-namespace requests
    (lock, history, key), applies (PATCH), LISTs, GETs, or the verb."""
    ref, verb = e.get("objectRef", {}), e.get("verb", "")
    if ref.get("namespace") == "tazuna" and ref.get("resource") == "configmaps" \
            and ref.get("name", "").startswith("tazuna-state-"):
        return "state-write" if verb in ("create", "update", "patch") else "state-" + verb
    if ref.get("namespace") == "tazuna":
        return "tazuna-other"
    return {"patch": "apply", "list": "list", "get": "get"}.get(verb, verb)


def seconds_of(e):
    try:
        t0 = datetime.datetime.fromisoformat(e["requestReceivedTimestamp"])
        t1 = datetime.datetime.fromisoformat(e["stageTimestamp"])
    except (KeyError, ValueError):
        return 0.0
    return (t1 - t0).total_seconds()


def read_profile(err):
    """{phase: {calls, cpu_ms, wall_ms[, bytes]}} from the `profile:` lines of our binary's stderr."""
    out = {}
    for line in err.splitlines():
        m = PROFILE.match(line.strip())
        if m:
            out[m.group(1)] = {"calls": int(m.group(2)), "cpu_ms": float(m.group(3)), "wall_ms": float(m.group(4))}
            if m.group(5) is not None:
                out[m.group(1)]["bytes"] = int(m.group(5))
    return out

SUMMARY = re.compile(r"^sync: (\d+) created, (\d+) configured, (\d+) unchanged, (\d+) deleted, (\d+) kept, (\d+) failed "
                     r"in ([0-9.]+)s \((\d+) API requests, (\d+) state writes\)")


def main():
    audit, start, end, scen, tool, n, run, wall_ns, rc, want, base, cmd = sys.argv[1:13]
    start, end = int(start), int(end)
    verbs, agents = collections.Counter(), collections.Counter()
    kinds, kind_s = collections.Counter(), collections.Counter()
    with open(audit, "rb") as f:
        f.seek(start)
        chunk = f.read(max(end - start, 0))
    for line in chunk.splitlines():
        # After the harness empties the log, a writer without O_APPEND goes on at its old offset: the hole reads as NULs.
        line = line.lstrip(b"\0")
        try:
            e = json.loads(line)
        except ValueError:
            continue
        ua = e.get("userAgent", "")
        user = e.get("user", {}).get("username", "")
        if ua.startswith(("kube-controller-manager/", "kube-apiserver/")) or user.startswith("system:"):
            continue
        verbs[e.get("verb", "")] += 1
        if e.get("stage") == "ResponseComplete":
            kinds[request_kind(e)] += 1
            kind_s[request_kind(e)] += seconds_of(e)
        agents[ua.split(" ")[0]] += 1
    rss_kb = cpu_s = None
    try:
        lines = [l for l in open(base + ".rss").read().split("\n") if l.strip()]
        fields = lines[-1].split()
        rss_kb = int(fields[0])
        cpu_s = sum(float(x) for x in fields[1:3]) if len(fields) >= 3 else None
    except (OSError, ValueError, IndexError):
        pass
    summary = None
    err = open(base + ".err", errors="replace").read()
    for line in err.splitlines():
        m = SUMMARY.match(line.strip())
        if m:
            g = [float(x) if "." in x else int(x) for x in m.groups()]
            summary = dict(zip(("created", "configured", "unchanged", "deleted", "kept", "failed", "seconds",
                                "api_requests", "state_writes"), g))
    with open(base + ".out", errors="replace") as f:
        out_lines = sum(1 for _ in f)
    rec = {
        "scenario": scen, "tool": tool, "n": int(n), "run": int(run), "wall_s": int(wall_ns) / 1e9,
        "rc": int(rc), "ok": rc in want.split(), "peak_rss_kb": rss_kb, "cpu_s": cpu_s,
        "api_requests": sum(verbs.values()), "requests_by_verb": dict(verbs), "requests_by_agent": dict(agents),
        "summary": summary, "stdout_lines": out_lines, "profile": read_profile(err),
        "server_by_kind": {k: {"requests": kinds[k], "seconds": round(kind_s[k], 4)} for k in kinds},
        "log": base, "command": cmd,
    }
    if not rec["ok"]:
        rec["stderr_head"] = err[:2000]
    print(json.dumps(rec, sort_keys=True))


if __name__ == "__main__":
    main()
