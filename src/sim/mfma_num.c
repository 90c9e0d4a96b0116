/*
 * mfma_num.c -- matrix-core arithmetic: one output element of an MFMA/SMFMAC as the
 * hardware computes it (model and sources in docs/mfma.md).
 *
 * gfx942 follows microsoft/MMA-Sim (arXiv 2511.10909), the bit-accurate model of the
 * CDNA3 matrix cores (facts taken from its mmasim/simulator/{amd,arithmetic}.py; no
 * code copied):
 *   - f32 and f64: D = fma(a[K-1], b[K-1], ... fma(a[0], b[0], C)), RNE, denormals kept;
 *   - xf32: inputs truncated to tf32, then FUSED with groups of 4;
 *   - f16/bf16: FUSED with groups of min(8, K);  fp8/bf8: FUSED8 with groups of 16;
 *   - FUSED (amd_fused_dot_rd_add): each product a*b is exact; with E the largest
 *     product exponent of the group (exponent = floor(log2|x|) clamped to the format's
 *     minimum, and -126 for a zero), every product is truncated toward zero to 24
 *     fractional bits below 2^E and the truncated products are summed exactly; the
 *     sum and the accumulator are then aligned to max(E, exp(C)), the sum rounded down
 *     to 31 and C rounded down to 24 fractional bits, added exactly, and the result
 *     rounded once to f32 (RNE).  FUSED8 sums the even and the odd products of a group
 *     separately that way, rounds both down to 24 bits below their common maximum, and
 *     drops C entirely when exp(C) < max - 25;
 *   - NaN/inf: a NaN input, inf*0 or inf-inf gives NaN (0x7fc00000); an inf input or a
 *     finite product >= 2^128 in magnitude gives inf of its sign (both signs: NaN).
 * i8: exact products and sum, two's complement wrap to 32 bits (CDNA4 ISA 7.1.5: without
 * clamp "the carry out bits are dropped"; MAI encodings have no clamp bit).
 * gfx950 uses the same algorithms (assumed; MMA-Sim has no CDNA4 model) with OCP
 * 8-bit formats, fp6/bf6/fp4 like fp8, and block scales added to product exponents
 * (CDNA4 ISA 7.1.5: "d_exp = (a0_exp+b0_exp) + ... + c_exp + scale_a + scale_b").
 */
#include "gcn_mfma_num.h"

#include <assert.h>
#include <math.h>
#include <string.h>

/* A decoded element (gcn_mfma_val): value = (neg ? -1 : 1) * m * 2^(e - fb),
 * m < 2^(fb+1). */
enum { CLS_FIN = 0, CLS_INF = 1, CLS_NAN = 2 };
typedef gcn_mfma_val nval;

typedef struct fmt {
    uint8_t ebits, mbits;
    int16_t bias;
    uint8_t kind;   /* 0: IEEE (max exponent = inf/nan), 1: FNUZ (0x80 = NaN),
                       2: OCP E4M3FN (S.1111.111 = NaN), 3: no specials */
} fmt;

static fmt fmt_of(gcn_mfma_type t, int ocp)
{
    switch (t) {
    case GCN_MT_F32:  return (fmt){8, 23, 127, 0};
    case GCN_MT_XF32: return (fmt){8, 23, 127, 0};
    case GCN_MT_F16:  return (fmt){5, 10, 15, 0};
    case GCN_MT_BF16: return (fmt){8, 7, 127, 0};
    case GCN_MT_FP8:  return ocp ? (fmt){4, 3, 7, 2} : (fmt){4, 3, 8, 1};
    case GCN_MT_BF8:  return ocp ? (fmt){5, 2, 15, 0} : (fmt){5, 2, 16, 1};
    case GCN_MT_FP6:  return (fmt){2, 3, 1, 3};
    case GCN_MT_BF6:  return (fmt){3, 2, 3, 3};
    case GCN_MT_FP4:  return (fmt){2, 1, 1, 3};
    default:          return (fmt){0, 0, 0, 3};
    }
}

unsigned gcn_mfma_type_bits(gcn_mfma_type t)
{
    switch (t) {
    case GCN_MT_F64: return 64;
    case GCN_MT_F32: case GCN_MT_XF32: case GCN_MT_I32: return 32;
    case GCN_MT_F16: case GCN_MT_BF16: return 16;
    case GCN_MT_I8: case GCN_MT_FP8: case GCN_MT_BF8: return 8;
    case GCN_MT_FP6: case GCN_MT_BF6: return 6;
    case GCN_MT_FP4: return 4;
    default: return 0;
    }
}

const char *gcn_mfma_type_name(gcn_mfma_type t)
{
    static const char *const n[] = {"none", "f32", "xf32", "f64", "f16", "bf16", "i8",
                                    "i32", "fp8", "bf8", "fp6", "bf6", "fp4"};
    return (unsigned)t < sizeof n / sizeof n[0] ? n[t] : "?";
}

static nval decode(gcn_mfma_type t, int ocp, uint32_t bits)
{
    fmt f = fmt_of(t, ocp);
    nval v = {0, -126, 0, 0, CLS_FIN};
    unsigned nb = 1u + f.ebits + f.mbits;
    if (t == GCN_MT_XF32)
        bits &= 0xffffe000u;            /* MMA-Sim truncate_to_tf32 */
    bits &= nb >= 32 ? 0xffffffffu : (1u << nb) - 1;
    v.neg = (uint8_t)(bits >> (nb - 1));
    unsigned E = (bits >> f.mbits) & ((1u << f.ebits) - 1);
    unsigned M = bits & ((1u << f.mbits) - 1);
    unsigned emax = (1u << f.ebits) - 1;
    v.fb = f.mbits;
    if (f.kind == 1 && bits == 1u << (nb - 1)) {
        v.cls = CLS_NAN;
        return v;
    }
    if (f.kind == 0 && E == emax) {
        v.cls = M ? CLS_NAN : CLS_INF;
        return v;
    }
    if (f.kind == 2 && E == emax && M == (1u << f.mbits) - 1) {
        v.cls = CLS_NAN;
        return v;
    }
    if (t == GCN_MT_XF32) {                /* keep tf32's 10 fraction bits */
        M >>= 13;
        v.fb = 10;
    }
    if (E == 0) {
        v.m = (int32_t)M;
        v.e = (int16_t)(M ? 1 - f.bias : -126);   /* zero: exponent -126 (MMA-Sim) */
    } else {
        v.m = (int32_t)(M | (1u << v.fb));
        v.e = (int16_t)((int)E - f.bias);
    }
    return v;
}

double gcn_mfma_num_value(gcn_mfma_type t, int ocp, uint32_t bits)
{
    if (t == GCN_MT_I8)
        return (double)(int8_t)bits;
    if (t == GCN_MT_I32)
        return (double)(int32_t)bits;
    if (t == GCN_MT_F64)
        return NAN;   /* 64-bit values do not fit the interface; not used */
    nval v = decode(t, ocp, bits);
    if (v.cls == CLS_NAN)
        return NAN;
    if (v.cls == CLS_INF)
        return v.neg ? -INFINITY : INFINITY;
    double d = ldexp((double)v.m, v.e - v.fb);
    return v.neg ? -d : d;
}

void gcn_mfma_num_init(gcn_mfma_num *nm, gcn_mfma_type ta, gcn_mfma_type tb,
                       gcn_mfma_type tc, int gfx950)
{
    memset(nm, 0, sizeof *nm);
    nm->ta = ta;
    nm->tb = tb;
    nm->tc = tc;
    nm->ocp = gfx950 != 0;
    switch (ta) {
    case GCN_MT_F32: case GCN_MT_F64:
        nm->alg = GCN_MA_FMA;
        nm->group = 1;
        break;
    case GCN_MT_XF32:
        nm->alg = GCN_MA_FUSED;
        nm->group = 4;
        break;
    case GCN_MT_F16: case GCN_MT_BF16:
        nm->alg = GCN_MA_FUSED;
        nm->group = 8;
        break;
    case GCN_MT_I8:
        nm->alg = GCN_MA_INT;
        nm->group = 1;
        break;
    default:                      /* fp8 bf8 fp6 bf6 fp4 */
        nm->alg = GCN_MA_FUSED8;
        nm->group = 16;
        break;
    }
}

/* floor(x * 2^sh) for signed x (sh may be negative; |sh| of any size). */
static int64_t shift_floor(int64_t x, int sh)
{
    if (sh >= 0) {
        assert(sh < 40);
        return x * ((int64_t)1 << sh);
    }
    if (sh <= -63)
        return x < 0 ? -1 : 0;
    int64_t q = x / ((int64_t)1 << -sh);
    if (x < 0 && q * ((int64_t)1 << -sh) != x)
        q--;
    return q;
}

/* trunc(|x| * 2^sh) for x >= 0. */
static int64_t shift_trunc(int64_t x, int sh)
{
    if (sh >= 0) {
        assert(sh < 40);
        return x << sh;
    }
    return sh <= -63 ? 0 : x >> -sh;
}

/* MMA-Sim fused_sum over products idx[0..n): S * 2^(E-24). */
static void fused_sum(const nval *a, const nval *b, const int32_t *sc, const size_t *idx,
                      size_t n, int64_t *S, int *E)
{
    int emax = -100000;
    for (size_t q = 0; q < n; q++) {
        size_t p = idx[q];
        int e = a[p].e + b[p].e + (sc ? sc[p] : 0);
        if (e > emax)
            emax = e;
    }
    int64_t s = 0;
    for (size_t q = 0; q < n; q++) {
        size_t p = idx[q];
        int e = a[p].e + b[p].e + (sc ? sc[p] : 0);
        int64_t P = (int64_t)a[p].m * b[p].m;
        int64_t t = shift_trunc(P, 24 - a[p].fb - b[p].fb + e - emax);
        s += (a[p].neg ^ b[p].neg) ? -t : t;
    }
    *S = s;
    *E = emax;
}

static uint32_t f32_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* floor(x / 2^k), k >= 0, without relying on >> of negative values. */
static inline int64_t floor_shr(int64_t x, int k)
{
    if (k >= 63)
        return x < 0 ? -1 : 0;
    return x >= 0 ? x >> k : ~(~x >> k);
}

/* The common case of fused_group, the same arithmetic in one pass: FUSED (not FUSED8),
 * no scales, every input finite and C finite, no product able to reach 2^128 (largest
 * product exponent <= 126).  Returns 0 and sets *out, or -1 to take the general path. */
static int fused_group_fast(const nval *a, const nval *b, size_t first, size_t n,
                            uint32_t cbits, uint32_t *out)
{
    unsigned cexp = (cbits >> 23) & 0xff;
    if (cexp == 0xff || n > 16)
        return -1;
    int ep[16], emax = -100000;
    for (size_t q = 0; q < n; q++) {
        const nval *x = &a[first + q], *y = &b[first + q];
        if ((x->cls | y->cls) || x->fb + y->fb > 20)
            return -1;
        ep[q] = x->e + y->e;
        emax = ep[q] > emax ? ep[q] : emax;
    }
    if (emax > 126)
        return -1;
    int64_t S = 0;
    for (size_t q = 0; q < n; q++) {
        const nval *x = &a[first + q], *y = &b[first + q];
        /* trunc(P * 2^(24 - fb sum + ep - emax)): fb sum <= 20, P < 2^22 (branch-free) */
        int64_t P = (int64_t)x->m * y->m << (24 - x->fb - y->fb);
        int d = emax - ep[q];
        int64_t t = P >> (d < 63 ? d : 63);
        int64_t sg = -(int64_t)(x->neg ^ y->neg);
        S += (t ^ sg) - sg;
    }
    int ec = cexp ? (int)cexp - 127 : -126;
    int64_t cm = cexp ? (int64_t)((cbits & 0x7fffff) | 0x800000) : (int64_t)(cbits & 0x7fffff);
    if (cbits >> 31)
        cm = -cm;
    int mx = emax > ec ? emax : ec;
    int k = 7 + emax - mx;                              /* Sp: 31 fraction bits */
    int64_t Sp = k >= 0 ? S * ((int64_t)1 << k) : floor_shr(S, -k);
    int kc = 1 + ec - mx;                               /* Cp: 24 fraction bits */
    int64_t Cp = kc >= 0 ? cm * ((int64_t)1 << kc) : floor_shr(cm, -kc);
    int64_t R = Sp + Cp * 128;
    /* R * 2^(mx-31): R exact in a double (|R| < 2^40), 2^(mx-31) a normal double
     * (mx >= -252), the product exact; one rounding to f32 (RNE) */
    uint64_t pb = (uint64_t)(1023 + mx - 31) << 52;
    double p2;
    memcpy(&p2, &pb, 8);
    float f = (float)((double)R * p2);
    memcpy(out, &f, 4);
    return 0;
}

/* One group: c (f32 bits) + products idx..; returns f32 bits. */
static uint32_t fused_group(const gcn_mfma_num *nm, const nval *a, const nval *b,
                            const int32_t *sc, size_t first, size_t n, uint32_t cbits)
{
    uint32_t fast;
    if (nm->alg == GCN_MA_FUSED && !sc && !fused_group_fast(a, b, first, n, cbits, &fast))
        return fast;
    nval c = decode(GCN_MT_F32, 0, cbits);
    /* special values (MMA-Sim: the f64 sum of the products and C is NaN or inf) */
    int nan = c.cls == CLS_NAN, pinf = 0, ninf = 0;
    if (c.cls == CLS_INF)
        *(c.neg ? &ninf : &pinf) = 1;
    for (size_t p = first; p < first + n; p++) {
        if (a[p].cls == CLS_NAN || b[p].cls == CLS_NAN || (sc && sc[p] == GCN_MFMA_SCALE_NAN))
            nan = 1;
        else if (a[p].cls == CLS_INF || b[p].cls == CLS_INF) {
            if ((a[p].cls == CLS_FIN && a[p].m == 0) || (b[p].cls == CLS_FIN && b[p].m == 0))
                nan = 1;
            else
                *((a[p].neg ^ b[p].neg) ? &ninf : &pinf) = 1;
        }
    }
    if (!nan && !pinf && !ninf) {
        /* finite: a product of magnitude >= 2^128 counts as infinite */
        for (size_t p = first; p < first + n; p++) {
            int64_t P = (int64_t)a[p].m * b[p].m;
            if (!P)
                continue;
            int lg = 63 - __builtin_clzll((unsigned long long)P);
            if (lg - a[p].fb - b[p].fb + a[p].e + b[p].e + (sc ? sc[p] : 0) >= 128)
                *((a[p].neg ^ b[p].neg) ? &ninf : &pinf) = 1;
        }
    }
    if (nan || (pinf && ninf))
        return 0x7fc00000u;
    if (pinf)
        return 0x7f800000u;
    if (ninf)
        return 0xff800000u;

    /* all products zero and no larger than C's exponent: the general path below gives
     * C unchanged (a zero C as +0); taken here for speed */
    int allzero = 1, ez = -100000;
    for (size_t p = first; p < first + n && allzero; p++) {
        allzero = a[p].m == 0 || b[p].m == 0;
        int e = a[p].e + b[p].e + (sc ? sc[p] : 0);
        ez = e > ez ? e : ez;
    }
    if (allzero && ez <= c.e)
        return c.m ? cbits : 0;

    size_t idx[64];
    int64_t S;
    int E;
    assert(n <= 64);
    if (nm->alg == GCN_MA_FUSED8) {
        size_t ne = 0, no = 0, ie[32], io[32];
        for (size_t q = 0; q < n; q++) {
            if (q % 2 == 0)
                ie[ne++] = first + q;
            else
                io[no++] = first + q;
        }
        int64_t S0 = 0, S1 = 0;
        int E0 = -100000, E1 = -100000;
        if (ne)
            fused_sum(a, b, sc, ie, ne, &S0, &E0);
        if (no)
            fused_sum(a, b, sc, io, no, &S1, &E1);
        if (!no) {
            S = S0;
            E = E0;
        } else {
            E = E0 > E1 ? E0 : E1;
            S = shift_floor(S0, E0 - E) + shift_floor(S1, E1 - E);
        }
    } else {
        for (size_t q = 0; q < n; q++)
            idx[q] = first + q;
        fused_sum(a, b, sc, idx, n, &S, &E);
    }
    int ec = c.e;
    int mx = E > ec ? E : ec;
    int64_t Sp = shift_floor(S, 7 + E - mx);            /* 31 fraction bits below 2^mx */
    int64_t Cp;                                          /* 24 fraction bits below 2^mx */
    if (nm->alg == GCN_MA_FUSED8 && ec < mx - 25)
        Cp = 0;
    else
        Cp = shift_floor(c.neg ? -(int64_t)c.m : (int64_t)c.m, 1 + ec - mx);
    int64_t R = Sp + Cp * 128;
    /* R * 2^(mx-31) is exact in a double (|R| < 2^40); one rounding to f32 (RNE) */
    double d = ldexp((double)R, mx - 31);
    return f32_bits((float)d);
}

void gcn_mfma_num_decode(const gcn_mfma_num *nm, int which, const uint32_t *bits, size_t n,
                         gcn_mfma_val *out)
{
    gcn_mfma_type t = which ? nm->tb : nm->ta;
    for (size_t p = 0; p < n; p++)
        out[p] = decode(t, nm->ocp, bits[p]);
}

uint32_t gcn_mfma_num_dot_vals(const gcn_mfma_num *nm, const gcn_mfma_val *a,
                               const gcn_mfma_val *b, size_t n, uint32_t c,
                               const int32_t *scale_exp)
{
    size_t g = nm->group < n ? nm->group : n;
    if (!g)
        return c;
    for (size_t first = 0; first < n; first += g)
        c = fused_group(nm, a, b, scale_exp, first, first + g <= n ? g : n - first, c);
    return c;
}

uint32_t gcn_mfma_num_dot(const gcn_mfma_num *nm, const uint32_t *a, const uint32_t *b,
                          size_t n, uint32_t c, const int32_t *scale_exp)
{
    if (nm->alg == GCN_MA_INT) {
        uint32_t acc = c;
        for (size_t p = 0; p < n; p++)
            acc += (uint32_t)((int32_t)(int8_t)a[p] * (int32_t)(int8_t)b[p]);
        return acc;
    }
    if (nm->alg == GCN_MA_FMA) {
        float acc;
        memcpy(&acc, &c, 4);
        for (size_t p = 0; p < n; p++) {
            float x, y;
            memcpy(&x, &a[p], 4);
            memcpy(&y, &b[p], 4);
            acc = fmaf(x, y, acc);
        }
        return f32_bits(acc);
    }
    nval av[256], bv[256];
    assert(n <= 256);
    gcn_mfma_num_decode(nm, 0, a, n, av);
    gcn_mfma_num_decode(nm, 1, b, n, bv);
    return gcn_mfma_num_dot_vals(nm, av, bv, n, c, scale_exp);
}

uint64_t gcn_mfma_num_dot64(const uint64_t *a, const uint64_t *b, size_t n, uint64_t c)
{
    double acc;
    memcpy(&acc, &c, 8);
    for (size_t p = 0; p < n; p++) {
        double x, y;
        memcpy(&x, &a[p], 8);
        memcpy(&y, &b[p], 8);
        acc = fma(x, y, acc);
    }
    uint64_t u;
    memcpy(&u, &acc, 8);
    return u;
}

void gcn_mfma_ref_tile(const gcn_mfma_num *nm, unsigned m, unsigned n, unsigned k,
                       const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D)
{
    uint32_t a[256], b[256];
    assert(k <= 256);
    for (unsigned i = 0; i < m; i++) {
        for (unsigned j = 0; j < n; j++) {
            for (unsigned p = 0; p < k; p++) {
                a[p] = A[i * k + p];
                b[p] = B[p * n + j];
            }
            D[i * n + j] = gcn_mfma_num_dot(nm, a, b, k, C[i * n + j], NULL);
        }
    }
}

static void ref16(gcn_mfma_type t, int gfx950, unsigned m, unsigned n, unsigned k,
                  const uint16_t *A, const uint16_t *B, const float *C, float *D)
{
    gcn_mfma_num nm;
    gcn_mfma_num_init(&nm, t, t, GCN_MT_F32, gfx950);
    uint32_t a[64], b[64];
    assert(k <= 64);
    for (unsigned i = 0; i < m; i++) {
        for (unsigned j = 0; j < n; j++) {
            for (unsigned p = 0; p < k; p++) {
                a[p] = A[i * k + p];
                b[p] = B[p * n + j];
            }
            uint32_t c = f32_bits(C[i * n + j]);
            uint32_t d = gcn_mfma_num_dot(&nm, a, b, k, c, NULL);
            memcpy(&D[i * n + j], &d, 4);
        }
    }
}

void gcn_mfma_ref_bf16_32x32x8(const uint16_t *A, const uint16_t *B, const float *C, float *D)
{
    ref16(GCN_MT_BF16, 0, 32, 32, 8, A, B, C, D);
}

void gcn_mfma_ref_f16_32x32x8(const uint16_t *A, const uint16_t *B, const float *C, float *D)
{
    ref16(GCN_MT_F16, 0, 32, 32, 8, A, B, C, D);
}

void gcn_mfma_ref_bf16_16x16x32(const uint16_t *A, const uint16_t *B, const float *C, float *D)
{
    ref16(GCN_MT_BF16, 1, 16, 16, 32, A, B, C, D);
}

void gcn_mfma_ref_f16_16x16x32(const uint16_t *A, const uint16_t *B, const float *C, float *D)
{
    ref16(GCN_MT_F16, 1, 16, 16, 32, A, B, C, D);
}
