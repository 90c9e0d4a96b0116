#!/usr/bin/python3
"""mfma_model.py -- an independent Python model (stdlib only, exact rational arithmetic)
of the matrix-core numerics that docs/mfma.md describes and src/sim/mfma_num.c
implements with integer shifts.  Used by tests/sim/test_mfma_num.py (against the C code)
and by tests/kernels/kernels.py (expected outputs of the MFMA kernels).

dot(types, a_bits, b_bits, c_bits, scale=None) -> result bits, where types is a Types
tuple (ta, tb, tc, gfx950) and a_bits/b_bits the raw elements in product order.
"""
import math
import struct
from fractions import Fraction

NAN32 = 0x7FC00000

# name: (exponent bits, mantissa bits, bias, kind)  kind: ieee | fnuz | e4m3fn | none
FORMATS = {
    "f32": (8, 23, 127, "ieee"), "xf32": (8, 23, 127, "ieee"), "f16": (5, 10, 15, "ieee"),
    "bf16": (8, 7, 127, "ieee"),
    "fp8_fnuz": (4, 3, 8, "fnuz"), "bf8_fnuz": (5, 2, 16, "fnuz"),
    "fp8_ocp": (4, 3, 7, "e4m3fn"), "bf8_ocp": (5, 2, 15, "ieee"),
    "fp6": (2, 3, 1, "none"), "bf6": (3, 2, 3, "none"), "fp4": (2, 1, 1, "none"),
}


def fmt_name(t, gfx950):
    if t in ("fp8", "bf8"):
        return t + ("_ocp" if gfx950 else "_fnuz")
    return t


class Val:
    """A decoded element: cls in ('fin', 'inf', 'nan'); for finite: value (Fraction) and
    exp = floor(log2|value|) clamped to the format's minimum, -126 for zero."""

    def __init__(self, cls, value=Fraction(0), exp=-126, neg=False):
        self.cls, self.value, self.exp, self.neg = cls, value, exp, neg

    def sig(self):
        return self.value / Fraction(2) ** self.exp


def decode(t, gfx950, bits):
    eb, mb, bias, kind = FORMATS[fmt_name(t, gfx950)]
    nb = 1 + eb + mb
    if t == "xf32":
        bits &= 0xFFFFE000
    bits &= (1 << nb) - 1
    neg = bool(bits >> (nb - 1))
    E = (bits >> mb) & ((1 << eb) - 1)
    M = bits & ((1 << mb) - 1)
    emax = (1 << eb) - 1
    if kind == "fnuz" and bits == 1 << (nb - 1):
        return Val("nan")
    if kind == "ieee" and E == emax:
        return Val("nan") if M else Val("inf", neg=neg)
    if kind == "e4m3fn" and E == emax and M == (1 << mb) - 1:
        return Val("nan")
    emin = 1 - bias
    if E == 0:
        v = Fraction(M, 1 << mb) * Fraction(2) ** emin
        exp = emin if M else -126
    else:
        v = (1 + Fraction(M, 1 << mb)) * Fraction(2) ** (E - bias)
        exp = E - bias
    return Val("fin", -v if neg else v, exp, neg)


def f32_bits_of(v):
    """Round a Fraction to f32, RNE, subnormals, overflow to inf."""
    if v == 0:
        return 0
    sign = 0x80000000 if v < 0 else 0
    a = abs(v)
    e = math.floor(math.log2(a.numerator) - math.log2(a.denominator))
    while Fraction(2) ** e > a:
        e -= 1
    while Fraction(2) ** (e + 1) <= a:
        e += 1
    q = Fraction(2) ** (max(e, -126) - 23)
    n = a / q
    r = math.floor(n)
    rem = n - r
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and r % 2):
        r += 1
    val = r * q
    if val >= Fraction(2) ** 128:
        return sign | 0x7F800000
    if val < Fraction(2) ** -126:
        return sign | int(val / Fraction(2) ** -149)
    e2 = e
    if val >= Fraction(2) ** (e + 1):
        e2 += 1
    mant = int(val / Fraction(2) ** (e2 - 23)) - (1 << 23)
    return sign | ((e2 + 127) << 23) | mant


def f32_value(bits):
    return decode("f32", False, bits)


def floor_to(x, unit):
    return math.floor(x / unit) * unit


def trunc_to(x, unit):
    q = abs(x) / unit
    return (1 if x >= 0 else -1) * math.floor(q) * unit


def fused_group(ts, av, bv, c_bits, sc, fp8):
    c = f32_value(c_bits)
    nan = c.cls == "nan"
    pinf = ninf = False
    if c.cls == "inf":
        pinf, ninf = (pinf, True) if c.neg else (True, ninf)
    for x, y, s in zip(av, bv, sc):
        if x.cls == "nan" or y.cls == "nan" or s is None:
            nan = True
        elif x.cls == "inf" or y.cls == "inf":
            if (x.cls == "fin" and x.value == 0) or (y.cls == "fin" and y.value == 0):
                nan = True
            elif x.neg != y.neg:
                ninf = True
            else:
                pinf = True
    if not (nan or pinf or ninf):
        for x, y, s in zip(av, bv, sc):
            p = x.value * y.value * Fraction(2) ** s
            if p >= Fraction(2) ** 128:
                pinf = True
            elif p <= -Fraction(2) ** 128:
                ninf = True
    if nan or (pinf and ninf):
        return NAN32
    if pinf:
        return 0x7F800000
    if ninf:
        return 0xFF800000
    # exact products with MMA-Sim exponents (exponent of a = its own clamped exponent)
    prods = [(x.value * y.value * Fraction(2) ** s, x.exp + y.exp + s)
             for x, y, s in zip(av, bv, sc)]

    def fsum(ps):
        E = max(e for _, e in ps)
        unit = Fraction(2) ** (E - 24)
        return sum((trunc_to(p, unit) for p, _ in ps), Fraction(0)), E

    if fp8:
        s0, e0 = fsum(prods[0::2])
        if len(prods) > 1:
            s1, e1 = fsum(prods[1::2])
            E = max(e0, e1)
            unit = Fraction(2) ** (E - 24)
            S = floor_to(s0, unit) + floor_to(s1, unit)
        else:
            S, E = s0, e0
    else:
        S, E = fsum(prods)
    mx = max(E, c.exp)
    S = floor_to(S, Fraction(2) ** (mx - 31))
    if fp8 and c.exp < mx - 25:
        Cv = Fraction(0)
    else:
        Cv = floor_to(c.value, Fraction(2) ** (mx - 24))
    return f32_bits_of(S + Cv)


def dot(ta, tb, gfx950, a_bits, b_bits, c_bits, scale=None):
    """One output element (f32 / i32 bits).  scale: list of per-product exponent offsets
    (None entries = NaN scale) or None."""
    n = len(a_bits)
    if ta == "i8":
        acc = c_bits
        for x, y in zip(a_bits, b_bits):
            sx = x - 256 if x & 0x80 else x
            sy = y - 256 if y & 0x80 else y
            acc = (acc + sx * sy) & 0xFFFFFFFF
        return acc
    if ta == "f32":
        acc = c_bits
        for x, y in zip(a_bits, b_bits):
            acc = fma32(x, y, acc)
        return acc
    group = {"xf32": 4, "f16": 8, "bf16": 8}.get(ta, 16)
    fp8 = ta not in ("xf32", "f16", "bf16")
    sc = scale if scale is not None else [0] * n
    av = [decode(ta, gfx950, x) for x in a_bits]
    bv = [decode(tb, gfx950, y) for y in b_bits]
    g = min(group, n)
    c = c_bits
    for first in range(0, n, g):
        c = fused_group((ta, tb), av[first:first + g], bv[first:first + g], c,
                        sc[first:first + g], fp8)
    return c


def fma32(a, b, c):
    """IEEE fmaf with RNE, exactly (finite operands; NaN/inf per IEEE)."""
    x, y, z = f32_value(a), f32_value(b), f32_value(c)
    fa = struct.unpack("<f", struct.pack("<I", a))[0]
    fb = struct.unpack("<f", struct.pack("<I", b))[0]
    fc = struct.unpack("<f", struct.pack("<I", c))[0]
    if "nan" in (x.cls, y.cls, z.cls) or "inf" in (x.cls, y.cls, z.cls):
        r = fa * fb + fc
        if r != r:
            return NAN32
        return 0x7F800000 if r > 0 else 0xFF800000
    v = x.value * y.value + z.value
    if v == 0:
        # IEEE: exact zero sum is +0 unless both addends are -0 (RNE)
        prod_neg = (fa * fb) < 0 or (math.copysign(1, fa) * math.copysign(1, fb) < 0)
        if prod_neg and math.copysign(1, fc) < 0:
            return 0x80000000
        return 0
    return f32_bits_of(v)


def f32(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


# ---------------------------------------------------------------- fast integer variant
# The same rules with Python integers (for the kernel tests, where the exact-rational
# model is too slow); tests/sim/test_mfma_num.py checks it against dot() too.

def _dec_int(t, gfx950, bits):
    eb, mb, bias, kind = FORMATS[fmt_name(t, gfx950)]
    nb = 1 + eb + mb
    if t == "xf32":
        bits &= 0xFFFFE000
    bits &= (1 << nb) - 1
    E = (bits >> mb) & ((1 << eb) - 1)
    M = bits & ((1 << mb) - 1)
    emax = (1 << eb) - 1
    if (kind == "fnuz" and bits == 1 << (nb - 1)) or (kind == "ieee" and E == emax) or \
            (kind == "e4m3fn" and E == emax and M == (1 << mb) - 1):
        return None
    fb = mb
    if t == "xf32":
        M >>= 13
        fb = 10
    neg = bits >> (nb - 1)
    if E == 0:
        return (-M if neg else M, (1 - bias) if M else -126, fb)
    return (-(M | 1 << fb) if neg else (M | 1 << fb), E - bias, fb)


def _fsum(ps):
    E = max(e for _, e, _ in ps)
    s = 0
    for P, e, fb in ps:
        sh = 24 - fb + e - E
        t = abs(P) << sh if sh >= 0 else abs(P) >> -sh
        s += -t if P < 0 else t
    return s, E


def _floor_shift(x, sh):
    return x << sh if sh >= 0 else x >> -sh      # Python >> floors


def dot_fast(ta, tb, gfx950, a_bits, b_bits, c_bits):
    """dot() for finite A/B/C without scales; falls back to dot() otherwise."""
    if ta in ("i8", "f32"):
        return dot(ta, tb, gfx950, a_bits, b_bits, c_bits)
    av = [_dec_int(ta, gfx950, x) for x in a_bits]
    bv = [_dec_int(tb, gfx950, y) for y in b_bits]
    if None in av or None in bv or (c_bits & 0x7F800000) == 0x7F800000:
        return dot(ta, tb, gfx950, a_bits, b_bits, c_bits)
    group = {"xf32": 4, "f16": 8, "bf16": 8}.get(ta, 16)
    fp8 = ta not in ("xf32", "f16", "bf16")
    n = len(av)
    g = min(group, n)
    c = c_bits
    for first in range(0, n, g):
        ps = [(x[0] * y[0], x[1] + y[1], x[2] + y[2])
              for x, y in zip(av[first:first + g], bv[first:first + g])]
        for P, e, fb in ps:
            if P and abs(P).bit_length() - 1 - fb + e >= 128:
                return dot(ta, tb, gfx950, a_bits, b_bits, c_bits)
        cm, ce, _ = _dec_int("f32", False, c)
        if fp8:
            s0, e0 = _fsum(ps[0::2])
            if len(ps) > 1:
                s1, e1 = _fsum(ps[1::2])
                E = max(e0, e1)
                S = _floor_shift(s0, e0 - E) + _floor_shift(s1, e1 - E)
            else:
                S, E = s0, e0
        else:
            S, E = _fsum(ps)
        mx = max(E, ce)
        Sp = _floor_shift(S, 7 + E - mx)
        Cp = 0 if (fp8 and ce < mx - 25) else _floor_shift(cm, 1 + ce - mx)
        R = Sp + Cp * 128
        if R == 0:
            c = 0
            continue
        v = math.ldexp(R, mx - 31)
        try:
            c = struct.unpack("<I", struct.pack("<f", v))[0]
        except OverflowError:
            c = 0x7F800000 if v > 0 else 0xFF800000
    return c
