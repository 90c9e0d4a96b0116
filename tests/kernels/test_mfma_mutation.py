#!/usr/bin/python3
"""test_mfma_mutation.py -- mutation test of gcnsim's hazard checks on compiler-generated MFMA
code (driver of tests/kernels/test_mfma_mutation.sh; python3 stdlib only).

Every HIP MFMA kernel of kernels/hip/mfma (*.json with a "source") is compiled by clang-22 to
LLVM IR and by llc-22 up to LLVM's hazard recognizer (-stop-before=post-RA-hazard-rec, the
pass that inserts the wait-state s_nops), then twice from that MIR (shared/TOOLCHAIN.md):
  normal  -start-before=post-RA-hazard-rec: the code clang would emit, with its s_nops;
  mutant  -start-after=post-RA-hazard-rec:  the same code without them.
The two disassemblies must differ by removed s_nops only (aligned instruction by
instruction; branch targets move).  For each removed s_nop, the consumer is the next
instruction (LLVM pads directly before the instruction that needs the wait states).

Then, for every target and test size of the manifest, with gcnsim --llvm-conservative
(LLVM's rules: the oracle is LLVM, which also pads where only it requires it):
  normal: gcnsim must run clean (exit 0, no finding) and match the C reference;
  mutant: gcnsim runs with --trace=fifo (wave 0 of workgroup 0); a removed s_nop whose
          consumer that wave executes must be reported: a "...: error: ...: hazard" at the
          consumer's pc.  Shown, not judged: how often --hazard-effect=stale (the consumer
          reads the value from before the write) changes the mutant's outputs, and how many
          of the executed consumers gcnsim's default flags report (the others need only
          what an llvm-conservative rule of src/analyze/hazards.def asks for).
Prints the counts (removed s_nops, executed, hazards reported, matched) and exits 0 when
every executed one is matched, 1 on a failure, 77 (skip) when a tool is missing or gcnsim has
no hazard checks yet (--hazard-effect in its --help) -- but never before showing that the
mutants do lose s_nops: no removed s_nop at all is a failure (the test would be vacuous).

Usage: test_mfma_mutation.py --gcnsim PROG --refs BUILD_KERNELS_DIR [--kernels DIR]
                             [--work DIR] [--keep]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
CLANG = os.environ.get("CLANG22") or "clang-22"
LLC = os.environ.get("LLC22") or "llc-22"
LLD = os.environ.get("LLD22") or "ld.lld-22"
OBJDUMP = os.environ.get("LLVM_OBJDUMP") or "llvm-objdump-22"
READELF = os.environ.get("LLVM_READELF") or "llvm-readelf-22"
HIP_FLAGS = ["-x", "hip", "-nogpulib", "-nogpuinc", "--cuda-device-only", "--no-gpu-bundle-output",
             "-O2", "-mcode-object-version=5"]
PASS = "post-RA-hazard-rec"
SKIP = 77


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s\n%s" % (" ".join(cmd), (r.stdout + r.stderr).strip()))
    return r.stdout


def build(src, target, d):
    """normal.hsaco and mutant.hsaco in D from SRC for TARGET."""
    ll, mir = os.path.join(d, "k.ll"), os.path.join(d, "k.mir")
    run([CLANG] + HIP_FLAGS + ["--offload-arch=" + target, "-emit-llvm", "-S", src, "-o", ll])
    llc = [LLC, "-mtriple=amdgcn-amd-amdhsa", "-mcpu=" + target, "-O2"]
    run(llc + [ll, "-stop-before=" + PASS, "-o", mir])
    out = {}
    for name, start in (("normal", "-start-before="), ("mutant", "-start-after=")):
        obj = os.path.join(d, name + ".o")
        run(llc + ["-x", "mir", mir, start + PASS, "-filetype=obj", "-o", obj])
        out[name] = os.path.join(d, name + ".hsaco")
        run([LLD, "-shared", obj, "-o", out[name]])
    return out["normal"], out["mutant"]


def code_of(hsaco, kernel):
    """[(absolute address, text)] of KERNEL's instructions (its symbol's extent)."""
    start = size = None
    for line in run([READELF, "-s", "--wide", hsaco]).splitlines():
        f = line.split()
        if len(f) >= 8 and f[7] == kernel and f[3] == "FUNC":
            start, size = int(f[1], 16), int(f[2])
    if start is None:
        raise RuntimeError("%s: no function symbol %s" % (hsaco, kernel))
    out = []
    for line in run([OBJDUMP, "-d", "--no-show-raw-insn", hsaco]).splitlines():
        m = re.match(r"^\s+(\S.*?)\s*//\s*([0-9A-Fa-f]+):", line)
        if m:
            a = int(m.group(2), 16)
            if start <= a < start + size:
                out.append((a, re.sub(r"\s+", " ", m.group(1)).strip()))
    return out


def same(a, b):
    """Instructions equal up to branch targets (which move when s_nops go)."""
    if a == b:
        return True
    ma, mb = a.split(" ")[0], b.split(" ")[0]
    return ma == mb and (ma.startswith("s_cbranch") or ma == "s_branch")


def removed_nops(normal, mutant):
    """Align NORMAL and MUTANT: [(nop address in normal, nop text, consumer address in mutant,
    consumer text)], or raise if they differ by more than removed s_nops."""
    out, i, j = [], 0, 0
    pending = []
    while i < len(normal):
        if j < len(mutant) and same(normal[i][1], mutant[j][1]):
            for a, t in pending:
                out.append((a, t, mutant[j][0], mutant[j][1]))
            pending = []
            i += 1
            j += 1
        elif normal[i][1].startswith("s_nop"):
            pending.append(normal[i])
            i += 1
        else:
            raise RuntimeError("normal and mutant differ beyond s_nops at 0x%x: %r vs %r" % (
                normal[i][0], normal[i][1], mutant[j][1] if j < len(mutant) else "end"))
    if pending or j != len(mutant):
        raise RuntimeError("normal and mutant differ at the end of the code")
    return out


def manifests(kdir):
    d = os.path.join(kdir, "hip", "mfma")
    out = []
    for f in sorted(os.listdir(d)):
        if f.endswith(".json"):
            with open(os.path.join(d, f)) as fh:
                m = json.load(fh)
            if "source" in m and "kernel" in m:
                out.append((os.path.join(d, f), m))
    return out


def sizes(m):
    base = dict(m.get("params", {}))
    return [dict(base, **t) for t in (m.get("test_sizes") or [{}])]


def sim(gcnsim, manifest, target, params, dump, extra):
    cmd = [gcnsim, "--manifest", manifest, "--mcpu", target, "--dump-dir", dump, "--dump-inputs", "--no-progress",
           "--max-findings", "1000", "--no-group"] + extra
    for k, v in sorted(params.items()):
        cmd += ["--set", "%s=%d" % (k, v)]
    shutil.rmtree(dump, ignore_errors=True)
    os.makedirs(dump)
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    return r.returncode, r.stdout + r.stderr, cmd


def hazard_pcs(text):
    return {int(m.group(1), 16) for m in re.finditer(r"^\S+:\d+: error: (?:\S+: )?hazard at pc 0x([0-9a-fA-F]+)",
                                                     text, re.M)}


def main(argv):
    args = argv[1:]

    def opt(name, default=None):
        if name in args:
            i = args.index(name)
            v = args[i + 1]
            del args[i:i + 2]
            return v
        return default
    gcnsim = opt("--gcnsim", os.path.join(TOP, "gcnsim"))
    refs = opt("--refs", os.path.join(TOP, "kernels"))
    kdir = opt("--kernels", os.path.join(TOP, "kernels"))
    work = opt("--work")
    keep = "--keep" in args
    for tool in (CLANG, LLC, LLD, OBJDUMP, READELF):
        if not shutil.which(tool):
            print("%s not found: skipped" % tool)
            return SKIP
    if not os.access(gcnsim, os.X_OK):
        print("gcnsim not built: skipped")
        return SKIP
    tmp = None
    if work is None:
        work = tmp = tempfile.mkdtemp(prefix="gcn-mut-")
    try:
        return mutate(gcnsim, refs, kdir, work)
    finally:
        if tmp and not keep:
            shutil.rmtree(tmp, ignore_errors=True)


def mutate(gcnsim, refs, kdir, work):
    helptext = subprocess.run([gcnsim, "--help"], capture_output=True, text=True).stdout
    has_hz = "--hazard-effect" in helptext
    llvm = ["--llvm-conservative"] if "--llvm-conservative" in helptext else []
    bad = 0
    tot = {"removed": 0, "executed": 0, "reported": 0, "matched": 0, "stale_runs": 0,
           "stale_differ": 0, "default": 0}
    builds = []
    for mpath, m in manifests(kdir):
        src = os.path.join(os.path.dirname(mpath), m["source"])
        rel = os.path.relpath(os.path.dirname(mpath), kdir)
        ref = os.path.abspath(os.path.join(refs, rel, m.get("reference", "ref")))
        for t in m.get("targets", ["gfx942", "gfx950"]):
            d = os.path.join(work, "%s.%s" % (m["kernel"], t))
            os.makedirs(d, exist_ok=True)
            try:
                normal, mutant = build(src, t, d)
                nops = removed_nops(code_of(normal, m["kernel"]), code_of(mutant, m["kernel"]))
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                print("FAIL %s %s: %s" % (m["kernel"], t, e))
                bad += 1
                continue
            tot["removed"] += len(nops)
            print("%s %s: %d s_nop%s removed by skipping %s" % (m["kernel"], t, len(nops),
                                                                 "" if len(nops) == 1 else "s", PASS))
            for a, txt, ca, ctxt in nops:
                print("    %s at 0x%x (normal), consumer 0x%x (mutant): %s" % (txt, a, ca, ctxt))
            builds.append((mpath, m, t, d, normal, mutant, nops, ref))
    if bad:
        return 1
    if tot["removed"] == 0:
        print("FAIL: no s_nop removed in any mutant: the test would be vacuous")
        return 1
    if not has_hz:
        print("removed s_nops: %d; gcnsim has no hazard checks yet (no --hazard-effect in "
              "gcnsim --help): skipped" % tot["removed"])
        return SKIP

    for mpath, m, t, d, normal, mutant, nops, ref in builds:
        runs = {}
        for name, code in (("normal", normal), ("mutant", mutant)):
            mm = dict(m, code=os.path.abspath(code), targets=[t])
            mm.pop("source", None)
            runs[name] = os.path.join(d, name + ".json")
            with open(runs[name], "w") as fh:
                json.dump(mm, fh)
        executed = set()
        reported = set()
        by_default = set()
        for i, params in enumerate(sizes(m)):
            what = "%s %s %s" % (m["kernel"], t, json.dumps(params, sort_keys=True))
            # normal: clean and right
            dump = os.path.join(d, "normal_%d" % i)
            rc, out, cmd = sim(gcnsim, runs["normal"], t, params, dump, llvm)
            why = []
            if rc != 0:
                why.append("normal build: gcnsim exit %d (want 0: no findings)" % rc)
            elif os.path.exists(ref):
                r = subprocess.run([ref, dump], capture_output=True, text=True)
                if r.returncode != 0:
                    why.append("normal build: reference: " + (r.stdout + r.stderr).strip())
            # mutant: the trace of wave 0 says which consumers ran
            dump = os.path.join(d, "mutant_%d" % i)
            rc2, out2, cmd2 = sim(gcnsim, runs["mutant"], t, params, dump, ["--trace=fifo"] + llvm)
            if rc2 not in (0, 4):
                why.append("mutant: gcnsim exit %d" % rc2)
            pcs = {int(x, 16) for x in re.findall(r"^#\d+\s+pc 0x([0-9a-fA-F]+)", out2, re.M)}
            found = hazard_pcs(out2)
            reported |= found
            for a, txt, ca, ctxt in nops:
                if ca in pcs:
                    executed.add(ca)
                    if ca not in found:
                        why.append("removed %s before 0x%x %s: executed, no hazard reported" %
                                   (txt, ca, ctxt))
            # mutant with --hazard-effect=stale: the consumers read the registers from before
            # the MFMA wrote them; shown (not judged): how often that changes the outputs
            # (default flags: also which consumers they report)
            if os.path.exists(ref):
                dump = os.path.join(d, "stale_%d" % i)
                rc3, out3, _ = sim(gcnsim, runs["mutant"], t, params, dump,
                                   ["--hazard-effect=stale"])
                by_default |= hazard_pcs(out3)
                if rc3 in (0, 4):
                    tot["stale_runs"] += 1
                    r = subprocess.run([ref, dump], capture_output=True, text=True)
                    tot["stale_differ"] += r.returncode == 1
            print("%s %s" % ("FAIL" if why else "ok  ", what))
            for w in why:
                print("  " + w)
            if why:
                print("  " + " ".join(cmd) + "\n  " + out.strip().replace("\n", "\n  ")[:4000])
                bad += 1
        consumers = {ca for _, _, ca, _ in nops}
        tot["executed"] += len(executed)
        tot["reported"] += len(reported)
        tot["matched"] += len(executed & reported & consumers)
        tot["default"] += len(executed & by_default & consumers)
    print("removed s_nops: %d, consumers executed: %d, hazards reported (distinct pcs): %d, "
          "matched: %d" % (tot["removed"], tot["executed"], tot["reported"], tot["matched"]))
    print("with --hazard-effect=stale the mutants' outputs differ from the reference in %d of "
          "%d runs" % (tot["stale_differ"], tot["stale_runs"]))
    print("executed consumers reported with the default flags (without --llvm-conservative): "
          "%d of %d" % (tot["default"], tot["executed"]))
    if tot["executed"] == 0:
        print("FAIL: no removed s_nop's consumer executed")
        bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
