#!/usr/bin/python3
"""test_threads.py -- gcnsim -j N gives the results of -j 1, byte for byte (docs/gcnsim.md,
"Threads").  Driven by test_threads.sh.

1. Every bundled kernel (kernels/**/*.json, built for both targets by kernels.py build) at
   each of its test sizes and at a larger size with many workgroups (WG x8; N, M, K, ROWS,
   COLS, BATCH x4), run at -j 1, 2, 3 and 8: the exit code, standard output, standard error
   (-q: the findings, or the fault), the dump (--dump-dir with --dump-inputs: every output
   and run.json with its findings) and --json must be identical.
2. tests/sim/threads/wg_paths.json, whose workgroups take different paths: findings first
   met in workgroups 1 and 2 (the merged order must be theirs whichever thread ends first),
   a memory fault in workgroup 7 (the findings of workgroups 0-7, the fault of 7), --strict
   (the first finding only), a per-workgroup --max-insns that a middle workgroup exceeds
   first, and --no-group: each at -j 1, 2, 3, 8, identical.
3. tests/sim/threads/atomic_ticket.json: every work-item takes a ticket from a global
   atomic counter; the tickets depend on the order of the workgroups.  At every -j the
   dump must be identical and be the dispatch order's: workgroup k holds k*128 ..
   k*128+127 (gcnsim runs a kernel with global atomics in order on one thread), and gcnsim
   must say that it ran on one thread and why.
4. The summary line says a kernel without them ran on the threads asked for.
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "kernels"))
import kernels  # noqa: E402  (tests/kernels/kernels.py: manifests, sizes)

JOBS = (1, 2, 3, 8)
SCALE = {"WG": 8, "N": 4, "M": 4, "K": 4, "ROWS": 4, "COLS": 4, "BATCH": 4}


def scaled(m):
    base = dict(m.get("params", {}))
    return {k: v * SCALE[k] if k in SCALE and v > 1 else v for k, v in base.items()}


def tree(d):
    """name -> bytes of every file under d"""
    out = {}
    for root, _, files in os.walk(d):
        for f in files:
            p = os.path.join(root, f)
            with open(p, "rb") as fh:
                out[os.path.relpath(p, d)] = fh.read()
    return out


def run_all(gcnsim, args, work):
    """gcnsim ARGS at every -j; returns [(j, rc, stdout, stderr, dump files, json)]"""
    res = []
    for j in JOBS:
        d = os.path.join(work, "j%d" % j)
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
        dump, js = os.path.join(d, "dump"), os.path.join(d, "f.json")
        cmd = [gcnsim, "-q", "--no-progress", "-j", str(j), "--dump-dir", dump, "--dump-inputs",
               "--json", js] + args
        r = subprocess.run(cmd, capture_output=True, timeout=900)
        files = tree(dump) if os.path.isdir(dump) else {}
        jtxt = open(js, "rb").read() if os.path.exists(js) else b""
        res.append((j, r.returncode, r.stdout, r.stderr, files, jtxt, cmd))
    return res


def differ(res):
    """what differs between the -j 1 run and the others"""
    why = []
    j1 = res[0]
    for r in res[1:]:
        for i, what in ((1, "exit code"), (2, "standard output"), (3, "standard error"),
                        (5, "--json")):
            if r[i] != j1[i]:
                why.append("-j %d: %s differs from -j 1's" % (r[0], what))
        if sorted(r[4]) != sorted(j1[4]):
            why.append("-j %d: dump files %s, -j 1: %s" % (r[0], sorted(r[4]), sorted(j1[4])))
        else:
            for f in sorted(r[4]):
                if r[4][f] != j1[4][f]:
                    why.append("-j %d: dump file %s differs" % (r[0], f))
    return why


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gcnsim", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--threads-dir", required=True)
    a = ap.parse_args()
    bad = runs = 0
    checks = []
    for t in sorted(os.listdir(a.build)):
        for mp in kernels.manifests(os.path.join(a.build, t)):
            m = kernels.load(mp)
            for params in kernels.sizes(m) + [scaled(m)]:
                sets = []
                for k, v in sorted(params.items()):
                    sets += ["--set", "%s=%d" % (k, v)]
                checks.append(("%s %s %s" % (t, m["kernel"], " ".join(sets[1::2])),
                               ["--manifest", mp, "--mcpu", t, "--max-findings", "1000"] + sets))
    wp = os.path.join(a.threads_dir, "wg_paths.json")
    for t in ("gfx942", "gfx950"):
        for extra in ([], ["--set", "FAULT=7"], ["--set", "FAULT=7", "--strict"],
                      ["--max-insns", "30"], ["--no-group"], ["--set", "FAULT=0"]):
            checks.append(("%s wg_paths %s" % (t, " ".join(extra)),
                           ["--manifest", wp, "--mcpu", t] + extra))
    for name, args in checks:
        res = run_all(a.gcnsim, args, a.work)
        why = differ(res)
        if res[0][1] not in (0, 3, 4):
            why.append("-j 1: exit %d: %s" % (res[0][1], res[0][3].decode(errors="replace")))
        runs += 1
        print("%s %s (exit %d)" % ("FAIL" if why else "ok  ", name, res[0][1]))
        for w in why:
            print("  " + w)
        if why:
            print("  " + " ".join(res[-1][6]))
            bad += 1

    # the order the tickets of a global atomic counter were handed out in
    at = os.path.join(a.threads_dir, "atomic_ticket.json")
    for t in ("gfx942", "gfx950"):
        res = run_all(a.gcnsim, ["--manifest", at, "--mcpu", t], a.work)
        why = differ(res)
        for r in res:
            out = r[4].get("OUT.bin", b"")
            v = struct.unpack("<%dI" % (len(out) // 4), out)
            if r[1] != 0 or not v or v != tuple(range(len(v))):
                why.append("-j %d: exit %d, tickets not in dispatch order: %s..." %
                           (r[0], r[1], list(v[:8])))
        runs += 1
        print("%s %s atomic_ticket: tickets in dispatch order at every -j" % ("FAIL" if why else "ok  ", t))
        for w in why:
            print("  " + w)
        bad += bool(why)

    # the summary line: threads used, or one and why
    for mf, want in ((wp, "; 2 threads"), (at, "; one thread: an atomic on memory other workgroups reach")):
        r = subprocess.run([a.gcnsim, "--no-progress", "-j", "2", "--manifest", mf],
                           capture_output=True, text=True, timeout=300)
        ok = want in r.stderr
        runs += 1
        bad += not ok
        print("%s %s -j 2 says %r" % ("ok  " if ok else "FAIL", os.path.basename(mf), want))
        if not ok:
            print("  " + r.stderr.strip().replace("\n", "\n  "))
    print("%d checks, %d failures" % (runs, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
