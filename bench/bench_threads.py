#!/usr/bin/python3
"""bench_threads.py -- the work of bench/bench_threads.sh (which says what it measures)."""
import argparse
import filecmp
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

SUMMARY = re.compile(r"(\d+) wave-instructions, ([0-9.]+) s \(([0-9.]+) s CPU\).*?(?:; (\d+) threads|; one thread: (.*))?$",
                     re.M)


def loadavg():
    try:
        return open("/proc/loadavg").read().split()[0:3]
    except OSError:
        return ["?"] * 3


def manifest(src, dst, code):
    m = json.load(open(src))
    m["code"] = code
    json.dump(m, open(dst, "w"))


def run(gcnsim, args, out):
    """one gcnsim run: (sim wall, process wall, CPU incl. children, insns, threads)"""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run([gcnsim, "--no-progress"] + args, capture_output=True, text=True)
    t1 = time.monotonic()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("FAIL: gcnsim exit %d: %s\n%s" % (p.returncode, " ".join(args), p.stderr))
    m = SUMMARY.search(p.stderr)
    if not m:
        sys.exit("FAIL: no summary line from gcnsim: " + p.stderr)
    cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    threads = int(m.group(4)) if m.group(4) else 1
    if m.group(5):
        print("  note: one thread: " + m.group(5))
    return float(m.group(2)), t1 - t0, cpu, int(m.group(1)), threads


def bench(a, name, args, output, ref, refdir_args):
    jobs = [int(j) for j in a.jobs.split()]
    best = {}
    for rnd in range(a.reps):
        for j in jobs:
            d = os.path.join(a.tmp, "%s-j%d" % (name, j))
            shutil.rmtree(d, ignore_errors=True)
            r = run(a.gcnsim, args + ["-j", str(j), "--dump-dir", d], d)
            if j not in best or r[0] < best[j][0]:
                best[j] = r
    # every -j: the same output bytes
    base = os.path.join(a.tmp, "%s-j%d" % (name, jobs[0]), output)
    same = all(filecmp.cmp(base, os.path.join(a.tmp, "%s-j%d" % (name, j), output), shallow=False)
               for j in jobs)
    if not same:
        sys.exit("FAIL: %s: the output differs between -j values" % name)
    refmsg = "not checked"
    if ref:
        d = os.path.join(a.tmp, "%s-ref" % name)
        shutil.rmtree(d, ignore_errors=True)
        run(a.gcnsim, args + ["-j", str(jobs[-1]), "--dump-dir", d, "--dump-inputs"], d)
        if not filecmp.cmp(base, os.path.join(d, output), shallow=False):
            sys.exit("FAIL: %s: the output differs between runs" % name)
        t0 = time.monotonic()
        p = subprocess.run([ref, d], capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit("FAIL: %s: the C reference rejects the output:\n%s" % (name, p.stdout + p.stderr))
        refmsg = "C reference: equal (%.1f s)" % (time.monotonic() - t0)
    b1 = best[jobs[0]]
    print("%s: %d wave-instructions; outputs identical at every -j; %s" % (name, b1[3], refmsg))
    for j in jobs:
        b = best[j]
        print("  -j %-3d (%2d threads): simulation %8.3f s wall, process %8.3f s wall, %8.3f s CPU;"
              " speedup vs -j %d: simulation %5.2fx, process %5.2fx"
              % (j, b[4], b[0], b[1], b[2], jobs[0], b1[0] / b[0] if b[0] else 0,
                 b1[1] / b[1] if b[1] else 0))


def main():
    ap = argparse.ArgumentParser()
    for o in ("gcnsim", "target", "tmp", "srcdir", "builddir", "jobs", "only"):
        ap.add_argument("--" + o, default="")
    for o in ("reps", "gemm-size", "vadd-n", "vadd-wg", "gemm-ref"):
        ap.add_argument("--" + o, type=int)
    a = ap.parse_args()
    only = a.only.split()
    print("bench_threads %s: %d CPUs; -j %s; best of %d rounds; load average before: %s"
          % (a.target, os.cpu_count(), a.jobs.strip(), a.reps, " ".join(loadavg())))
    if not only or "gemm" in only:
        manifest(os.path.join(a.srcdir, "kernels/mfma_gemm/mfma_gemm_bf16.json"),
                 os.path.join(a.tmp, "gemm.json"), "gemm.hsaco")
        s = a.gemm_size
        ref = os.path.join(a.builddir, "kernels/mfma_gemm/ref")
        bench(a, "gemm %dx%dx%d bf16" % (s, s, s),
              ["--manifest", os.path.join(a.tmp, "gemm.json"), "--mcpu", a.target,
               "--set", "M=%d" % s, "--set", "N=%d" % s, "--set", "K=%d" % s],
              "C.bin", ref if a.gemm_ref and os.access(ref, os.X_OK) else None, None)
    if not only or "vadd" in only:
        manifest(os.path.join(a.srcdir, "kernels/vector_add/vector_add.json"),
                 os.path.join(a.tmp, "vadd.json"), "vadd.hsaco")
        ref = os.path.join(a.builddir, "kernels/vector_add/ref")
        bench(a, "vector add N=%d, %d workgroups" % (a.vadd_n, a.vadd_wg),
              ["--manifest", os.path.join(a.tmp, "vadd.json"), "--mcpu", a.target,
               "--set", "N=%d" % a.vadd_n, "--set", "WG=%d" % a.vadd_wg],
              "C.bin", ref if os.access(ref, os.X_OK) else None, None)
    print("load average after: %s" % " ".join(loadavg()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
