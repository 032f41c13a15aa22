#!/usr/bin/env python3
"""Writes one JSON line describing a timed run of scripts/bench (called by it after each run).

record.py AUDIT_LOG START END SCENARIO TOOL N RUN WALL_NS RC EXPECTED_RCS LOG_BASE COMMAND
Counts the audit events in AUDIT_LOG[START:END] (bytes written while the run was in progress), leaving out the
control plane's own requests (kube-controller-manager, kube-apiserver, system:* users), and reads the peak RSS
(LOG_BASE.rss, from GNU time %M) and, for our binary, the summary line of `state sync` on stderr.
"""
import collections
import json
import re
import sys

SUMMARY = re.compile(r"^sync: (\d+) created, (\d+) configured, (\d+) unchanged, (\d+) deleted, (\d+) kept, (\d+) failed "
                     r"in ([0-9.]+)s \((\d+) API requests, (\d+) state writes\)")


def main():
    audit, start, end, scen, tool, n, run, wall_ns, rc, want, base, cmd = sys.argv[1:13]
    start, end = int(start), int(end)
    verbs, agents = collections.Counter(), collections.Counter()
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
        agents[ua.split(" ")[0]] += 1
    rss_kb = None
    try:
        lines = [l for l in open(base + ".rss").read().split("\n") if l.strip()]
        rss_kb = int(lines[-1])
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
        "rc": int(rc), "ok": rc in want.split(), "peak_rss_kb": rss_kb,
        "api_requests": sum(verbs.values()), "requests_by_verb": dict(verbs), "requests_by_agent": dict(agents),
        "summary": summary, "stdout_lines": out_lines, "log": base, "command": cmd,
    }
    if not rec["ok"]:
        rec["stderr_head"] = err[:2000]
    print(json.dumps(rec, sort_keys=True))


if __name__ == "__main__":
    main()
