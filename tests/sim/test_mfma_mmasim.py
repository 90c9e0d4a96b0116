#!/usr/bin/python3
"""test_mfma_mmasim.py -- the simulator's gfx942 MFMAs against microsoft/MMA-Sim, the
bit-accurate CDNA3 model (github.com/microsoft/MMA-Sim; not part of gcnsim: point
MMASIM_DIR at a checkout).  Needs python3-torch (Debian: torch 1.13, which has no float8
types: the fp8/bf8 instructions are run with float32 tensors holding normal fp8 values,
which MMA-Sim treats identically).

For each of MMA-Sim's 29 CDNA3 qualifiers: random A, B, C (exponents spread, some
denormals and zeros, no NaN/inf: MMA-Sim does not model NaN payloads or the sign of exact
zeros), D from MMA-Sim and from gcn_mfma_run (tests/sim/test_mfma_num_driver, whole
instruction through the register layouts) must be equal bit for bit (+0 == -0).

Exit 0 (all equal), 1 (differences), 77 (MMA-Sim or torch missing: skipped).
"""
import os
import random
import struct
import subprocess
import sys


def skip(msg):
    print("SKIP: " + msg)
    sys.exit(77)


def main():
    mdir = os.environ.get("MMASIM_DIR", "/tmp/mmasim")
    if not os.path.isfile(os.path.join(mdir, "mmasim", "simulator", "amd.py")):
        skip("MMA-Sim not found (set MMASIM_DIR to a checkout of microsoft/MMA-Sim)")
    try:
        import torch
    except ImportError:
        skip("python3-torch not installed")
    for name in ("float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3fn", "float8_e5m2",
                 "float8_e8m0fnu"):
        if not hasattr(torch, name):       # torch 1.13: placeholders, never used as dtypes
            setattr(torch, name, "placeholder_" + name)
    sys.path.insert(0, mdir)
    from mmasim.simulator import amd
    from mmasim.isa.amd import cdna3_mfma_qualifiers

    top = os.environ.get("top_builddir", ".")
    drv = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests/sim/test_mfma_num_driver")
    rng = random.Random(int(os.environ.get("SEED", "7")))
    torch.manual_seed(7)

    fp8_vals = {}

    def fp8_table(bf8):
        # normal FNUZ values (bias 8 / 16), as (bits, float)
        if bf8 in fp8_vals:
            return fp8_vals[bf8]
        eb, mb, bias = (5, 2, 16) if bf8 else (4, 3, 8)
        out = [(0, 0.0)]
        for s in (0, 1):
            for E in range(1, 1 << eb):
                for M in range(1 << mb):
                    v = (1 + M / (1 << mb)) * 2.0 ** (E - bias)
                    out.append(((s << 7) | (E << mb) | M, -v if s else v))
        fp8_vals[bf8] = out
        return out

    def rand_mat(dtype_name, shape):
        n = 1
        for x in shape:
            n *= x
        if dtype_name in ("fp8", "bf8"):
            tab = fp8_table(dtype_name == "bf8")
            pick = [rng.choice(tab) for _ in range(n)]
            t = torch.tensor([v for _, v in pick], dtype=torch.float32).reshape(shape)
            return t, [b for b, _ in pick]
        dt = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32,
              "xf32": torch.float32, "f64": torch.float64}[dtype_name]
        base = torch.randn(n, dtype=torch.float64)
        lo, hi = {"f16": (-16, 6), "bf16": (-40, 40), "f64": (-60, 60)}.get(dtype_name, (-40, 40))
        sc = torch.tensor([2.0 ** rng.randint(lo, hi) for _ in range(n)], dtype=torch.float64)
        t = (base * sc)
        for i in range(n):
            if rng.random() < 0.05:
                t[i] = 0.0
        t = t.to(dt).reshape(shape)
        if dt == torch.float64:
            bits = [struct.unpack("<Q", struct.pack("<d", float(x)))[0] for x in t.flatten()]
        elif dt == torch.float32:
            bits = [x & 0xFFFFFFFF for x in t.flatten().view(torch.int32).tolist()]
        else:
            bits = [x & 0xFFFF for x in t.flatten().view(torch.int16).tolist()]
        return t, bits

    bad = total = 0
    for q in cdna3_mfma_qualifiers:
        sim = amd.mfma("CDNA3", q)
        parts = q.split("_")
        ta = parts[-1] if parts[-1] not in ("fp8", "bf8") else parts[-2]
        tb = parts[-1]
        if q.endswith("_f32") or q.endswith("_xf32"):
            ta = tb = "xf32" if q.endswith("xf32") else "f32"
        tc = "f64" if q.startswith("f64") else "f32"
        m, n, k = sim.m, sim.n, sim.k
        blocks = 1
        for p in parts:
            if p.endswith("b") and p[:-1].isdigit():
                blocks = int(p[:-1])
        As, Bs, Cs, Abits, Bbits, Cbits = [], [], [], [], [], []
        for _ in range(blocks):
            a, ab = rand_mat(ta, (m, k))
            b, bb = rand_mat(tb, (k, n))
            c, cb = rand_mat(tc, (m, n))
            As.append(a)
            Bs.append(b)
            Cs.append(c)
            Abits += ab
            Bbits += bb
            Cbits += cb
        if ta in ("fp8", "bf8"):
            sim.a_type = torch.float32
            sim.b_type = torch.float32
        want = []
        for blk in range(blocks):
            d = sim(As[blk], Bs[blk], Cs[blk])
            if tc == "f64":
                want += [struct.unpack("<Q", struct.pack("<d", float(x)))[0] for x in d.flatten()]
            else:
                want += [x & 0xFFFFFFFF for x in d.flatten().view(torch.int32).tolist()]
        req = "insn v_mfma_%s gfx942 0 0 0 %s %s %s\n" % (
            q, " ".join("%x" % x for x in Abits), " ".join("%x" % x for x in Bbits),
            " ".join("%x" % x for x in Cbits))
        r = subprocess.run([drv], input=req, capture_output=True, text=True)
        got = r.stdout.split()
        if len(got) != len(want):
            print("FAIL %s: driver answered %r" % (q, r.stdout[:200]))
            bad += 1
            continue
        sign = 1 << 63 if tc == "f64" else 1 << 31
        diff = [(i, int(g, 16), w) for i, (g, w) in enumerate(zip(got, want))
                if int(g, 16) != w and not (int(g, 16) | w) == sign]
        total += len(want)
        print("%-24s %5d elements %s" % (q, len(want), "ok" if not diff else
                                          "%d differ, first D[%d]: ours %x MMA-Sim %x"
                                          % ((len(diff),) + diff[0])))
        bad += bool(diff)
    print("%d qualifiers, %d elements, %d with differences" % (len(cdna3_mfma_qualifiers), total,
                                                               bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
