#!/usr/bin/env python3
"""Generates the machine-made part of the YAML compatibility corpus.

Writes typing.yaml (one `v: <scalar>` document per YAML 1.1 scalar form), generated.yaml
(many Kubernetes-like objects with varied content) and errors.yaml (failing documents). Deterministic: rerun after editing and commit the output. The expected results
come from the Go oracle (tests/compat/run.sh, or --golden to refresh typing.golden).
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))

# Plain scalars covering every goyaml.v2 resolve() branch.
TYPING = [
    "~", "null", "Null", "NULL", "nUll", "", "y", "Y", "yes", "Yes", "YES", "yEs", "n", "N", "no",
    "No", "NO", "true", "True", "TRUE", "tRue", "false", "False", "FALSE", "on", "On", "ON", "off",
    "Off", "OFF", "0", "-0", "+0", "1", "-1", "+1", "007", "08", "09", "010", "0x1F", "0X1f",
    "-0x1F", "+0x1F", "0x", "0o17", "0O17", "0b101", "-0b101", "0B11", "0b2", "1_000", "1__0",
    "_1", "1_", "0x_1F", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616",
    "99999999999999999999999", "0xFFFFFFFFFFFFFFFF", "0x10000000000000000", "1.5", "-1.5", "+1.5",
    "1.", "-1.", ".5", "-.5", "+.5", "._5", ".5_0", "1e3", "1E3", "1e+3", "1e-3", "1.5e3", "-1e3",
    "1e", "e3", ".e3", "1e400", "-1e400", "1e-400", "-1e-400", "4.9e-324", "1.7976931348623157e308",
    "1e20", "1e21", "1e-6", "1e-7", "0.000001", "0.0000001", "123456789012345678",
    "9007199254740993", "-0.0", "0.0", "3.14159265358979323846", ".inf", ".Inf", ".INF", "+.inf",
    "-.inf", "-.Inf", ".iNf", "inf", "-inf", "infinity", ".infinity", "nan", "NaN", "1:20",
    "190:20:30", "2001-12-14", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10",
    "2001-12-14T21:59:43Z", "2002-1-1", "20011-12-14", "12-14", "+", "-", ".", "..", "0.1.2",
    "1,000", "$100", "1/2", "0x1p3", "1e3_0", "<<", "=", "hello world", "a: b", "'quoted'",
    '"double"', "'yes'", '"1"', "!!str 1", "!!str yes", "!!int 12", "!!int \"12\"", "!!float 3",
    "!!float '3'", "!!bool yes", "!!bool \"true\"", "!!null ''", "!!null ~", "!!str ~", "!foo 12",
    "! 12", "!!binary aGVsbG8=", "!!timestamp 2001-12-14", "yes # comment", "0 # zero",
    "'it''s'", '"tab\\there"', '"\\u00e9\\x41"', "-1_0.5", "1_0.5", "0.5e+1_0",
]

TYPING_ERRORS = ["!!int 1.5", "!!int abc", "!!bool 1", "!!float abc", "!!null x", "!!binary ***",
                 ".nan", ".NaN", ".inf", "-.inf", "!!timestamp foo", "!!int 2001-12-14",
                 "!!float 18446744073709551615"]

ERROR_DOCS = {
    "nan_value": "a: .nan\n",
    "inf_value": "a: [1, -.Inf]\n",
    "null_key": "~: x\n",
    "null_key2": "? \n: x\n",
    "uint_key": "18446744073709551615: x\n",
    "seq_key": "? [a, b]\n: x\n",
    "bad_int_tag": "a: !!int 1.5\n",
    "bad_bool_tag": "a: !!bool maybe\n",
    "control_char": "a: \"x\x01y\"\n",
    "del_char": "a: x\x7fy\n",
    "unclosed_quote": "a: \"abc\n",
    "bad_indent": "a:\n  b: 1\n c: 2\n",
    "merge_scalar": "a: &x 1\nb:\n  <<: *x\n",
    "merge_seq_scalar": "b:\n  <<: [1]\n",
    "unknown_alias": "a: *nope\n",
    "tab_indent": "a:\n\tb: 1\n",
    "bad_binary": "a: !!binary 'not base64!'\n",
    "nan_in_list": "- 1\n- .NAN\n",
    "null_word_key": "null: x\n",
    "uint_hex_key": "0xFFFFFFFFFFFFFFFF: x\n",
    "merge_scalar_key": "<<: 1\n",
    "anchor_cycle": "a: &x [1, *x]\n",
    "slash_escape": "a: \"x\\/y\"\n",
    "unknown_escape": "a: \"x\\qy\"\n",
    "unclosed_single": "a: 'abc\n",
    "unclosed_tagged": "a: !!str \"abc\n",
    "flow_unclosed": "a: [1, 2\n",
    "doc_scalar_nan": ".nan\n",
}


def write(name, text):
    with open(os.path.join(HERE, name), "w", encoding="utf-8", newline="") as f:
        f.write(text)


def typing_yaml():
    docs = ["v: %s\n" % s if s else "v:\n" for s in TYPING + TYPING_ERRORS]
    return "---\n".join(docs)


# Keys that make goyaml.v2/sigs.k8s.io/yaml fail (null, uint64, merge of a scalar) or are not
# simple keys; they are covered by ERROR_DOCS instead.
BAD_KEYS = {"", "a: b", "yes # comment", "0 # zero"}


def keys_yaml():
    """Every typing case as a mapping key, to check key stringification."""
    return "---\n".join("%s: k\n" % s for s in TYPING if s not in BAD_KEYS)


def rand_string(rng):
    pieces = ["plain", "with space", "a: b", "#hash", "x # y", "<tag>", "a&b", "quote\"d",
              "back\\slash", "tab\tin", "new\nline", "\u00e9t\u00e9", "\u65e5\u672c\u8a9e",
              "\U0001F600", "\u2028", "\u2029", "yes", "no", "007", "1e3", "null", "~", "-",
              "'single'", "trailing ", " leading", "", "{brace}", "[bracket]", "%pct", "@at",
              "`tick`", "!bang", "*star", "&amp", "|pipe", ">gt", "\u00a0nbsp", "\x7f"[:0]]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(1, 3)))


def yaml_dq(s):
    out = []
    for ch in s:
        o = ord(ch)
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif o < 0x20 or o in (0x2028, 0x2029, 0x85, 0xA0):
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def rand_number(rng):
    return rng.choice(["0", "-0", "1", "-17", "3.25", "1e20", "1e21", "1e-6", "1e-7", "0.000001",
                       "123456789012345678", "9007199254740993", "-0.0", "2.5e-8", "1.0",
                       "0x7f", "0o777", "1_000_000", "6.02e23", "%d" % rng.randint(-10**6, 10**6),
                       "%d.%d" % (rng.randint(0, 999), rng.randint(0, 999)),
                       repr(rng.uniform(-1e6, 1e6)), "%de%d" % (rng.randint(1, 9), rng.randint(-30, 30))])


def generated_yaml(rng, count):
    docs = []
    kinds = [("v1", "ConfigMap"), ("v1", "Secret"), ("apps/v1", "Deployment"),
             ("rbac.authorization.k8s.io/v1", "ClusterRole"), ("example.com/v1alpha1", "Widget")]
    for i in range(count):
        api, kind = kinds[i % len(kinds)]
        lines = ["apiVersion: %s" % api, "kind: %s" % kind, "metadata:",
                 "  name: obj-%d" % i]
        if kind != "ClusterRole":
            lines.append("  namespace: ns-%d" % (i % 7))
        if i % 3 == 0:
            lines += ["  resourceVersion: \"%d\"" % (1000 + i), "  uid: 6f1c-%04d" % i,
                      "  creationTimestamp: 2024-01-02T03:04:05Z", "  generation: %d" % (i % 5)]
        if i % 4 == 0:
            lines += ["  labels:", "    app: %s" % yaml_dq(rand_string(rng)),
                      "    tier: %s" % rng.choice(["web", "yes", "007", "on"])]
        lines.append("data:" if kind in ("ConfigMap", "Secret", "Widget") else "spec:")
        for j in range(rng.randint(0, 6)):
            key = rng.choice(["k%d" % j, "key.%d" % j, "%d" % j, "on", "y", "1.5", "true"])
            key = "%s%d" % (key, j) if rng.random() < 0.5 else key + "_%d" % j
            if rng.random() < 0.5:
                lines.append("  %s: %s" % (key, yaml_dq(rand_string(rng))))
            else:
                lines.append("  %s: %s" % (key, rand_number(rng)))
        if kind == "Deployment":
            lines += ["  replicas: %s" % rand_number(rng), "  template:", "    spec:",
                      "      containers:", "      - name: c", "        args: [%s]" %
                      ", ".join(yaml_dq(rand_string(rng)) for _ in range(3)), "        ports: []",
                      "        env: {}"]
        if i % 5 == 1:
            lines += ["status:", "  phase: Ready", "  observed: %d" % i]
        docs.append("\n".join(lines) + "\n")
    return "---\n".join(docs)


def main():
    rng = random.Random(20240601)
    write("typing.yaml", typing_yaml())
    write("keys.yaml", keys_yaml())
    write("generated.yaml", generated_yaml(rng, 180))
    write("errors.yaml", "---\n".join(ERROR_DOCS.values()))


if __name__ == "__main__":
    main()
