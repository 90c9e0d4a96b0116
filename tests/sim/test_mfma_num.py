#!/usr/bin/python3
"""test_mfma_num.py -- src/sim/mfma_num.c (through tests/sim/test_mfma_num_driver) against the
independent exact-arithmetic model tests/sim/mfma_model.py, on seeded random cases for
every element-type combination of both targets: random bit patterns (NaN, inf,
denormals, zeros), values with spread exponents (alignment and truncation), heavy
cancellation, accumulators far above and below the products, and gfx950 block scales.

Usage: test_mfma_num.py [DRIVER]   (default: $top_builddir/tests/sim/test_mfma_num_driver)
Exit 0 if every case agrees, 1 otherwise (first differences printed).
"""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mfma_model as mm  # noqa: E402

BITS = {"f32": 32, "xf32": 32, "f16": 16, "bf16": 16, "i8": 8, "fp8": 8, "bf8": 8,
        "fp6": 6, "bf6": 6, "fp4": 4}

COMBOS = [  # (ta, tb, gfx950, K values)
    ("f16", "f16", 0, (4, 8, 16)), ("bf16", "bf16", 0, (4, 8, 16)),
    ("f16", "f16", 1, (8, 32)), ("bf16", "bf16", 1, (8, 32)),
    ("xf32", "xf32", 0, (4, 8)), ("f32", "f32", 0, (1, 2, 4)),
    ("i8", "i8", 0, (4, 16, 32)), ("i8", "i8", 1, (64,)),
    ("fp8", "fp8", 0, (16, 32)), ("fp8", "bf8", 0, (16, 32)), ("bf8", "fp8", 0, (32,)),
    ("bf8", "bf8", 0, (16, 32)),
    ("fp8", "fp8", 1, (32, 128)), ("bf8", "bf8", 1, (32,)), ("fp8", "bf8", 1, (64,)),
    ("fp6", "fp6", 1, (64,)), ("bf6", "fp4", 1, (128,)), ("fp4", "fp4", 1, (64,)),
    ("fp8", "fp4", 1, (64,)), ("bf6", "bf6", 1, (32,)),
]


def rand_elem(rng, t, mode):
    nb = BITS[t]
    if mode == "bits" or t in ("i8",):
        return rng.getrandbits(nb)
    if t in ("fp6", "bf6", "fp4"):
        return rng.getrandbits(nb)
    if mode == "zero" and rng.random() < 0.3:
        return 0
    # spread exponents, no specials: pick from the finite codes
    while True:
        v = rng.getrandbits(nb)
        d = mm.decode(t, 0, v) if t not in ("fp8", "bf8") else None
        if d is None or d.cls == "fin":
            return v


def rand_c(rng, ta):
    r = rng.random()
    if ta == "i8":
        return rng.getrandbits(32)
    if r < 0.1:
        return 0
    if r < 0.15:
        return rng.choice([0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x00000001,
                           0x807FFFFF])
    if r < 0.3:
        return rng.getrandbits(32)
    e = rng.randint(100, 150)
    return (rng.getrandbits(1) << 31) | (e << 23) | rng.getrandbits(23)


def cancel_case(rng, t, n):
    """Pairs that cancel (x, -x) plus a few small terms."""
    a = [rand_elem(rng, t, "fin") for _ in range(n)]
    for i in range(0, n - 1, 2):
        a[i + 1] = a[i] ^ (1 << (BITS[t] - 1))
    return a


def main():
    top = os.environ.get("top_builddir", ".")
    drv = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "tests/sim/test_mfma_num_driver")
    rng = random.Random(20260517)
    cases = []
    for ta, tb, g950, ks in COMBOS:
        for K in ks:
            for it in range(60):
                mode = ("bits", "fin", "zero", "cancel")[it % 4]
                if mode == "cancel" and ta not in ("i8",):
                    a = cancel_case(rng, ta, K)
                    b = [rand_elem(rng, tb, "fin") for _ in range(K)]
                    b = [b[i // 2 * 2] for i in range(K)]
                else:
                    a = [rand_elem(rng, ta, mode) for _ in range(K)]
                    b = [rand_elem(rng, tb, mode) for _ in range(K)]
                c = rand_c(rng, ta)
                sc = None
                if g950 and ta in ("fp8", "bf8", "fp6", "bf6", "fp4") and it % 3 == 0:
                    blocks = [rng.randint(-30, 30) if rng.random() > 0.02 else None
                              for _ in range((K + 31) // 32)]
                    sc = [blocks[k // 32] for k in range(K)]
                cases.append((ta, tb, g950, a, b, c, sc))
    lines = []
    for ta, tb, g950, a, b, c, sc in cases:
        s = "dot %s %s %x %x %x %s %s" % (ta, tb, g950, len(a), c, " ".join("%x" % x for x in a),
                                           " ".join("%x" % x for x in b))
        if sc is not None:
            s += " " + " ".join("nan" if x is None else str(x) for x in sc)
        lines.append(s)
    r = subprocess.run([drv], input="\n".join(lines) + "\n", capture_output=True, text=True)
    outs = r.stdout.split()
    if r.returncode or len(outs) != len(cases):
        print("FAIL driver: rc %d, %d answers for %d cases\n%s" % (r.returncode, len(outs),
                                                                   len(cases), r.stderr))
        return 1
    bad = 0
    per = {}
    for (ta, tb, g950, a, b, c, sc), got in zip(cases, outs):
        want = mm.dot(ta, tb, g950, a, b, c, sc)
        g = int(got, 16)
        key = "%s x %s %s" % (ta, tb, "gfx950" if g950 else "gfx942")
        per.setdefault(key, [0, 0])[0] += 1
        isnan = lambda v: (v & 0x7F800000) == 0x7F800000 and v & 0x7FFFFF  # noqa: E731
        if g == want or (ta != "i8" and isnan(g) and isnan(want)):
            continue
        per[key][1] += 1
        bad += 1
        if bad <= 10:
            print("FAIL %s K=%d c=%08x: C %08x, model %08x\n  a=%s\n  b=%s\n  scale=%s"
                  % (key, len(a), c, g, want, a, b, sc))
    for k, (n, f) in sorted(per.items()):
        print("%-26s %4d cases %s" % (k, n, "ok" if not f else "%d FAIL" % f))
    print("%d cases, %d differences" % (len(cases), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
