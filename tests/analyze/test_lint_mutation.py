#!/usr/bin/python3
"""test_lint_mutation.py -- gcnlint against the simulator on mutated kernels (stdlib only).

(a) Hand-written kernels: every clean bundled assembly kernel (kernels/**/*.s whose
    expect.json verdict is "clean") is mutated one s_waitcnt at a time: the wait deleted,
    and each counter of it weakened by one (vmcnt(N) -> vmcnt(N+1), lgkmcnt(N) ->
    lgkmcnt(N+1), up to the counter maximum).  Each mutant is assembled (clang-22 -g), run
    through gcnsim on the kernel's manifest at every test size (exit 4 = findings, 3 = fault:
    "the run breaks") and through gcnlint (an error or warning = flagged).
(b) HIP kernels with a manifest (kernels/hip/**): compiled to LLVM IR and through llc-22
    with the wait pass skipped (-stop-before=si-insert-waitcnts, then -start-after), linked,
    then gcnsim and gcnlint as above.
Every mutant gcnsim flags must be flagged by gcnlint (recall over the sim-flagged mutants
must be 100%: exit 1 otherwise).  Mutants only gcnlint flags are printed with its first
finding: paths no test size takes, or races a run does not show.
Prints precision (of gcnlint, taking gcnsim as the oracle) and recall per set.

usage: test_lint_mutation.py --gcnlint P --gcnsim P [--kernels DIR] [--targets gfx942,...]
                             [--only NAME] [--verbose]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

CLANG = os.environ.get("CLANG22") or "clang-22"
LLC = os.environ.get("LLC22") or "llc-22"
LLD = os.environ.get("LLD22") or "ld.lld-22"
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


def mutants(text):
    """(description, mutated text) for every single-wait deletion or weakening."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        w = WAIT.match(line)
        if not w:
            continue
        fl = re.findall(r"(vmcnt|lgkmcnt|expcnt)\((\d+)\)", w.group(2))
        muts = [("delete", "")]
        for j, (ctr, n) in enumerate(fl):
            if ctr in MAXCNT and int(n) < MAXCNT[ctr]:
                f2 = list(fl)
                f2[j] = (ctr, str(int(n) + 1))
                muts.append(("%s(%s)->%s(%d)" % (ctr, n, ctr, int(n) + 1),
                             w.group(1) + "s_waitcnt " + " ".join("%s(%s)" % x for x in f2)))
        for what, new in muts:
            out = list(lines)
            out[i] = new
            yield "line %d %s: %s" % (i + 1, w.group(2), what), "\n".join(out)


def run_sim(gcnsim, manifest, code, target, work):
    """gcnsim on MANIFEST with CODE at every test size -> (flagged, first finding line);
    flagged None when the simulator cannot run the kernel (an instruction not simulated)."""
    m = load(manifest)
    m2 = dict(m, code=os.path.abspath(code), targets=[target])
    m2.pop("source", None)
    mp = os.path.join(work, "run.json")
    with open(mp, "w") as fh:
        json.dump(m2, fh)
    for params in sizes(m):
        cmd = [gcnsim, "--manifest", mp, "--mcpu", target, "-q", "--no-progress",
               "--max-insns", "50000000"]
        for k, v in sorted(params.items()):
            cmd += ["--set", "%s=%d" % (k, v)]
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if r.returncode == 3 and "is not simulated" in r.stdout + r.stderr:
            return None, "not simulated yet"      # e.g. MFMA before the matrix cores land
        if r.returncode in (3, 4):
            txt = (r.stdout + r.stderr).strip().splitlines()
            why = next((l for l in txt if "error" in l or "warning" in l or "fault" in l),
                       txt[0] if txt else "")
            return True, "%s (exit %d): %s" % (json.dumps(params, sort_keys=True), r.returncode, why)
        if r.returncode != 0:
            raise RuntimeError("gcnsim exit %d: %s" % (r.returncode, (r.stdout + r.stderr)[-500:]))
    return False, ""


def run_lint(gcnlint, code, kernel):
    # -Wlds-unproven: a race gcnlint cannot prove either way (an LDS address it
    # does not know, e.g. a histogram bin from the data) is a warning, off by
    # default; recall counts it, as it does every warning
    r = subprocess.run([gcnlint, "--format=json", "-Wlds-unproven", "--kernel=" + kernel, code],
                       capture_output=True, text=True, timeout=300)
    if r.returncode not in (0, 4):
        raise RuntimeError("gcnlint exit %d: %s" % (r.returncode, r.stderr))
    bad = [f for f in json.loads(r.stdout)["findings"] if f["severity"] in ("error", "warning")]
    if not bad:
        return False, ""
    f = bad[0]
    return True, "%d finding(s), first %s:%s %s [%s]" % (len(bad), f.get("line"), f["offset"],
                                                       f["message"][:160], f["check"])


class Tally:
    def __init__(self, name):
        self.name, self.both, self.sim_only, self.lint_only, self.neither = name, 0, [], [], 0
        self.unsim = 0

    def add(self, desc, sim, sw, lint, lw, verbose):
        if sim is None:
            self.unsim += 1
        elif sim and lint:
            self.both += 1
        elif sim:
            self.sim_only.append(desc)
            print("MISSED %s\n  gcnsim: %s" % (desc, sw))
        elif lint:
            self.lint_only.append(desc)
            print("lint-only %s\n  gcnlint: %s" % (desc, lw))
        else:
            self.neither += 1
        if verbose:
            print("  %s %s sim=%s lint=%d %s | %s" % (self.name, desc, {None: "-", True: 1, False: 0}[sim], lint, sw, lw))

    def summary(self):
        nsim = self.both + len(self.sim_only)
        nlint = self.both + len(self.lint_only)
        total = nsim + len(self.lint_only) + self.neither + self.unsim
        rec = 100.0 * self.both / nsim if nsim else 100.0
        prec = 100.0 * self.both / nlint if nlint else 100.0
        print("%s: %d mutants; gcnsim flags %d, gcnlint flags %d, both %d, lint only %d, sim only %d, "
              "neither %d, not simulated %d; recall %.1f%% (%d/%d), precision %.1f%% (%d/%d)"
              % (self.name, total, nsim, nlint, self.both, len(self.lint_only), len(self.sim_only),
                 self.neither, self.unsim, rec, self.both, nsim, prec, self.both, nlint))
        return not self.sim_only


def part_a(a, kdir, work):
    verdict = verdicts(kdir)
    t = Tally("(a) hand-written kernels")
    for mp, m in manifests(kdir):
        if not m["code"].endswith(".s") or verdict.get(m["kernel"], "clean") != "clean":
            continue
        if a.only and a.only != m["kernel"]:
            continue
        src = os.path.join(os.path.dirname(mp), m["code"])
        text = open(src).read()
        for target in a.targets:
            if target not in m.get("targets", [target]):
                continue
            for k, (desc, mtext) in enumerate(mutants(text)):
                d = os.path.join(work, "%s_%s_%d" % (m["kernel"], target, k))
                os.makedirs(d, exist_ok=True)
                s = os.path.join(d, m["kernel"] + ".s")
                with open(s, "w") as fh:
                    fh.write(mtext)
                obj = os.path.join(d, m["kernel"] + ".hsaco")
                r = subprocess.run([CLANG, "-x", "assembler", "-target", "amdgcn-amd-amdhsa",
                                    "-mcpu=" + target, "-g", "-I", os.path.dirname(src), s, "-o", obj],
                                   capture_output=True, text=True)
                if r.returncode:
                    raise RuntimeError("cannot assemble %s: %s" % (s, r.stderr))
                sim, sw = run_sim(a.gcnsim, mp, obj, target, d)
                lint, lw = run_lint(a.gcnlint, obj, m["kernel"])
                t.add("%s %s %s" % (target, m["code"], desc), sim, sw, lint, lw, a.verbose)
    return t


def part_b(a, kdir, work):
    t = Tally("(b) HIP kernels without SIInsertWaitcnts")
    for mp, m in manifests(os.path.join(kdir, "hip")):
        if "source" not in m or (a.only and a.only != m["kernel"]):
            continue
        src = os.path.join(os.path.dirname(mp), m["source"])
        for target in a.targets:
            d = os.path.join(work, "hip_%s_%s" % (m["kernel"], target))
            os.makedirs(d, exist_ok=True)
            ll, mir, o, obj = (os.path.join(d, "k" + x) for x in (".ll", ".mir", ".o", ".hsaco"))
            llc = [LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-O2"]
            for cmd in ([CLANG] + HIP_FLAGS + ["--offload-arch=" + target, "-I", os.path.join(kdir, "hip"),
                                               "-emit-llvm", "-S", src, "-o", ll],
                        llc + [ll, "-stop-before=si-insert-waitcnts", "-o", mir],
                        llc + ["-x", "mir", mir, "-start-after=si-insert-waitcnts", "-filetype=obj",
                               "-o", o],
                        [LLD, "-shared", o, "-o", obj]):
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    raise RuntimeError("%s: %s" % (" ".join(cmd), r.stderr[-800:]))
                if cmd[-1] == mir:
                    # the wait pseudos the memory legalizer leaves for SIInsertWaitcnts (fences:
                    # S_WAITCNT_soft, S_WAITCNT_lds_direct) are lowered by that pass alone; drop
                    # them too, so the mutant has no waits the compiler placed
                    with open(mir) as fh:
                        kept = [l for l in fh if not re.search(r"\bS_WAITCNT_(soft|lds_direct)\b", l)]
                    with open(mir, "w") as fh:
                        fh.writelines(kept)
            dis = subprocess.run(["llvm-objdump-22", "-d", obj], capture_output=True, text=True).stdout
            nwait = len(re.findall(r"\ts_waitcnt", dis))
            sim, sw = run_sim(a.gcnsim, mp, obj, target, d)
            lint, lw = run_lint(a.gcnlint, obj, m["kernel"])
            t.add("%s %s (no waits; %d s_waitcnt left)" % (target, m["source"], nwait),
                  sim, sw, lint, lw, a.verbose)
    return t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gcnlint", required=True)
    ap.add_argument("--gcnsim", required=True)
    ap.add_argument("--kernels", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                       "..", "..", "kernels"))
    ap.add_argument("--targets", default="gfx942")
    ap.add_argument("--only")
    ap.add_argument("--part", default="ab")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    a.targets = a.targets.split(",")
    ok = True
    with tempfile.TemporaryDirectory(prefix="lintmut-") as work:
        tallies = []
        if "a" in a.part:
            tallies.append(part_a(a, a.kernels, work))
        if "b" in a.part:
            tallies.append(part_b(a, a.kernels, work))
        for t in tallies:
            ok = t.summary() and ok
    print("PASS" if ok else "FAIL: gcnlint missed mutants gcnsim flags")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
