#!/usr/bin/env python3
"""check_cases.py -- run gcnlint on annotated assembly cases and on the bundled
vector add kernels, and compare its JSON output with the expectations.

Case files (tests/analyze/cases/*.s) carry their expectations as comments:
  // gcnlint-args: ARGS            extra gcnlint arguments for this file
  ... // expect: CHECK[, CHECK]     an error/warning of that check on this line
  ... // expect-note: CHECK: TEXT   a note of that check on this line whose
                                    message contains TEXT
Errors and warnings must match exactly (no more, no fewer); notes only need to
be present.  kernels/vector_add/expect.json (written by the kernels helper) is
the oracle for the bundled kernels: races at its pcs, nothing for the clean
ones, and with --suggest the loosest safe waits named in its README.

Exit status: 0 pass, 1 fail, 77 skip (the decoder of this build cannot decode
the instructions the cases use yet).
"""
import argparse
import json
import os
import re
import subprocess
import sys


def run_lint(gcnlint, args, path):
    p = subprocess.run([gcnlint, "--format=json"] + args + [path], capture_output=True,
                       text=True)
    if p.returncode not in (0, 4):
        raise RuntimeError("%s %s: exit %d\n%s" % (path, " ".join(args), p.returncode,
                                                   p.stderr))
    return json.loads(p.stdout)["findings"], p.returncode


def parse_case(path):
    args = []
    expect = set()
    notes = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            m = re.search(r"//\s*gcnlint-args:(.*)$", line)
            if m:
                args = m.group(1).split()
            m = re.search(r"//\s*expect:\s*([a-z0-9, -]+?)\s*(\(|;|$)", line)
            if m:
                for c in m.group(1).split(","):
                    expect.add((n, c.strip()))
            m = re.search(r"//\s*expect-note:\s*([a-z0-9-]+):\s*(.*?)\s*$", line)
            if m:
                notes.append((n, m.group(1), m.group(2)))
    return args, expect, notes


def check_case(gcnlint, path, mcpu, fails):
    args, expect, notes = parse_case(path)
    found, rc = run_lint(gcnlint, ["--mcpu=" + mcpu] + args, path)
    got = {(f["line"], f["check"]) for f in found if f["severity"] != "note"}
    name = "%s [%s]" % (os.path.basename(path), mcpu)
    ok = True
    for e in sorted(expect - got, key=str):
        fails.append("%s: missing %s at line %s" % (name, e[1], e[0]))
        ok = False
    for g in sorted(got - expect, key=str):
        msg = [f["message"] for f in found if (f["line"], f["check"]) == g]
        fails.append("%s: unexpected %s at line %s: %s" % (name, g[1], g[0], msg[0]))
        ok = False
    for (n, chk, text) in notes:
        if not any(f["line"] == n and f["check"] == chk and text in f["message"] for f in found):
            have = [f["message"] for f in found if f["line"] == n]
            fails.append("%s: no %s note at line %d containing %r; have %r" %
                         (name, chk, n, text, have))
            ok = False
    if rc != (4 if expect else 0):
        fails.append("%s: exit status %d" % (name, rc))
        ok = False
    print("%s %s" % ("ok  " if ok else "FAIL", name))


def by_offset(found, off, check=None):
    return [f for f in found if f["offset"] == off and (check is None or f["check"] == check)]


def check_vector_add(gcnlint, kdir, mcpu, fails):
    exp = json.load(open(os.path.join(kdir, "expect.json")))
    for kern, e in exp.items():
        if kern.startswith("_"):
            continue
        path = os.path.join(kdir, e["file"])
        found, rc = run_lint(gcnlint, ["--mcpu=" + mcpu, "--explain"], path)
        # hazard rules are another issue's table: only judge them when present
        races = [f for f in found if f["severity"] != "note" and not f["check"].startswith("hazard")]
        name = "%s [%s]" % (kern, mcpu)
        ok = True
        want = [r for r in e["reports"] if r["kind"] == "vmcnt-lds-race"]
        if len(races) != len(want):
            fails.append("%s: %d findings, expected %d: %s" %
                         (name, len(races), len(want), [f["message"] for f in races]))
            ok = False
        for r in want:
            hit = by_offset(races, r["consumer"]["pc"], "lds-dma-pending")
            if not hit:
                fails.append("%s: no lds-dma-pending at %s" % (name, r["consumer"]["pc"]))
                ok = False
                continue
            f = hit[0]
            if f.get("producer", {}).get("offset") != r["producer"]["pc"]:
                fails.append("%s: producer %s, expected %s" % (name, f.get("producer"),
                                                              r["producer"]["pc"]))
                ok = False
            if f.get("wait", {}).get("offset") != r["wait"]["pc"]:
                fails.append("%s: wait %s, expected %s" % (name, f.get("wait"), r["wait"]["pc"]))
                ok = False
            if r["needed"] not in f["message"]:
                fails.append("%s: message does not name %s: %s" % (name, r["needed"], f["message"]))
                ok = False
            if "first loop iteration" in r["path"] and "first iteration" not in f["message"]:
                fails.append("%s: message does not name the first iteration: %s" %
                             (name, f["message"]))
                ok = False
            if "explanation" not in f or "<- producer" not in f["explanation"]:
                fails.append("%s: no explanation with the producer" % name)
                ok = False
        print("%s %s" % ("ok  " if ok else "FAIL", name))

    # --suggest on the correct kernel: the loosest safe waits and what forces them
    path = os.path.join(kdir, exp["vector_add"]["file"])
    found, rc = run_lint(gcnlint, ["--mcpu=" + mcpu, "--suggest"], path)
    w0 = exp["vector_add_weak_loop"]["reports"][0]["wait"]["pc"]
    p0 = exp["vector_add_weak_prologue"]["reports"][0]["wait"]["pc"]
    w1 = exp["vector_add_tight"]["optional"][1]["wait"]["pc"]
    want = [(p0, "vmcnt(2) is the loosest safe value", "vmcnt(3) would be unsafe"),
            (w0, "vmcnt(3) is the loosest safe value",
             "vmcnt(4) would be unsafe on the first iteration of the loop"),
            (w0, "when the vmcnt queue holds 5 operations", None),
            (w1, "vmcnt(4) is the loosest safe value", "vmcnt(5) would be unsafe")]
    ok = rc == 0
    if rc != 0:
        fails.append("vector_add --suggest: exit %d" % rc)
    for off, a, b in want:
        hit = [f for f in by_offset(found, off, "waitcnt-suggest")
               if a in f["message"] and (b is None or b in f["message"])]
        if not hit:
            fails.append("vector_add --suggest [%s]: no note at %s with %r / %r; have %r" %
                         (mcpu, off, a, b, [f["message"] for f in by_offset(found, off)]))
            ok = False
    print("%s vector_add --suggest [%s]" % ("ok  " if ok else "FAIL", mcpu))

    # the tight variant: both in-loop waits stronger than needed
    path = os.path.join(kdir, exp["vector_add_tight"]["file"])
    found, rc = run_lint(gcnlint, ["--mcpu=" + mcpu, "--suggest"], path)
    ok = True
    for o in exp["vector_add_tight"]["optional"]:
        hit = [f for f in by_offset(found, o["wait"]["pc"], "waitcnt-stronger")
               if o["loosest"] + " is safe on every path" in f["message"]]
        if not hit:
            fails.append("vector_add_tight --suggest [%s]: no stronger-than-needed note at %s "
                         "naming %s; have %r" % (mcpu, o["wait"]["pc"], o["loosest"],
                                                [f["message"] for f in
                                                 by_offset(found, o["wait"]["pc"])]))
            ok = False
    print("%s vector_add_tight --suggest [%s]" % ("ok  " if ok else "FAIL", mcpu))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gcnlint", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--kernels", help="kernels/vector_add directory")
    ap.add_argument("--mcpu", action="append")
    a = ap.parse_args()
    fails = []
    for mcpu in a.mcpu or ["gfx942", "gfx950"]:
        for name in sorted(os.listdir(a.cases)):
            if name.endswith(".s"):
                check_case(a.gcnlint, os.path.join(a.cases, name), mcpu, fails)
        if a.kernels and os.path.exists(os.path.join(a.kernels, "expect.json")):
            check_vector_add(a.gcnlint, a.kernels, mcpu, fails)
    for f in fails:
        print("FAIL: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
