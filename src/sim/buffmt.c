/*
 * buffmt.c -- typed buffer data formats (buffer_*_format_*, tbuffer_*):
 * element layouts and the conversions between memory and VGPRs.
 *
 * DATA_FORMAT (4 bits) and NUM_FORMAT (3 bits) are encoded as in LLVM's
 * SIDefines.h (MTBUFFormat::DFMT_*, NFMT_*) and named as AMDGPUAsmUtils.cpp
 * DfmtSymbolic / NfmtSymbolicGFX9 print them.  A format name lists its
 * components from the most significant bits down, x in the lowest bits
 * (e.g. 2_10_10_10 is x[9:0] y[19:10] z[29:20] w[31:30], the R10G10B10A2
 * of Mesa's radeonsi/radv format tables).  The (data, numeric) pairs that
 * exist are those of LLVM's unified-format list (AMDGPU::UfmtGFX10/GFX11
 * in SIDefines.h: 8/16/8_8/16_16/8_8_8_8/16_16_16_16 with UNORM, SNORM,
 * USCALED, SSCALED, UINT, SINT, and FLOAT for the 16-bit ones; 32... with
 * UINT, SINT, FLOAT; 10_11_11 and 11_11_10 FLOAT; 10_10_10_2 UNORM, SNORM,
 * UINT, SINT; 2_10_10_10 all six integer kinds).
 *
 * Conversions (AMD GCN3/Vega/CDNA3 ISA "Data format" / "Numeric format",
 * with the rounding the ISA leaves open stated here as modelling
 * assumptions, see docs/gcnsim.md):
 *   load:  UNORM u / (2^n - 1); SNORM max(s / (2^(n-1) - 1), -1); USCALED /
 *          SSCALED the integer as a float; UINT / SINT zero / sign extended;
 *          FLOAT 16-bit half, 11- and 10-bit unsigned floats (5-bit exponent,
 *          6 / 5 mantissa bits), 32-bit as is; all results correctly
 *          rounded.  Components a format does not store read 0 (x, y, z)
 *          and 1 (w: 1.0 for float kinds, integer 1 for UINT/SINT).
 *          d16: float kinds rounded to f16 (nearest even), UINT/SINT the
 *          low 16 bits.
 *   store: UNORM / SNORM clamp to [0, 1] / [-1, 1] (NaN -> 0) and round to
 *          nearest even; USCALED / SSCALED and UINT / SINT clamp to the
 *          field's range (scaled: rounded to nearest even); FLOAT rounds to
 *          nearest even, negative values of the unsigned 10/11-bit floats
 *          store 0.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "buffmt.h"
#include "sim_body.h"
#include "fp.h"

static const char *const dfmt_name[16] = {
    "INVALID", "8", "16", "8_8", "32", "16_16", "10_11_11", "11_11_10", "10_10_10_2",
    "2_10_10_10", "8_8_8_8", "32_32", "16_16_16_16", "32_32_32", "32_32_32_32", "RESERVED_15"};
static const char *const nfmt_name[8] = {"UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT",
                                         "RESERVED_6", "FLOAT"};

/* per data format: components, bytes, widths (x..w) */
static const struct { uint8_t nc, bytes, w[4]; } dfmt_tab[16] = {
    [1] = {1, 1, {8}},           [2] = {1, 2, {16}},          [3] = {2, 2, {8, 8}},
    [4] = {1, 4, {32}},          [5] = {2, 4, {16, 16}},      [6] = {3, 4, {11, 11, 10}},
    [7] = {3, 4, {10, 11, 11}},  [8] = {4, 4, {2, 10, 10, 10}}, [9] = {4, 4, {10, 10, 10, 2}},
    [10] = {4, 4, {8, 8, 8, 8}}, [11] = {2, 8, {32, 32}},     [12] = {4, 8, {16, 16, 16, 16}},
    [13] = {3, 12, {32, 32, 32}}, [14] = {4, 16, {32, 32, 32, 32}},
};

int sim_bfmt_get(unsigned dfmt, unsigned nfmt, sim_bfmt *f, char *msg, unsigned msglen)
{
    dfmt &= 15;
    nfmt &= 7;
    memset(f, 0, sizeof *f);
    int ok = dfmt_tab[dfmt].nc != 0 && nfmt != BNF_RSVD6;
    if (ok) {
        int intk = nfmt <= BNF_SINT;             /* UNORM..SINT */
        int normk = nfmt <= BNF_SSCALED;
        switch (dfmt) {
        case 1: case 3: case 10: ok = intk; break;                  /* 8-bit */
        case 2: case 5: case 12: ok = 1; break;                     /* 16-bit */
        case 4: case 11: case 13: case 14: ok = !normk; break;      /* 32-bit */
        case 6: case 7: ok = nfmt == BNF_FLOAT; break;
        case 8: ok = nfmt == BNF_UNORM || nfmt == BNF_SNORM || nfmt == BNF_UINT || nfmt == BNF_SINT;
                break;
        case 9: ok = intk; break;
        default: ok = 0;
        }
    }
    if (!ok) {
        if (msg)
            snprintf(msg, msglen, "buffer format [BUF_DATA_FORMAT_%s, BUF_NUM_FORMAT_%s] is not a "
                     "buffer data format", dfmt_name[dfmt], nfmt_name[nfmt]);
        return -1;
    }
    f->dfmt = (uint8_t)dfmt;
    f->nfmt = (uint8_t)nfmt;
    f->nc = dfmt_tab[dfmt].nc;
    f->bytes = dfmt_tab[dfmt].bytes;
    unsigned sh = 0;
    for (unsigned k = 0; k < f->nc; k++) {
        f->w[k] = dfmt_tab[dfmt].w[k];
        f->sh[k] = (uint8_t)sh;
        sh += f->w[k];
    }
    return 0;
}

/* round a non-negative double to the nearest integer, ties to even,
 * independent of the host rounding mode */
static double rne(double q)
{
    double r = floor(q), fr = q - r;
    if (fr > 0.5 || (fr == 0.5 && fmod(r, 2.0) != 0.0))
        r += 1.0;
    return r;
}

/* A float with a 5-bit exponent (bias 15) and mb mantissa bits, optionally
 * signed (f16: mb 10, signed; the unsigned 11/10-bit floats: mb 6/5), from a
 * double, rounded to nearest even; NaN -> a quiet NaN, unsigned negatives 0. */
static uint32_t enc_f5(double v, unsigned mb, int has_sign)
{
    uint32_t s = 0;
    if (isnan(v))
        return 31u << mb | 1u << (mb - 1);
    if (v < 0 || (v == 0 && signbit(v))) {
        if (!has_sign)
            return 0;
        s = 1u << (5 + mb);
        v = -v;
    }
    if (isinf(v))
        return s | 31u << mb;
    if (v == 0)
        return s;
    int e;
    (void)frexp(v, &e);
    int E = e - 1;                      /* v = 1.m * 2^E */
    if (E < -14)
        E = -14;                        /* denormal scale */
    double r = rne(ldexp(v, (int)mb - E));
    if (r >= ldexp(1.0, (int)mb + 1)) { /* rounding carried into the exponent */
        r = ldexp(r, -1);
        E++;
    }
    uint32_t ri = (uint32_t)r;
    if (ri < (1u << mb))                /* denormal (E == -14) */
        return s | ri;
    if (E > 15)
        return s | 31u << mb;           /* overflow: infinity */
    return s | (uint32_t)(E + 15) << mb | (ri - (1u << mb));
}

/* unsigned 5-bit-exponent float of mb mantissa bits -> f32 bits, f16 bits */
static uint32_t dec_uf32(uint32_t r, unsigned mb)
{
    uint32_t e = r >> mb, m = r & ((1u << mb) - 1);
    if (e == 0)
        return fp_f2u(ldexpf((float)m, -14 - (int)mb));
    if (e == 31)
        return 0x7f800000u | m << (23 - mb);
    return (e + 112) << 23 | m << (23 - mb);
}
static uint32_t dec_uf16(uint32_t r, unsigned mb)
{
    uint32_t e = r >> mb, m = r & ((1u << mb) - 1);
    return e << 10 | m << (10 - mb);
}

static int float_kind(unsigned nfmt) { return nfmt != BNF_UINT && nfmt != BNF_SINT; }

uint32_t sim_bfmt_one(const sim_bfmt *f, int d16)
{
    if (!float_kind(f->nfmt))
        return 1;
    return d16 ? 0x3c00u : 0x3f800000u;
}

/* one component's raw bits r (width w) -> VGPR value */
static uint32_t cvt_load(unsigned nfmt, unsigned w, uint32_t r, int d16)
{
    int32_t s = w >= 32 ? (int32_t)r : (int32_t)(r << (32 - w)) >> (32 - w);
    double v;
    switch (nfmt) {
    case BNF_UNORM: v = (double)r / (double)((1u << w) - 1); break;
    case BNF_SNORM:
        v = (double)s / (double)((1u << (w - 1)) - 1);
        if (v < -1.0)
            v = -1.0;
        break;
    case BNF_USCALED: v = (double)r; break;
    case BNF_SSCALED: v = (double)s; break;
    case BNF_UINT: return d16 ? r & 0xffff : r;
    case BNF_SINT: return d16 ? (uint32_t)s & 0xffff : (uint32_t)s;
    default:                                   /* FLOAT */
        if (w == 32)
            return d16 ? fp_f2h(fp_u2f(r), RM_NE) : r;
        if (w == 16)
            return d16 ? r : fp_f2u(fp_h2f((uint16_t)r));
        return d16 ? dec_uf16(r, w - 5) : dec_uf32(r, w - 5);
    }
    /* exact in double for these widths (<= 16 bits); one rounding to the result */
    return d16 ? enc_f5(v, 10, 1) : fp_f2u((float)v);
}

void sim_bfmt_load(const sim_bfmt *f, const uint8_t *mem, int d16, uint32_t out[4])
{
    uint32_t one = sim_bfmt_one(f, d16);
    out[0] = out[1] = out[2] = 0;
    out[3] = one;
    if (f->w[0] == 32) {
        for (unsigned k = 0; k < f->nc; k++) {
            uint32_t r;
            memcpy(&r, mem + 4 * k, 4);
            out[k] = cvt_load(f->nfmt, 32, r, d16);
        }
        return;
    }
    uint64_t e = 0;
    memcpy(&e, mem, f->bytes);
    for (unsigned k = 0; k < f->nc; k++) {
        uint32_t r = (uint32_t)(e >> f->sh[k]) & (uint32_t)((1ull << f->w[k]) - 1);
        out[k] = cvt_load(f->nfmt, f->w[k], r, d16);
    }
}

/* one VGPR value -> a component's raw bits (width w) */
static uint32_t cvt_store(unsigned nfmt, unsigned w, uint32_t v, int d16)
{
    uint64_t umax = w >= 32 ? 0xffffffffull : (1ull << w) - 1;
    int64_t smax = (int64_t)(umax >> 1), smin = -smax - 1;
    uint32_t mask = (uint32_t)umax;
    if (nfmt == BNF_UINT) {
        uint64_t u = d16 ? (v & 0xffff) : v;
        return (uint32_t)(u > umax ? umax : u);
    }
    if (nfmt == BNF_SINT) {
        int64_t s = d16 ? (int16_t)v : (int32_t)v;
        s = s > smax ? smax : s < smin ? smin : s;
        return (uint32_t)s & mask;
    }
    double x = d16 ? (double)fp_h2f((uint16_t)v) : (double)fp_u2f(v);
    switch (nfmt) {
    case BNF_UNORM:
        if (isnan(x) || x < 0) x = 0;
        if (x > 1) x = 1;
        return (uint32_t)rne(x * (double)umax);
    case BNF_SNORM: {
        if (isnan(x)) x = 0;
        x = x < -1 ? -1 : x > 1 ? 1 : x;
        double q = x * (double)smax;
        int64_t r = q < 0 ? -(int64_t)rne(-q) : (int64_t)rne(q);
        return (uint32_t)r & mask;
    }
    case BNF_USCALED:
        if (isnan(x) || x < 0) x = 0;
        if (x > (double)umax) x = (double)umax;
        return (uint32_t)rne(x);
    case BNF_SSCALED: {
        if (isnan(x)) x = 0;
        x = x < (double)smin ? (double)smin : x > (double)smax ? (double)smax : x;
        int64_t r = x < 0 ? -(int64_t)rne(-x) : (int64_t)rne(x);
        return (uint32_t)r & mask;
    }
    default:                                   /* FLOAT */
        if (w == 32)
            return d16 ? fp_f2u(fp_h2f((uint16_t)v)) : v;
        if (w == 16)
            return d16 ? (v & 0xffff) : fp_f2h(fp_u2f(v), RM_NE);
        return enc_f5(x, w - 5, 0);
    }
}

void sim_bfmt_store(const sim_bfmt *f, const uint32_t *in, unsigned n, int d16, uint8_t *mem)
{
    if (n > f->nc)
        n = f->nc;
    if (f->w[0] == 32) {
        for (unsigned k = 0; k < n; k++) {
            uint32_t r = cvt_store(f->nfmt, 32, in[k], d16);
            memcpy(mem + 4 * k, &r, 4);
        }
        return;
    }
    uint64_t e = 0;
    memcpy(&e, mem, f->bytes);
    for (unsigned k = 0; k < n; k++) {
        uint64_t m = ((1ull << f->w[k]) - 1) << f->sh[k];
        uint64_t r = cvt_store(f->nfmt, f->w[k], in[k], d16);
        e = (e & ~m) | ((r << f->sh[k]) & m);
    }
    memcpy(mem, &e, f->bytes);
}
