#!/usr/bin/env python3
"""mutants.py -- LLVM's own waits as the oracle for gcnlint.

Each HIP kernel is compiled to assembly by clang-22 (SIInsertWaitcnts places
its s_waitcnt).  Then:
  * the compiler's output must be clean (no error, no warning);
  * for every counter of every s_waitcnt, a mutant without that counter's
    wait is made (the other counter of the same s_waitcnt kept).  gcnlint
    --suggest says for each one whether this wait is needed; a needed one
    removed must give at least one error, one it calls unnecessary (with no
    earlier wait changed) must give none.
Exit status 0 pass, 1 fail.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

WAIT = re.compile(r"^(\s*)s_waitcnt\s+(.*?)\s*(//.*|;.*)?$")


def lint(gcnlint, path, mcpu, extra=()):
    p = subprocess.run([gcnlint, "--format=json", "--mcpu=" + mcpu] + list(extra) + [path],
                       capture_output=True, text=True)
    if p.returncode not in (0, 4):
        raise RuntimeError("%s: gcnlint exit %d: %s" % (path, p.returncode, p.stderr))
    return json.loads(p.stdout)["findings"]


def errors(found):
    return [f for f in found if f["severity"] in ("error", "warning")]


def fields(arg):
    """'vmcnt(0) lgkmcnt(0)' -> {'vmcnt': '0', 'lgkmcnt': '0'} (expcnt kept aside)."""
    return dict(re.findall(r"(vmcnt|lgkmcnt|expcnt)\((\d+)\)", arg))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gcnlint", required=True)
    ap.add_argument("--clang", default="clang-22")
    ap.add_argument("--mcpu", default="gfx942")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("hip", nargs="+")
    a = ap.parse_args()
    fails = []
    with tempfile.TemporaryDirectory() as tmp:
        for src in a.hip:
            name = os.path.basename(src)
            asm = os.path.join(tmp, name + ".s")
            cmd = [a.clang, "-x", "hip", "--offload-arch=" + a.mcpu, "-nogpulib", "-nogpuinc",
                   "--cuda-device-only", "-O2", "-S", "-o", asm, src]
            for inc in a.include:
                cmd += ["-I", inc]
            subprocess.run(cmd, check=True, capture_output=True)
            lines = open(asm).read().split("\n")
            base = lint(a.gcnlint, asm, a.mcpu, ["--suggest"])
            if errors(base):
                fails.append("%s: compiler output not clean: %s" %
                             (name, [f["message"] for f in errors(base)]))
                continue
            notes = {}
            for f in base:
                if f["check"] in ("waitcnt-suggest", "waitcnt-stronger"):
                    notes.setdefault(f["line"], []).append(f["message"])
            nmut = nok = 0
            for i, line in enumerate(lines):
                m = WAIT.match(line)
                if not m:
                    continue
                fl = fields(m.group(2))
                for ctr in ("vmcnt", "lgkmcnt"):
                    if ctr not in fl:
                        continue
                    rest = " ".join("%s(%s)" % (k, v) for k, v in fl.items() if k != ctr)
                    mut = list(lines)
                    mut[i] = (m.group(1) + "s_waitcnt " + rest) if rest else ""
                    mpath = os.path.join(tmp, "%s.%d.%s.s" % (name, i + 1, ctr))
                    open(mpath, "w").write("\n".join(mut))
                    found = errors(lint(a.gcnlint, mpath, a.mcpu))
                    msgs = [n for n in notes.get(i + 1, []) if n.startswith("s_waitcnt %s(" % ctr)]
                    if not msgs:
                        fails.append("%s:%d: no --suggest note for %s" % (name, i + 1, ctr))
                        continue
                    droppable = "can be dropped" in msgs[0]
                    exact = "earlier waits" not in msgs[0]
                    nmut += 1
                    if not droppable and not found:
                        fails.append("%s:%d: removing %s(%s) (needed: %s) gives no finding" %
                                     (name, i + 1, ctr, fl[ctr], msgs[0]))
                    elif droppable and exact and found:
                        fails.append("%s:%d: %s(%s) called unnecessary, but removing it gives: %s"
                                     % (name, i + 1, ctr, fl[ctr], found[0]["message"]))
                    else:
                        nok += 1
            print("%s %s: %d/%d wait mutants agree with --suggest" %
                  ("ok  " if nok == nmut else "FAIL", name, nok, nmut))
    for f in fails:
        print("FAIL: " + f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
