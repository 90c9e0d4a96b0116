#!/usr/bin/env python3
"""real.py -- the real-kernel suite: AITER's prebuilt kernels run in gcnsim and checked against
numpy references (docs/real-kernels.md).

The kernels themselves are not ours and are never committed: GCN_AITER_HSA names AITER's
extracted hsa/ directory (hsa/gfx942/..., hsa/gfx950/...).  Each case is a manifest in this
directory (our own, argument structs rebuilt from AITER's host code, cited in each manifest's
description) whose "code" is hsa/gfx942/<path>; the gfx950 run takes hsa/gfx950/<path>.  A run
copies the manifest into a fresh directory beside a link `hsa` -> $GCN_AITER_HSA, writes the
input files the case needs (pre-shuffled operands, scales), runs gcnsim with --set per size, and
compares the dumped outputs with the reference: bit-exact, or within the bound the case states
(and docs/real-kernels.md gives the reason for).

    GCN_AITER_HSA=/path/to/hsa python3 tests/real/real.py [-v] [CASE...]
    python3 tests/real/real.py --list

Exit 0 all passed, 1 a case failed, 77 skipped (no GCN_AITER_HSA, no numpy, no gcnsim).
gcnsim's exit 4 (ran to the end with findings) is accepted when every finding is of a kind the
case lists as known (docs/real-kernels.md says what each is); any other finding or a fault fails.
"""
import json, os, re, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))

try:
    import numpy as np
except ImportError:
    print("real.py: numpy missing (apt-get install python3-numpy; run with /usr/bin/python3): skipped")
    sys.exit(77)


# ---------------------------------------------------------------- number formats
def bf16_to_f32(u16):
    return (u16.astype(np.uint32) << 16).view(np.float32)


def f32_to_bf16_rne(f):
    """round f32 to bf16, nearest even (the NaN-free inputs here never need the NaN rule)"""
    u = np.ascontiguousarray(f, dtype=np.float32).view(np.uint32).astype(np.uint64)
    r = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return r.astype(np.uint16)


def f32_to_bf16_half_away(f):
    """round f32 to bf16, ties away from zero: AITER's GEMM epilogues add 0x7fff + 1 to the f32
    bits and keep the high half (v_add3_u32 v, f, 0x7fff, 1; a NaN becomes 0x7fff by v_cndmask)"""
    f = np.ascontiguousarray(f, dtype=np.float32)
    u = f.view(np.uint32).astype(np.uint64)
    r = ((u + 0x8000) >> 16) & 0xFFFF
    r[np.isnan(f)] = 0x7FFF
    return r.astype(np.uint16).reshape(np.shape(f))


def f32_to_bf16_trunc(f):
    """bf16 by truncation: the high half of the f32 bits (v_perm_b32 with selector 0x07060302, as
    AITER's int8 GEMM epilogue does)"""
    return (np.ascontiguousarray(f, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


def rd(d, name, dtype):
    return np.fromfile(os.path.join(d, name), dtype=dtype)


def compare(name, got, want, atol=0.0, rtol=0.0):
    """(ok, text): bit-exact when atol == rtol == 0 (NaN compared as bits)"""
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape:
        return False, "%s: shape %s, want %s" % (name, got.shape, want.shape)
    if atol == 0 and rtol == 0:
        bits = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
        gv = np.ascontiguousarray(got).reshape(-1).view(bits[got.dtype.itemsize])
        wv = np.ascontiguousarray(want).reshape(-1).view(bits[want.dtype.itemsize])
        bad = np.nonzero(gv != wv)[0]
        if len(bad):
            i = bad[0]
            return False, "%s: %d of %d elements differ, first at flat index %d (%s): %r, want %r" % (
                name, len(bad), got.size, i, np.unravel_index(i, got.shape), got.reshape(-1)[i],
                want.reshape(-1)[i])
        return True, "%s bit-exact (%d elements)" % (name, got.size)
    g = got.astype(np.float64)
    w = want.astype(np.float64)
    err = np.abs(g - w)
    lim = atol + rtol * np.abs(w)
    bad = np.nonzero(~(err.reshape(-1) <= lim.reshape(-1)))[0]
    if len(bad):
        i = bad[0]
        return False, "%s: %d of %d elements outside |err| <= %g + %g*|ref|, first at %s: %r, want %r" % (
            name, len(bad), got.size, atol, rtol, np.unravel_index(i, got.shape), got.reshape(-1)[i],
            want.reshape(-1)[i])
    exact = int(np.count_nonzero(err == 0))
    return True, "%s within |err| <= %g + %g*|ref| (max err %.3g, %d of %d bit-exact)" % (
        name, atol, rtol, err.max() if err.size else 0.0, exact, got.size)


# ---------------------------------------------------------------- the cases
def check_bf16gemm(d, p):
    M, N, K = p["M"], p["N"], p["K"]
    A = bf16_to_f32(rd(d, "A.in.bin", np.uint16))[:M * K].reshape(M, K).astype(np.float64)
    B = bf16_to_f32(rd(d, "B.in.bin", np.uint16)).reshape(N, K).astype(np.float64)
    # random bf16 is k/128 - 1: products are multiples of 2^-14, |sum| < K, so every partial sum
    # is exact in f32 (K <= 1024) and the order of accumulation cannot matter
    C = (A @ B.T).astype(np.float32)
    if p["OUTB16"]:
        return compare("D (bf16)", rd(d, "D.bin", np.uint16).reshape(M, N), f32_to_bf16_half_away(C))
    return compare("D (f32)", rd(d, "D.bin", np.float32).reshape(M, N), C)


def shuffle_16x16(w):
    """AITER's shuffle_weight(w, layout=(16, 16)) for 1-byte elements (aiter/ops/shuffle.py):
    [N, K] viewed as [N/16, 16, K/32, 2, 16] and permuted to [N/16, K/32, 2, 16(n), 16(k)]"""
    N, K = w.shape
    return w.reshape(N // 16, 16, K // 32, 2, 16).transpose(0, 2, 3, 1, 4).reshape(N, K)


def unshuffle_16x16(ws, N, K):
    return ws.reshape(N // 16, K // 32, 2, 16, 16).transpose(0, 3, 1, 2, 4).reshape(N, K)


def setup_i8gemm(w, p):
    """int8 operands, power-of-two scales and a dyadic bias: every product and sum the kernel
    forms is exact in f32 (|acc| <= 128*128*K < 2^24), so the only rounding is to bf16"""
    M, N, K = p["M"], p["N"], p["K"]
    g = np.random.default_rng(1000 + M * 7 + N * 13 + K)
    os.makedirs(os.path.join(w, "in"))
    Mp = M          # exact sizes: the kernel's raw-buffer range checks drop rows past M
    A = g.integers(-128, 128, size=(M, K), dtype=np.int8)
    B = g.integers(-128, 128, size=(N, K), dtype=np.int8)
    SA = np.ldexp(1.0, g.integers(-12, -4, size=Mp)).astype(np.float32)
    SB = np.ldexp(1.0, g.integers(-12, -4, size=N)).astype(np.float32)
    BIAS = (g.integers(-64, 64, size=N) / 8.0).astype(np.float32)
    A.tofile(os.path.join(w, "in/A.bin"))
    shuffle_16x16(B).tofile(os.path.join(w, "in/B.bin"))
    SA.tofile(os.path.join(w, "in/SA.bin"))
    SB.tofile(os.path.join(w, "in/SB.bin"))
    BIAS.tofile(os.path.join(w, "in/BIAS.bin"))


def check_i8gemm(d, p):
    M, N, K = p["M"], p["N"], p["K"]
    A = rd(d, "A.in.bin", np.int8)[:M * K].reshape(M, K).astype(np.int64)
    B = unshuffle_16x16(rd(d, "B.in.bin", np.int8), N, K).astype(np.int64)
    SA = rd(d, "SA.in.bin", np.float32)[:M].astype(np.float64)
    SB = rd(d, "SB.in.bin", np.float32).astype(np.float64)
    BIAS = rd(d, "BIAS.in.bin", np.float32).astype(np.float64)
    C = ((A @ B.T) * SA[:, None] * SB[None, :] + BIAS[None, :]).astype(np.float32)
    return compare("C (bf16)", rd(d, "C.bin", np.uint16).reshape(M, N), f32_to_bf16_trunc(C))


def check_fmha_fwd(d, p):
    SQ, SK = p["SQ"], p["SK"]
    Q = bf16_to_f32(rd(d, "Q.in.bin", np.uint16)).astype(np.float64).reshape(SQ, 128)
    K = bf16_to_f32(rd(d, "K.in.bin", np.uint16))[:SK * 128].astype(np.float64).reshape(SK, 128)
    V = bf16_to_f32(rd(d, "V.in.bin", np.uint16))[:SK * 128].astype(np.float64).reshape(SK, 128)
    S = Q @ K.T / np.sqrt(128.0)
    m = S.max(axis=1, keepdims=True)
    P = np.exp(S - m)
    l = P.sum(axis=1, keepdims=True)
    O = P @ V / l
    lse = (m + np.log(l))[:, 0]
    # the kernel rounds P to bf16 for the P*V MFMA (relative 2^-9 per term) and O to bf16 (half
    # an ulp, 2^-9 relative); |O| < 0.25 here, so 2^-9 absolute covers both
    ok1, t1 = compare("O (bf16)", bf16_to_f32(rd(d, "O.bin", np.uint16)).reshape(SQ, 128), O,
                      atol=2.0 ** -9)
    ok2, t2 = compare("LSE (f32)", rd(d, "LSE.bin", np.float32), lse, rtol=2.0 ** -20)
    return ok1 and ok2, t1 + "; " + t2


def attention_fwd64(Q, K, V):
    """float64 softmax attention with scale 1/sqrt(128): (P, O, natural-log LSE)"""
    S = Q @ K.T / np.sqrt(128.0)
    m = S.max(axis=1, keepdims=True)
    E = np.exp(S - m)
    l = E.sum(axis=1, keepdims=True)
    return E / l, (E / l) @ V, (m + np.log(l))[:, 0]


def bf16_random(g, shape):
    """bf16 values k/128 - 1 like the manifest's random bf16, as uint16 bits"""
    v = g.integers(0, 256, size=shape).astype(np.float32) / 128.0 - 1.0
    return (v.view(np.uint32) >> 16).astype(np.uint16)


def setup_fmha_bwd(w, p):
    SQ, SK = p["SQ"], p["SK"]
    g = np.random.default_rng(77 + SQ * 3 + SK)
    os.makedirs(os.path.join(w, "in"))
    bits = {n: bf16_random(g, (s, 128)) for n, s in (("Q", SQ), ("K", SK), ("V", SK), ("DO", SQ))}
    for n, b in bits.items():
        b.tofile(os.path.join(w, "in/%s.bin" % n))
    f = {n: bf16_to_f32(b).astype(np.float64) for n, b in bits.items()}
    _, O, lse = attention_fwd64(f["Q"], f["K"], f["V"])
    # the forward's O is bf16: D = rowsum(dO * O) from the bf16 O, as AITER's odo kernel reads it
    Ob = bf16_to_f32(f32_to_bf16_rne(O.astype(np.float32))).astype(np.float64)
    lse.astype(np.float32).tofile(os.path.join(w, "in/LSE.bin"))
    (f["DO"] * Ob).sum(axis=1).astype(np.float32).tofile(os.path.join(w, "in/D.bin"))


def check_fmha_bwd(d, p):
    SQ, SK = p["SQ"], p["SK"]
    ld = lambda n, r: bf16_to_f32(rd(d, n + ".in.bin", np.uint16)).astype(np.float64).reshape(r, 128)
    Q, K, V, dO = ld("Q", SQ), ld("K", SK), ld("V", SK), ld("DO", SQ)
    lse = rd(d, "LSE.in.bin", np.float32).astype(np.float64)
    Dv = rd(d, "D.in.bin", np.float32).astype(np.float64)
    sc = 1.0 / np.sqrt(128.0)
    P = np.exp(Q @ K.T * sc - lse[:, None])
    dV = P.T @ dO
    dS = P * (dO @ V.T - Dv[:, None])
    dQ = sc * dS @ K
    dK = sc * dS.T @ Q
    # the kernel rounds P and dS to bf16 for its MFMAs (2^-9 relative per term) and dK, dV to bf16
    # (2^-9 relative); the sums cancel, so the bound is relative to each tensor's largest element:
    # 2^-7 * max|ref| (the largest error seen is 0.38% of max|ref|, docs/real-kernels.md)
    res = []
    for name, got, want in (("dQ (f32)", rd(d, "DQ.bin", np.float32).reshape(SQ, 128), dQ),
                            ("dK (bf16)", bf16_to_f32(rd(d, "DK.bin", np.uint16)).reshape(SK, 128), dK),
                            ("dV (bf16)", bf16_to_f32(rd(d, "DV.bin", np.uint16)).reshape(SK, 128), dV)):
        big = np.abs(want).max()
        ok, text = compare(name, got, want, atol=2.0 ** -7 * big)
        res.append((ok, "%s, max err / max|ref| = %.2g" % (text, np.abs(got - want).max() / big)))
    return all(r[0] for r in res), "; ".join(r[1] for r in res)


# ---------------------------------------------------------------- MXFP4 (gfx950 f4gemm)
FP4_E2M1 = np.array([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
                     -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0])


def fp4_to_f64(packed):
    """[R, K/2] bytes of e2m1 pairs (low nibble = even k, aiter/utility/fp4_utils.py mxfp4_to_f32)"""
    v = np.empty((packed.shape[0], packed.shape[1] * 2))
    v[:, 0::2] = FP4_E2M1[packed & 15]
    v[:, 1::2] = FP4_E2M1[packed >> 4]
    return v


def shuffle_scale_mx(s):
    """AITER's shuffle_scale for e8m0 [rows, K/32] (aiter/ops/shuffle.py, non-interleaved; the same
    order as dynamic_mxfp4_quant(shuffle=True)): padded to [ceil(rows/256)*256, ceil(K/32/8)*8], viewed
    as [sm/32, 2, 16, sn/8, 2, 4] and permuted (0, 3, 5, 2, 4, 1)"""
    sm, sn = s.shape
    return s.reshape(sm // 32, 2, 16, sn // 8, 2, 4).transpose(0, 3, 5, 2, 4, 1).reshape(sm, sn)


def unshuffle_scale_mx(flat, sm, sn):
    return flat.reshape(sm // 32, sn // 8, 4, 16, 2, 2).transpose(0, 5, 3, 1, 4, 2).reshape(sm, sn)


def mx_scale_shape(rows, K):
    return (rows + 255) // 256 * 256, (K // 32 + 7) // 8 * 8


def setup_f4gemm(w, p, bshuffle):
    """random e2m1 codes (all 16, -0 too) and e8m0 scales 2^-2..2^1 (bytes 125..128): products are
    multiples of 2^-6 (0.5 * 0.5 * 2^-2 * 2^-2) and |sum| <= 36 * 2^2 * K <= 2^17.2 for K <= 1024, so
    every partial sum is exact in f32 whatever the MFMA's order; the only rounding is D to bf16"""
    M, N, K = p["M"], p["N"], p["K"]
    assert K <= 1024 and K % 256 == 0
    g = np.random.default_rng(4000 + M * 7 + N * 13 + K)
    os.makedirs(os.path.join(w, "in"))
    A = g.integers(0, 256, size=(M, K // 2), dtype=np.uint8)
    B = g.integers(0, 256, size=(N, K // 2), dtype=np.uint8)
    A.tofile(os.path.join(w, "in/A.bin"))
    (shuffle_16x16(B) if bshuffle else B).tofile(os.path.join(w, "in/B.bin"))
    for name, rows in (("SA", M), ("SB", N)):
        s = np.zeros(mx_scale_shape(rows, K), np.uint8)     # padding 0, as dynamic_mxfp4_quant
        s[:rows, :K // 32] = g.integers(125, 129, size=(rows, K // 32))
        shuffle_scale_mx(s).tofile(os.path.join(w, "in/%s.bin" % name))


def check_f4gemm(d, p, bshuffle):
    M, N, K = p["M"], p["N"], p["K"]
    A = rd(d, "A.in.bin", np.uint8).reshape(M, K // 2)
    B = rd(d, "B.in.bin", np.uint8)[:N * K // 2].reshape(N, K // 2)
    if bshuffle:
        B = unshuffle_16x16(B, N, K // 2)
    SA = unshuffle_scale_mx(rd(d, "SA.in.bin", np.uint8), *mx_scale_shape(M, K))[:M, :K // 32]
    SB = unshuffle_scale_mx(rd(d, "SB.in.bin", np.uint8), *mx_scale_shape(N, K))[:N, :K // 32]
    a = fp4_to_f64(A) * np.repeat(np.ldexp(1.0, SA.astype(int) - 127), 32, axis=1)
    b = fp4_to_f64(B) * np.repeat(np.ldexp(1.0, SB.astype(int) - 127), 32, axis=1)
    C = (a @ b.T).astype(np.float32)          # exact (setup_f4gemm)
    D = rd(d, "D.bin", np.uint16)
    # the epilogue's v_cvt_pk_bf16_f32 rounds to nearest even
    ok, text = compare("D (bf16)", D[:M * N].reshape(M, N), f32_to_bf16_rne(C).reshape(M, N))
    if D.size > M * N:      # whole-tile stores (256x256): the rows past M come from A's dropped rows
        ok2, t2 = compare("D rows %d..%d (0)" % (M, D.size // N - 1), D[M * N:],
                          np.zeros(D.size - M * N, np.uint16))
        ok, text = ok and ok2, text + "; " + t2
    return ok, text


# ---------------------------------------------------------------- fused MoE (fmoe_b16)
def shuffle_16x16_b16(w):
    """AITER's shuffle_weight(w, layout=(16, 16)) for 2-byte elements (aiter/ops/shuffle.py):
    [.., N, K] viewed as [.., N/16, 16, K/32, 4, 8] and permuted to [.., N/16, K/32, 4, 16, 8]"""
    e, n, k = w.shape
    return w.reshape(e, n // 16, 16, k // 32, 4, 8).transpose(0, 1, 3, 4, 2, 5).reshape(e, n, k)


def moe_sorting(ids, wts, E, block=32):
    """AITER's moe_sorting, as its torch reference (op_tests/test_moe_sorting.py
    run_torch_moe_sorting): per expert the (token, slot) pairs in token order, padded to whole
    blocks with topk << 24 | T; the expert of each block; {padded count, T}"""
    T, K = ids.shape
    P = T * K + E * block - K
    stp = np.full(P, (K << 24) | T, np.int32)
    sw = np.zeros(P, np.float32)
    sep = np.full((P + block - 1) // block, -1, np.int32)
    pos = bpos = 0
    for e in range(E):
        t, k = np.nonzero(ids == e)
        nb = (len(t) + block - 1) // block
        stp[pos:pos + len(t)] = (k << 24) | t
        sw[pos:pos + len(t)] = wts[t, k]
        sep[bpos:bpos + nb] = e
        pos += nb * block
        bpos += nb
    return stp, sw, sep, np.array([pos, T], np.int32)


def setup_fmoe(w, p):
    """bf16 X (k/128 - 1), W1 and W2 scaled by 1/16; each token routed to K distinct experts
    with random weights summing to 1 (fused_topk's renormalised softmax)"""
    T, D, I, E, K = p["T"], p["D"], p["I"], p["E"], p["K"]
    g = np.random.default_rng(5000 + T * 7 + D + I * 3 + E * 11 + K)
    os.makedirs(os.path.join(w, "in"))
    X = bf16_random(g, (T + 1, D))          # row T: what the padding slots read
    W1 = f32_to_bf16_trunc(bf16_to_f32(bf16_random(g, (E, I, D))) / 16)
    W2 = f32_to_bf16_trunc(bf16_to_f32(bf16_random(g, (E, D, I))) / 16)
    ids = np.array([g.permutation(E)[:K] for _ in range(T)]).reshape(T, K)
    wts = g.random((T, K)).astype(np.float32)
    wts /= wts.sum(axis=1, keepdims=True)
    X.tofile(os.path.join(w, "in/X.bin"))
    shuffle_16x16_b16(W1).tofile(os.path.join(w, "in/W1.bin"))
    shuffle_16x16_b16(W2).tofile(os.path.join(w, "in/W2.bin"))
    for name, a in zip(("STP", "SW", "SEP", "NV"), moe_sorting(ids, wts, E)):
        a.tofile(os.path.join(w, "in/%s.bin" % name))


def unshuffle_16x16_b16(ws, e, n, k):
    return ws.reshape(e, n // 16, k // 32, 4, 16, 8).transpose(0, 1, 4, 2, 3, 5).reshape(e, n, k)


def bf16_round(x, rounder):
    return bf16_to_f32(rounder(np.asarray(x, np.float32))).astype(np.float64)


def check_fmoe(d, p):
    T, D, I, E, K = p["T"], p["D"], p["I"], p["E"], p["K"]
    X = bf16_to_f32(rd(d, "X.in.bin", np.uint16)).astype(np.float64).reshape(T + 1, D)[:T]
    W1 = bf16_to_f32(unshuffle_16x16_b16(rd(d, "W1.in.bin", np.uint16), E, I, D)).astype(np.float64)
    W2 = bf16_to_f32(unshuffle_16x16_b16(rd(d, "W2.in.bin", np.uint16), E, D, I)).astype(np.float64)
    stp, sw, sep = rd(d, "STP.in.bin", np.int32), rd(d, "SW.in.bin", np.float32), rd(d, "SEP.in.bin", np.int32)
    nv = rd(d, "NV.in.bin", np.int32)[0]
    # the routing back from the sorted lists (the test of moe_sorting itself is setup_fmoe's)
    gelu = lambda h: 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    want = np.zeros((T, D))         # the modelled result, in gcnsim's order of the adds
    exact = np.zeros((T, D))        # the exact sum of the rounded parts
    big = np.zeros((T, D))          # the largest part or partial sum of each output
    nadd = np.zeros(T)
    for i in range(nv):
        t = stp[i] & 0xFFFFFF
        if t >= T:
            continue
        e = sep[i // 32]
        # a workgroup takes 512 of the I columns: it rounds its activations to bf16 for the
        # second MFMA, its weighted part of the expert's output to bf16 (v_add3_u32 f, 0x7fff,
        # 1: ties away) and adds that part with a bf16 atomic (round to nearest even)
        a = bf16_round(gelu(X[t] @ W1[e].T), f32_to_bf16_rne)
        for c in range(0, I, 512):
            y = bf16_round(sw[i] * (a[c:c + 512] @ W2[e][:, c:c + 512].T), f32_to_bf16_half_away)
            want[t] = bf16_round(want[t] + y, f32_to_bf16_rne)
            exact[t] += y
            nadd[t] += 1
            big[t] = np.maximum(big[t], np.maximum(np.abs(y), np.abs(want[t])))
    got = bf16_to_f32(rd(d, "O.bin", np.uint16)).astype(np.float64).reshape(T, D)
    # bound, whatever the order of the atomics (the hardware's is not fixed): each of the n adds
    # rounds by at most half an ulp of the largest part or partial sum, plus one ulp for a part
    # whose rounding moved (the kernel's exp/rcp GELU can put an activation on the other side
    # of a bf16 rounding boundary)
    ulp = np.ldexp(1.0, np.floor(np.log2(np.maximum(big, 2.0 ** -126))).astype(int) - 7)
    lim = (nadd[:, None] / 2 + 1) * ulp
    err = np.abs(got - exact)
    bad = np.nonzero(~(err <= lim))
    same = int(np.count_nonzero(got == want))
    if len(bad[0]):
        t, c = bad[0][0], bad[1][0]
        return False, ("O (bf16): %d of %d elements farther from the sum of the rounded parts than "
                       "(n/2 + 1) bf16 ulps, first at (%d, %d): %r, want %r +- %g"
                       % (len(bad[0]), got.size, t, c, got[t, c], exact[t, c], lim[t, c]))
    return True, ("O (bf16) within (n/2 + 1) bf16 ulps of the sum of the n rounded parts "
                  "(max err %.3g ulps); %d of %d bit-exact with the adds in gcnsim's order"
                  % ((err / ulp).max(), same, got.size))

def seqstart_as_u32(args):
    """gfx950's fmha bwd metadata declares ptr_qseq, ptr_kseq and their padded forms as 4-byte
    by-value fields (each padded to 16 bytes): the four (u64 0, u64 0) pairs after Hs_lsed become
    sixteen u32 0 (the same bytes)"""
    i = args.index({"u32": "SQ*4"}) + 4
    assert args[i:i + 8] == [{"u64": 0}] * 8, args[i:i + 8]
    return args[:i] + [{"u32": 0}] * 16 + args[i + 8:]


CASES = [
    {
        "name": "bf16gemm_32x64",
        "family": "bf16 GEMM (a16w16)",
        "manifest": "bf16gemm_32x64.json",
        "targets": ["gfx942", "gfx950"],
        "sizes": [{"M": 32}, {"M": 40}, {"M": 1, "OUTB16": 1}, {"M": 40, "N": 128, "OUTB16": 1}, {"M": 70, "K": 512}],
        "known": ["SALU_M0_READ", "VALU_SGPR_VALU"],
        "check": check_bf16gemm,
    },
    {
        "name": "i8gemm_32x128",
        "family": "int8 GEMM, pre-shuffled B, per-token scales",
        "manifest": "i8gemm_32x128.json",
        "targets": ["gfx942", "gfx950"],
        "sizes": [{"M": 32}, {"M": 40}, {"M": 1}, {"M": 70, "N": 256, "K": 512}],
        "known": ["SALU_M0_READ", "VALU_SGPR_VALU"],
        "setup": setup_i8gemm,
        "check": check_i8gemm,
    },
    {
        "name": "fmha_fwd_hd128",
        "family": "attention forward (fmha v3, hd128 bf16)",
        "manifest": "fmha_fwd_hd128.json",
        "targets": ["gfx942", "gfx950"],
        "objects": {"gfx950": ("hsa/gfx950/fmha_v3_fwd/fwd_hd128_bf16.co",
                               "_ZN5aiter19fmha_fwd_hd128_bf16E")},
        "sizes": [{"SQ": 256, "SK": 128}, {"SQ": 200, "SK": 80}, {"SQ": 300, "SK": 64}],
        "known": ["SALU_M0_READ", "VALU_SGPR_VALU", "XDL_VALU_READ", "XDL_VALU_WAW", "VALU_VGPR_PERMLANE"],
        "check": check_fmha_fwd,
    },
    {
        "name": "fmha_bwd_hd128",
        "family": "attention backward (fmha v3 dq/dk/dv, hd128 bf16, a32)",
        "manifest": "fmha_bwd_hd128.json",
        "targets": ["gfx942"],
        # this kernel (no pssk) is AITER's choice only for SQ == SK, SK % 192 == 0
        # (csrc/cpp_itfs/mha_bwd.cu: pssk = seqlen_q != seqlen_k || seqlen_k % ts_kv)
        "sizes": [{"SQ": 192, "SK": 192}, {"SQ": 384, "SK": 384}],
        "known": ["SALU_M0_READ", "VALU_SGPR_VALU", "XDL_VALU_READ", "XDL_VALU_WAW"],
        "setup": setup_fmha_bwd,
        "check": check_fmha_bwd,
    },
    {
        "name": "fmha_bwd_hd128_pssk",
        "family": "attention backward, padded seqlens (pssk/ddv)",
        "manifest": "fmha_bwd_hd128.json",
        "targets": ["gfx942"],
        "objects": {"gfx942": ("hsa/gfx942/fmha_v3_bwd/bwd_hd128_bf16_a32_rtne_psskddv.co",
                               "_ZN5aiter36fmha_bwd_hd128_bf16_a32_rtne_psskddvE")},
        "sizes": [{"SQ": 100, "SK": 150}, {"SQ": 200, "SK": 64}, {"SQ": 33, "SK": 250}],
        "known": ["SALU_M0_READ", "VALU_SGPR_VALU", "XDL_VALU_READ", "XDL_VALU_WAW"],
        "setup": setup_fmha_bwd,
        "check": check_fmha_bwd,
    },
    {
        "name": "fmha_bwd_hd128_gfx950",
        "family": "attention backward (gfx950 psskddv, ts 256)",
        "manifest": "fmha_bwd_hd128.json",
        "targets": ["gfx950"],
        # gfx950 has only the padded (psskddv) dQ/dK/dV kernels, tile ts 256 (fmha_bwd_dqdkdv.csv)
        "objects": {"gfx950": ("hsa/gfx950/fmha_v3_bwd/bwd_hd128_bf16_a32_psskddv.co",
                               "_ZN5aiter31fmha_bwd_hd128_bf16_a32_psskddvE")},
        "args": {"gfx950": seqstart_as_u32},
        "sizes": [{"SQ": 256, "SK": 256, "TS": 256}, {"SQ": 100, "SK": 150, "TS": 256},
                  {"SQ": 300, "SK": 520, "TS": 256}],
        "known": ["SALU_M0_READ", "VALU_SGPR_VALU", "XDL_VALU_READ", "XDL_VALU_WAW", "VALU_VGPR_PERMLANE"],
        "setup": setup_fmha_bwd,
        "check": check_fmha_bwd,
    },
    {
        "name": "fmoe_b16",
        "family": "fused MoE (bf16, g1u0, GELU), sorted tokens",
        "manifest": "fmoe_b16.json",
        "targets": ["gfx942"],
        # tails: tokens per expert not a multiple of the 32-row block, T = 1
        "sizes": [{"T": 40, "D": 512, "I": 512, "E": 4, "K": 2}, {"T": 1, "D": 512, "I": 512, "E": 4, "K": 1},
                  {"T": 77, "D": 768, "I": 1024, "E": 8, "K": 3}],
        # the kernel reads MFMA operands before their loads are waited for (read-before-retire)
        # and overwrites LDS another wave may still read (lds-cross-wave-race): latent, hidden by
        # latency on hardware; --wait-effect=retire computes what the hardware does then
        "gcnsim_args": ["--wait-effect=retire"],
        "known": ["SALU_M0_READ", "VALU_SGPR_VALU", "read-before-retire", "lds-cross-wave-race"],
        "setup": setup_fmoe,
        "check": check_fmoe,
    },
    {
        "name": "f4gemm_32x128",
        "family": "MXFP4 GEMM (scaled MFMA), pre-shuffled B",
        "manifest": "f4gemm_32x128.json",
        "targets": ["gfx950"],
        # tails in M (tile 32) and N (tile 128; N a multiple of 32, docs/real-kernels.md)
        "sizes": [{"M": 32, "N": 128, "K": 256}, {"M": 40, "N": 256, "K": 512},
                  {"M": 1, "N": 160, "K": 256}, {"M": 100, "N": 224, "K": 1024}],
        "known": ["SALU_M0_READ"],
        "setup": lambda w, p: setup_f4gemm(w, p, True),
        "check": lambda d, p: check_f4gemm(d, p, True),
    },
    {
        "name": "f4gemm_256x256",
        "family": "MXFP4 GEMM (scaled MFMA), row-major B",
        "manifest": "f4gemm_256x256.json",
        "targets": ["gfx950"],
        "sizes": [{"M": 256, "N": 256, "K": 256}, {"M": 100, "N": 256, "K": 512},
                  {"M": 300, "N": 512, "K": 256}],
        "known": ["SALU_M0_READ"],
        "setup": lambda w, p: setup_f4gemm(w, p, False),
        "check": lambda d, p: check_f4gemm(d, p, False),
    },
]


# ---------------------------------------------------------------- the runner
def params_of(mf, size):
    p = dict(mf["params"])
    p.update(size)
    return p


def run_case(case, tgt, size, gcnsim, hsa, verbose):
    mf = json.load(open(os.path.join(HERE, case["manifest"])))
    code = mf["code"]
    assert code.startswith("hsa/gfx942/") or mf["targets"] == ["gfx950"], code
    if code.startswith("hsa/gfx942/"):       # gfx950-only kernels name hsa/gfx950/ themselves
        mf["code"] = "hsa/%s/%s" % (tgt, code[len("hsa/gfx942/"):])
    if tgt in case.get("objects", {}):        # the object and kernel have other names there
        mf["code"], mf["kernel"] = case["objects"][tgt]
    code = mf["code"]
    mf["targets"] = [tgt]
    if tgt in case.get("args", {}):           # the target's metadata lays the arguments out otherwise
        mf["args"] = case["args"][tgt](mf["args"])
    label = "%s %s %s" % (case["name"], tgt, " ".join("%s=%s" % kv for kv in size.items()))
    if not os.path.exists(os.path.join(hsa, code[len("hsa/"):])):
        return None, "%s: no such object in $GCN_AITER_HSA (%s)" % (label, mf["code"])
    w = tempfile.mkdtemp(prefix="gcn-real-")
    try:
        os.symlink(os.path.abspath(hsa), os.path.join(w, "hsa"))
        p = params_of(mf, size)
        if "setup" in case:
            case["setup"](w, p)
        with open(os.path.join(w, "m.json"), "w") as f:
            json.dump(mf, f)
        cmd = [gcnsim, "--manifest", os.path.join(w, "m.json"), "--dump-dir", os.path.join(w, "out"),
               "--dump-inputs"] + case.get("gcnsim_args", [])
        for k, v in size.items():
            cmd += ["--set", "%s=%s" % (k, v)]
        t0 = time.time()
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        dt = time.time() - t0
        out = r.stdout
        if verbose:
            sys.stdout.write(out)
        if r.returncode not in (0, 4):
            return False, "%s: gcnsim exit %d (%.1f s):\n%s" % (
                label, r.returncode, dt, "\n".join("    " + l for l in out.splitlines()[-12:]))
        # "FILE:LINE: error: KIND at pc ...": the kind, and for a hazard its rule
        kinds = set(re.findall(r": (?:error|warning): (?:\S+: )?(\S+) at pc", out)) - {"hazard"}
        kinds |= set(re.findall(r"hazard (\S+): needs", out))
        unknown = sorted(k for k in kinds if k not in case.get("known", []))
        if r.returncode == 4 and not kinds:
            return False, "%s: exit 4 but no finding recognised:\n%s" % (label, out[-2000:])
        if unknown:
            return False, "%s: unexpected findings %s:\n%s" % (label, unknown, out[-2000:])
        m = re.search(r"(\d+) waves, (\d+) wave-instructions", out)
        ok, text = case["check"](os.path.join(w, "out"), p)
        stat = "%.2f s, %s wave-instr" % (dt, m.group(2) if m else "?")
        if kinds:
            stat += ", findings: " + " ".join(sorted(kinds))
        return ok, "%s: %s (%s)" % (label, text, stat)
    finally:
        shutil.rmtree(w, ignore_errors=True)


def main(argv):
    verbose = "-v" in argv
    names = [a for a in argv if not a.startswith("-")]
    if "--list" in argv:
        for c in CASES:
            print("%-28s %-40s %s" % (c["name"], c["family"], " ".join(c["targets"])))
        return 0
    hsa = os.environ.get("GCN_AITER_HSA")
    if not hsa:
        print("real.py: GCN_AITER_HSA is not set (it names AITER's extracted hsa/ directory, "
              "docs/real-kernels.md): skipped")
        return 77
    if not os.path.isdir(os.path.join(hsa, "gfx942")):
        print("real.py: GCN_AITER_HSA=%s has no gfx942/ directory: skipped" % hsa)
        return 77
    gcnsim = os.environ.get("GCNSIM") or os.path.join(
        os.environ.get("top_builddir") or os.path.join(HERE, "..", ".."), "gcnsim")
    if not os.access(gcnsim, os.X_OK):
        print("real.py: gcnsim not built (%s): skipped" % gcnsim)
        return 77
    unknown = [n for n in names if n not in [c["name"] for c in CASES]]
    if unknown:
        print("real.py: no case %s (--list names them)" % ", ".join(unknown))
        return 1
    fails = passes = missing = 0
    for case in CASES:
        if names and case["name"] not in names:
            continue
        for tgt in case["targets"]:
            for size in case["sizes"]:
                ok, text = run_case(case, tgt, size, gcnsim, hsa, verbose)
                if ok is None:
                    missing += 1
                    print("MISSING " + text)
                elif ok:
                    passes += 1
                    print("ok   " + text)
                else:
                    fails += 1
                    print("FAIL " + text)
                sys.stdout.flush()
    print("real.py: %d passed, %d failed, %d missing objects" % (passes, fails, missing))
    if fails:
        return 1
    return 0 if passes else 77


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
