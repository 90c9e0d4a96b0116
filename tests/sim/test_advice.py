#!/usr/bin/python3
"""test_advice.py -- gcnsim's fixes checked by re-running them (python3 stdlib only).

gcnsim proposes, for every wait-count finding, the loosest s_waitcnt that retires the producer
on the paths the run took, and where to put it (before the consumer, or before the s_barrier
another wave passed too early).  This test takes kernels whose waits are right, breaks one wait
at a time, and checks each proposal by running it:
  (a) every clean hand-written assembly kernel of kernels/ (expect.json verdict "clean");
  (b) the HIP kernels of kernels/hip, compiled to assembly by clang-22 (-S, -O2) with all the
      waits LLVM's SIInsertWaitcnts placed;
a mutant deletes one s_waitcnt, or weakens one counter of it by one (not to the field's
maximum, which on gfx9 means no wait).  Each mutant is assembled (clang-22 -g: the findings
name .s lines) and run by gcnsim --no-group --json at the manifest's test sizes until one shows
findings.  Then, for every finding with a fix:
  - the fix's counts are below 63 (vmcnt) and 15 (lgkmcnt): never a wait that does not wait;
  - FIXED: the proposed wait inserted on its own line before the named instruction, the run
    no longer shows that finding (same kind, consumer line and producer line, after the
    inserted line is accounted for), and does not fault;
  - WEAKER: each counter of the wait raised by one (or, at 62 / 14, dropped), the run still
    shows the finding: the proposal was the loosest.
Also (c): the known case of kernels/vector_add/README.md: vector_add_weak_loop's
lds-dma-read-before-retire at 0x120 must propose vmcnt(3) (its vmcnt(4) is too weak).

usage: test_advice.py --gcnsim P [--kernels DIR] [--targets gfx942,...] [--only NAME]
                      [--max-mutants N] [--verbose]
Exit 0 when every proposal checks out, 1 otherwise (each failure printed).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

CLANG = os.environ.get("CLANG22") or "clang-22"
LLVM_MC = os.environ.get("LLVM_MC") or "llvm-mc-22"
MAXCNT = {"vmcnt": 63, "lgkmcnt": 15}
WAIT = re.compile(r"^(\s*)s_waitcnt\s+([^/;]*?)\s*(//.*|;.*)?$")
HIP_FLAGS = ["-x", "hip", "-nogpulib", "-nogpuinc", "--cuda-device-only", "--no-gpu-bundle-output",
             "-O2", "-mcode-object-version=5"]


def load(p):
    with open(p) as fh:
        return json.load(fh)


def verdicts(kdir):
    out = {}
    for root, _, files in os.walk(kdir):
        if "expect.json" in files:
            for k, v in load(os.path.join(root, "expect.json")).items():
                if not k.startswith("_"):
                    out[k] = v.get("verdict", "clean")
    return out


def manifests(kdir):
    for root, dirs, files in os.walk(kdir):
        dirs.sort()
        for f in sorted(files):
            if f.endswith(".json") and f != "expect.json":
                m = load(os.path.join(root, f))
                if isinstance(m, dict) and "code" in m and "kernel" in m:
                    yield os.path.join(root, f), m


def sizes(m):
    base = dict(m.get("params", {}))
    return [dict(base, **t) for t in (m.get("test_sizes") or [{}])]


def mutants(lines):
    """(description, mutated lines) for every single-wait deletion or weakening."""
    for i, line in enumerate(lines):
        w = WAIT.match(line)
        if not w:
            continue
        fl = re.findall(r"(vmcnt|lgkmcnt|expcnt)\((\d+)\)", w.group(2))
        muts = [("delete", None)]
        for j, (ctr, n) in enumerate(fl):
            if ctr in MAXCNT and int(n) + 1 < MAXCNT[ctr]:
                f2 = list(fl)
                f2[j] = (ctr, str(int(n) + 1))
                muts.append(("%s(%s)->%s(%d)" % (ctr, n, ctr, int(n) + 1),
                             w.group(1) + "s_waitcnt " + " ".join("%s(%s)" % x for x in f2)))
        for what, new in muts:
            out = list(lines)
            if new is None:
                del out[i]
            else:
                out[i] = new
            yield "line %d %s: %s" % (i + 1, w.group(2), what), out


class Runner:
    def __init__(self, a, work):
        self.a, self.work, self.n = a, work, 0

    def assemble(self, lines, name, target, incdir):
        self.n += 1
        d = os.path.join(self.work, "m%d" % self.n)
        os.makedirs(d)
        s = os.path.join(d, name + ".s")
        with open(s, "w") as fh:
            fh.write("\n".join(lines))
        obj = os.path.join(d, name + ".hsaco")
        r = subprocess.run([CLANG, "-x", "assembler", "-target", "amdgcn-amd-amdhsa",
                            "-mcpu=" + target, "-g", "-I", incdir, s, "-o", obj],
                           capture_output=True, text=True)
        if r.returncode:
            raise RuntimeError("cannot assemble %s: %s" % (s, r.stderr[-800:]))
        return d, obj

    def sim(self, d, manifest, obj, target, params):
        """gcnsim at PARAMS -> (exit code, findings of the JSON)."""
        m = dict(load(manifest), code=os.path.abspath(obj), targets=[target])
        m.pop("source", None)
        mp = os.path.join(d, "run.json")
        with open(mp, "w") as fh:
            json.dump(m, fh)
        jp = os.path.join(d, "findings.json")
        if os.path.exists(jp):
            os.remove(jp)
        cmd = [self.a.gcnsim, "--manifest", mp, "--mcpu", target, "-q", "--no-progress",
               "--no-group", "--json", jp, "--max-insns", "50000000"]
        for k, v in sorted(params.items()):
            cmd += ["--set", "%s=%d" % (k, v)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        if r.returncode == 3 and "is not simulated" in r.stdout + r.stderr:
            return None, []
        if r.returncode not in (0, 3, 4):
            raise RuntimeError("%s: exit %d: %s" % (" ".join(cmd), r.returncode, r.stderr[-500:]))
        return r.returncode, load(jp)["findings"] if os.path.exists(jp) else []


def line_of(where):
    """'dir/x.s:12' -> 12 (or None)."""
    if not where:
        return None
    m = re.search(r":(\d+)$", where)
    return int(m.group(1)) if m else None


def ident(f, shift_at=None):
    """A finding's identity across re-runs: consumer and producer lines and texts; with
    SHIFT_AT, as the lines read after one line was inserted before line SHIFT_AT.  Not the
    kind: a wait one weaker than lgkmcnt(0) turns a read-before-retire of an SMEM result into
    a smem-out-of-order finding of the same consumer and producer (the count retires it, but
    SMEM returns out of order)."""
    def sh(n):
        return n + 1 if shift_at is not None and n is not None and n >= shift_at else n
    p = f.get("producer") or {}
    return (sh(line_of(f["where"])), f["text"], sh(line_of(p.get("where"))), p.get("text"))


def weaker(fix):
    """The waits one step weaker than FIX, one per counter."""
    out = []
    for ctr in ("vmcnt", "lgkmcnt"):
        n = fix.get(ctr)
        if n is None:
            continue
        rest = [(c, fix[c]) for c in ("vmcnt", "lgkmcnt") if c != ctr and fix.get(c) is not None]
        if n + 1 < MAXCNT[ctr]:
            rest.append((ctr, n + 1))
        if rest:
            out.append("s_waitcnt " + " ".join("%s(%d)" % x for x in sorted(rest)))
    return out


class Tally:
    def __init__(self):
        self.mutants = self.flagged = self.fixes = self.fixed = self.weak = self.unplaced = 0
        self.fail = []

    def bad(self, msg):
        self.fail.append(msg)
        print("FAIL " + msg)


def no_op(fx):
    return (fx.get("vmcnt") is not None and not 0 <= fx["vmcnt"] < MAXCNT["vmcnt"]) or \
        (fx.get("lgkmcnt") is not None and not 0 <= fx["lgkmcnt"] < MAXCNT["lgkmcnt"])


def check_mutant(rn, t, desc, lines, name, manifest, m, target, incdir, verbose):
    """Repair the mutant one proposal at a time: the first finding (in the order the run saw
    them) that has a fix is fixed with it, and checked; then the next, on the repaired source.
    Everything the run did before that finding is right, so its re-runs see the same path up
    to it (an earlier unfixed finding could make a stale value fault the run first)."""
    d, obj = rn.assemble(lines, name, target, incdir)
    t.mutants += 1
    for params in sizes(m):
        rc, found = rn.sim(d, manifest, obj, target, params)
        if rc is None:
            return
        if rc == 4 and any(f.get("fix") for f in found):
            break
    else:
        return
    t.flagged += 1
    for step in range(40):
        for f in found:
            if f.get("fix") and no_op(f["fix"]):
                t.bad("%s %s %s: no-op or bad wait proposed: %s" % (target, name, desc,
                                                                   f["fix"]["wait"]))
        first = next((f for f in found if f.get("fix")), None)
        if first is None:
            if rc == 3:
                t.bad("%s %s %s: after %d fixes the run faults with no finding that has a fix"
                      % (target, name, desc, step))
            return
        fx = first["fix"]
        at = line_of(fx["before"]["where"])
        if at is None:
            t.bad("%s %s %s: fix without a line: %s" % (target, name, desc, json.dumps(fx)))
            return
        mnem = fx["before"]["text"].split()[0]
        if not re.match(r"\s*%s\b" % re.escape(mnem), lines[at - 1]):
            # not the instruction's own line (a macro's invocation in a source that was not
            # expanded): the wait cannot be placed by line
            t.unplaced += 1
            return
        t.fixes += 1
        indent = re.match(r"\s*", lines[at - 1]).group(0)
        target_id = ident(first, at)
        fixed = lines[:at - 1] + [indent + fx["wait"]] + lines[at - 1:]
        d2, obj2 = rn.assemble(fixed, name, target, incdir)
        rc2, found2 = rn.sim(d2, manifest, obj2, target, params)
        if target_id in {ident(g) for g in found2}:
            t.bad("%s %s %s: '%s' before line %d does not fix %s %s (exit %d)"
                  % (target, name, desc, fx["wait"], at, first["kind"], first["sym"], rc2))
            return
        t.fixed += 1
        for wk in weaker(fx):
            w_lines = lines[:at - 1] + [indent + wk] + lines[at - 1:]
            d3, obj3 = rn.assemble(w_lines, name, target, incdir)
            _, found3 = rn.sim(d3, manifest, obj3, target, params)
            if target_id not in {ident(g) for g in found3}:
                t.bad("%s %s %s: the weaker '%s' before line %d also fixes %s %s: '%s' is not "
                      "the loosest" % (target, name, desc, wk, at, first["kind"], first["sym"],
                                       fx["wait"]))
            else:
                t.weak += 1
        if verbose:
            print("  ok %s %s %s: %s before line %d (%s %s)" % (target, name, desc, fx["wait"], at,
                                                             first["kind"], first["sym"]))
        lines, rc, found = fixed, rc2, found2
    t.bad("%s %s %s: still findings after 40 fixes" % (target, name, desc))


def part_a(a, rn, t):
    verdict = verdicts(a.kernels)
    for mp, m in manifests(a.kernels):
        if not m["code"].endswith(".s") or verdict.get(m["kernel"], "clean") != "clean":
            continue
        if a.only and a.only != m["kernel"]:
            continue
        src = os.path.join(os.path.dirname(mp), m["code"])
        for target in a.targets:
            if target not in m.get("targets", [target]):
                continue
            # macros expanded (llvm-mc prints what it parsed): the line table of a macro's
            # instructions names its invocation, where no single wait can be placed
            r = subprocess.run([LLVM_MC, "-triple", "amdgcn-amd-amdhsa", "-mcpu=" + target,
                                "-filetype=asm", "-I", os.path.dirname(src), src],
                               capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError("llvm-mc cannot expand %s: %s" % (src, r.stderr[-800:]))
            lines = r.stdout.split("\n")
            for k, (desc, ml) in enumerate(mutants(lines)):
                if a.max_mutants and k >= a.max_mutants:
                    break
                check_mutant(rn, t, desc, ml, m["kernel"], mp, m, target,
                             os.path.dirname(src), a.verbose)


def part_b(a, rn, t):
    for mp, m in manifests(os.path.join(a.kernels, "hip")):
        if "source" not in m or (a.only and a.only != m["kernel"]):
            continue
        src = os.path.join(os.path.dirname(mp), m["source"])
        for target in a.targets:
            if target not in m.get("targets", [target]):
                continue
            asm = os.path.join(rn.work, "%s_%s.s" % (m["kernel"], target))
            r = subprocess.run([CLANG] + HIP_FLAGS + ["--offload-arch=" + target, "-I",
                                                      os.path.join(a.kernels, "hip"), "-S", src,
                                                      "-o", asm], capture_output=True, text=True)
            if r.returncode:
                raise RuntimeError("cannot compile %s: %s" % (src, r.stderr[-800:]))
            with open(asm) as fh:
                lines = fh.read().split("\n")
            for k, (desc, ml) in enumerate(mutants(lines)):
                if a.max_mutants and k >= a.max_mutants:
                    break
                check_mutant(rn, t, "hip " + desc, ml, m["kernel"], mp, m, target,
                             os.path.dirname(src), a.verbose)


def part_c(a, rn, t):
    """vector_add_weak_loop: kernels/vector_add/README.md says its wait at 0x114 must be
    vmcnt(3); gcnsim must propose exactly that for the read at 0x120."""
    mp = os.path.join(a.kernels, "vector_add", "vector_add_weak_loop.json")
    if not os.path.exists(mp) or (a.only and a.only != "vector_add_weak_loop"):
        return
    m = load(mp)
    with open(os.path.join(a.kernels, "vector_add", m["code"])) as fh:
        lines = fh.read().split("\n")
    d, obj = rn.assemble(lines, m["kernel"], a.targets[0], os.path.join(a.kernels, "vector_add"))
    rc, found = rn.sim(d, mp, obj, a.targets[0], dict(m.get("params", {})))
    want = [f for f in found if f["kind"] == "lds-dma-read-before-retire"
            and f["sym"].endswith("+0x120")]
    if not want or any(f["fix"] is None or f["fix"]["wait"] != "s_waitcnt vmcnt(3)" for f in want):
        t.bad("vector_add_weak_loop: expected the fix s_waitcnt vmcnt(3) at +0x120, got %s"
              % [f["fix"] and f["fix"]["wait"] for f in want])
    else:
        print("ok   vector_add_weak_loop: s_waitcnt vmcnt(3) proposed (README.md)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gcnsim", required=True)
    ap.add_argument("--kernels", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", "..", "kernels"))
    ap.add_argument("--targets", default="gfx942")
    ap.add_argument("--only")
    ap.add_argument("--part", default="abc")
    ap.add_argument("--max-mutants", type=int, default=0)
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    a.targets = a.targets.split(",")
    t = Tally()
    with tempfile.TemporaryDirectory(prefix="gcnsim-advice-") as work:
        rn = Runner(a, work)
        if "c" in a.part:
            part_c(a, rn, t)
        if "a" in a.part:
            part_a(a, rn, t)
        if "b" in a.part:
            part_b(a, rn, t)
    print("%d mutants, %d with a proposed wait; %d proposals checked, %d fix their findings, "
          "%d weaker waits still show them (%d proposals not placed: no line of their own); "
          "%d failures" % (t.mutants, t.flagged, t.fixes, t.fixed, t.weak, t.unplaced,
                          len(t.fail)))
    if not t.fixes:
        print("FAIL: no proposal was checked")
        return 1
    return 1 if t.fail else 0


if __name__ == "__main__":
    sys.exit(main())
