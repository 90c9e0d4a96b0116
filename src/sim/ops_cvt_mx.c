/*
 * ops_cvt_mx.c -- the gfx950 scaled microscaling conversions
 * (V_CVT_SCALEF32_*): FP8/BF8 (OCP E4M3FN/E5M2), FP6/BF6 (E2M3/E3M2) and FP4
 * (E2M1) to and from f32/f16/bf16, one value, packed pairs and packed 32s,
 * round-to-nearest-even and stochastic-rounding (SR) forms.  All 49 rows run
 * four parameterised routines over the codec of mxfp.c.
 *
 * Semantics (AMD CDNA4 ISA reference, "VOP3A & VOP3B Instructions",
 * V_CVT_SCALEF32_*, and section 7.3 "BF8 / FP8 and Smaller Formats and
 * Conversions"):
 * - scale = exponent field of the scale operand's f32 bits (an E8M0 value,
 *   bias 127: 2^(e-127); "the float exponent portion is used", so neg/abs do
 *   not matter).  Down-conversions divide by it before converting,
 *   up-conversions multiply after decoding.  Assumption: e = 255 is used as
 *   the power 2^128 (the ISA does not say; OCP MX calls that scale NaN).
 * - FP4/FP6 results saturate to the signed largest magnitude, values below
 *   the smallest subnormal after rounding become zero.  FP8/BF8 results
 *   follow MODE.FP16_OVFL (bit 23): set, out-of-range and infinite values
 *   saturate; clear, they give NaN (E4M3) or infinity (E5M2) (CDNA4 "FP16_OVFL
 *   rule").  NaN inputs give the FP8 NaN; FP4/FP6 have no NaN: assumption,
 *   the signed largest magnitude.
 * - SR forms: the random value is S1; the second and later elements of a
 *   packed SR conversion use v_prng_b32 of the previous random value.
 * - Operand selection: OPSEL[3] picks the destination half of 16-bit results,
 *   OPSEL[3:2] the destination byte of 8-bit results, OPSEL[0] the source word
 *   of packed FP8 inputs, OPSEL[1:0] the source byte of FP4 and single FP8
 *   inputs, OPSEL[0] the source half of a single f16/bf16 SR input; the other
 *   destination bits are preserved.
 * - Up-conversion outputs are exact or rounded to nearest even, denormals
 *   kept (F4/F6/F8 "allow denorms regardless of MODE"); f32 inputs honour the
 *   MODE f32 input-denormal flush; f16/bf16 inputs are never flushed.
 */
#include "valu_int.h"
#include "mxfp.h"

enum { SK_F32, SK_F16, SK_BF16 };            /* wide side of the conversion */

static inline uint32_t prng(uint32_t r) { return (r << 1) ^ ((r >> 31) ? 197u : 0u); }

static inline double scale_of(uint32_t s) { return ldexp(1.0, (int)((s >> 23) & 0xff) - 127); }

/* f16/bf16 half h of v with the operand's neg/abs applied */
static inline double half_val(const sim_x *x, unsigned k, uint32_t v, int hi, int kind)
{
    uint16_t h = (uint16_t)(hi ? v >> 16 : v);
    unsigned m = x->i->s[k].mods;
    if (m & OM_ABS) h &= 0x7fff;
    if (m & OM_NEG) h ^= 0x8000;
    return kind == SK_F16 ? (double)fp_h2f(h) : (double)fp_bf2f(h);
}

static inline uint32_t wide_code(double v, int kind)
{
    if (kind == SK_F32)
        return isnan(v) ? QNAN32 : f2u((float)v);      /* exact or RNE (host mode) */
    if (isnan(v))
        return kind == SK_F16 ? QNAN16 : 0x7fc0;
    return gcn_mx_encode(v, kind == SK_F16 ? &GCN_MX_F16 : &GCN_MX_BF16, 0, 0, 0);
}

static inline int ovfl_sat(const sim_x *x, const gcn_mxfmt *F)
{
    return F->kind == MX_FINITE || (x->w->hw_mode >> 23 & 1);
}

static inline void put(sim_x *x, unsigned k, unsigned l, uint32_t v)
{
    x->w->v[x->i->d.r + k][l] = v;
}
static inline uint32_t insert(uint32_t old, uint32_t v, unsigned sh, unsigned bits)
{
    uint32_t m = (bits == 32 ? ~0u : (1u << bits) - 1) << sh;
    return (old & ~m) | (v << sh & m);
}

/* Down-conversion of two (or one, sr=1 on an 8-bit format) elements into a
 * byte / half of the destination.  kind: wide source type.  sr: the form has a
 * random operand S1 and the scale in S2. */
static void down_small(sim_x *x, const gcn_mxfmt *F, int kind, int sr, int npk)
{
    const sim_insn *i = x->i;
    const sim_opnd *D = &i->d;
    if (D->kind != OK_V)
        return;
    unsigned ksc = (kind == SK_F32 && !sr && npk == 2) || sr ? 2 : 1;
    const uint32_t *A = kind == SK_F32 && !(sr && npk == 2) ? sim_vsrc_f32(x, 0) : sim_vsrc(x, 0);
    const uint32_t *Bv = kind == SK_F32 && !sr && npk == 2 ? sim_vsrc_f32(x, 1) : NULL;
    const uint32_t *Rn = sr ? sim_vsrc(x, 1) : NULL;
    const uint32_t *Sc = sim_vsrc(x, ksc);
    unsigned ebits = 1u + F->ebits + F->mbits;          /* 8 or 4 */
    unsigned width = ebits * (unsigned)npk;             /* 16 or 8 bits written */
    unsigned sh = width == 16 ? 16u * (i->mods.op_sel >> 3 & 1) : 8u * (i->mods.op_sel >> 2 & 3);
    int sat = ovfl_sat(x, F);
    int fl = (i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 4 & 1);
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->wmask >> l & 1))
            continue;
        double sc = scale_of(Sc[l]), v[2];
        if (kind == SK_F32 && sr && npk == 2) {        /* S0 is a 64-bit pair of f32 */
            for (int e = 0; e < 2; e++) {
                uint32_t u = rv32(x, &i->s[0], l, (unsigned)e);
                if (fl) u = f32_flush(u);
                if (i->s[0].mods & OM_ABS) u &= 0x7fffffffu;
                if (i->s[0].mods & OM_NEG) u ^= 0x80000000u;
                v[e] = u2f(u);
            }
        } else if (kind == SK_F32) {
            v[0] = u2f(A[l]);
            v[1] = Bv ? u2f(Bv[l]) : 0.0;
        } else if (npk == 2) {
            v[0] = half_val(x, 0, A[l], 0, kind);
            v[1] = half_val(x, 0, A[l], 1, kind);
        } else {
            v[0] = half_val(x, 0, A[l], i->mods.op_sel & 1, kind);
        }
        uint32_t rnd = Rn ? Rn[l] : 0, r = 0;
        for (int e = 0; e < npk; e++) {
            r |= gcn_mx_encode(v[e] / sc, F, sr, rnd, sat) << (ebits * (unsigned)e);
            rnd = prng(rnd);
        }
        put(x, 0, l, insert(x->w->v[D->r][l], r, sh, width));
    }
}

/* Up-conversion of one or two elements of an 8/4-bit format to f32/f16/bf16.
 * npk 1: an FP8 byte (OPSEL[1:0]); npk 2: an FP8 word (OPSEL[0]) or an FP4
 * byte (OPSEL[1:0]). */
static void up_small(sim_x *x, const gcn_mxfmt *F, int kind, int npk)
{
    const sim_insn *i = x->i;
    if (i->d.kind != OK_V)
        return;
    const uint32_t *A = sim_vsrc(x, 0), *Sc = sim_vsrc(x, 1);
    unsigned eb = 1u + F->ebits + F->mbits, os = i->mods.op_sel;
    unsigned sh = (npk == 2 && eb == 8) ? 16u * (os & 1) : 8u * (os & 3);
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->wmask >> l & 1))
            continue;
        double sc = scale_of(Sc[l]);
        uint32_t src = A[l] >> sh, c[2];
        for (int e = 0; e < npk; e++)
            c[e] = wide_code(gcn_mx_decode(src >> (eb * (unsigned)e), F) * sc, kind);
        if (kind == SK_F32) {
            put(x, 0, l, c[0]);
            if (npk == 2)
                put(x, 1, l, c[1]);
        } else if (npk == 2) {
            put(x, 0, l, c[0] | c[1] << 16);
        } else {                                         /* 16 bits at half OPSEL[3] */
            put(x, 0, l, insert(x->w->v[i->d.r][l], c[0], 16u * (os >> 3 & 1), 16));
        }
    }
}

/* 32 elements to a packed 192-bit FP6/BF6 destination.  mode 0: S0 holds
 * the 32 values (f32: 32 registers; f16/bf16: 16), scale S1; mode 1 (SR): the
 * same with random S1, scale S2; mode 2 (2XPK16): S0 and S1 hold 16 f32 each,
 * interleaved in the result, scale S2. */
static void down_pk32(sim_x *x, const gcn_mxfmt *F, int kind, int mode)
{
    const sim_insn *i = x->i;
    if (i->d.kind != OK_V)
        return;
    const uint32_t *Sc = sim_vsrc(x, mode ? 2 : 1), *Rn = mode == 1 ? sim_vsrc(x, 1) : NULL;
    int sat = ovfl_sat(x, F);
    int fl = kind == SK_F32 && (i->flags & GCN_F_RD_MODE) && !(x->w->hw_mode >> 4 & 1);
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->wmask >> l & 1))
            continue;
        double sc = scale_of(Sc[l]);
        uint32_t rnd = Rn ? Rn[l] : 0, out[6] = {0};
        for (unsigned e = 0; e < 32; e++) {
            double v;
            if (kind == SK_F32) {
                unsigned k = mode == 2 ? e >> 1 : e;
                const sim_opnd *o = &i->s[mode == 2 ? (e & 1) : 0];
                uint32_t u = rv32(x, o, l, k);
                if (fl) u = f32_flush(u);
                if (o->mods & OM_ABS) u &= 0x7fffffffu;
                if (o->mods & OM_NEG) u ^= 0x80000000u;
                v = u2f(u);
            } else {
                v = half_val(x, 0, rv32(x, &i->s[0], l, e >> 1), e & 1, kind);
            }
            uint64_t c = gcn_mx_encode(v / sc, F, mode == 1, rnd, sat);
            if (mode == 1)
                rnd = prng(rnd);
            unsigned bit = 6 * e;
            out[bit / 32] |= (uint32_t)(c << (bit % 32));
            if (bit % 32 > 26)
                out[bit / 32 + 1] |= (uint32_t)(c >> (32 - bit % 32));
        }
        for (unsigned k = 0; k < 6; k++)
            put(x, k, l, out[k]);
    }
}

/* 32 packed FP6/BF6 elements (S0: 6 registers) to f32 (32 registers) or
 * f16/bf16 (16 registers), scale S1. */
static void up_pk32(sim_x *x, const gcn_mxfmt *F, int kind)
{
    const sim_insn *i = x->i;
    if (i->d.kind != OK_V)
        return;
    const uint32_t *Sc = sim_vsrc(x, 1);
    for (unsigned l = 0; l < NL; l++) {
        if (!(x->wmask >> l & 1))
            continue;
        double sc = scale_of(Sc[l]);
        uint32_t in[7], out[32];
        for (unsigned k = 0; k < 6; k++)
            in[k] = rv32(x, &i->s[0], l, k);
        in[6] = 0;
        for (unsigned e = 0; e < 32; e++) {
            unsigned bit = 6 * e;
            uint64_t w = (uint64_t)in[bit / 32] | (uint64_t)in[bit / 32 + 1] << 32;
            uint32_t c = wide_code(gcn_mx_decode((uint32_t)(w >> (bit % 32)) & 63, F) * sc, kind);
            if (kind == SK_F32)
                out[e] = c;
            else if (e & 1)
                out[e >> 1] |= c << 16;
            else
                out[e >> 1] = c;
        }
        for (unsigned k = 0; k < (kind == SK_F32 ? 32u : 16u); k++)
            put(x, k, l, out[k]);
    }
}

#define FP8 (&GCN_MX_E4M3FN)
#define BF8 (&GCN_MX_E5M2)
#define FP6 (&GCN_MX_E2M3)
#define BF6 (&GCN_MX_E3M2)
#define FP4 (&GCN_MX_E2M1)
#define CV(ID, CALL) BODY(ID) { CALL; }
/* f32/f16/bf16 -> 8/4-bit */
CV(V_CVT_SCALEF32_PK_FP8_F32, down_small(x, FP8, SK_F32, 0, 2))
CV(V_CVT_SCALEF32_PK_BF8_F32, down_small(x, BF8, SK_F32, 0, 2))
CV(V_CVT_SCALEF32_PK_FP8_F16, down_small(x, FP8, SK_F16, 0, 2))
CV(V_CVT_SCALEF32_PK_BF8_F16, down_small(x, BF8, SK_F16, 0, 2))
CV(V_CVT_SCALEF32_PK_FP8_BF16, down_small(x, FP8, SK_BF16, 0, 2))
CV(V_CVT_SCALEF32_PK_BF8_BF16, down_small(x, BF8, SK_BF16, 0, 2))
CV(V_CVT_SCALEF32_SR_FP8_F32, down_small(x, FP8, SK_F32, 1, 1))
CV(V_CVT_SCALEF32_SR_BF8_F32, down_small(x, BF8, SK_F32, 1, 1))
CV(V_CVT_SCALEF32_SR_FP8_F16, down_small(x, FP8, SK_F16, 1, 1))
CV(V_CVT_SCALEF32_SR_BF8_F16, down_small(x, BF8, SK_F16, 1, 1))
CV(V_CVT_SCALEF32_SR_FP8_BF16, down_small(x, FP8, SK_BF16, 1, 1))
CV(V_CVT_SCALEF32_SR_BF8_BF16, down_small(x, BF8, SK_BF16, 1, 1))
CV(V_CVT_SCALEF32_PK_FP4_F32, down_small(x, FP4, SK_F32, 0, 2))
CV(V_CVT_SCALEF32_PK_FP4_F16, down_small(x, FP4, SK_F16, 0, 2))
CV(V_CVT_SCALEF32_PK_FP4_BF16, down_small(x, FP4, SK_BF16, 0, 2))
CV(V_CVT_SCALEF32_SR_PK_FP4_F32, down_small(x, FP4, SK_F32, 1, 2))
CV(V_CVT_SCALEF32_SR_PK_FP4_F16, down_small(x, FP4, SK_F16, 1, 2))
CV(V_CVT_SCALEF32_SR_PK_FP4_BF16, down_small(x, FP4, SK_BF16, 1, 2))
/* 8/4-bit -> f32/f16/bf16 */
CV(V_CVT_SCALEF32_F32_FP8, up_small(x, FP8, SK_F32, 1))
CV(V_CVT_SCALEF32_F32_BF8, up_small(x, BF8, SK_F32, 1))
CV(V_CVT_SCALEF32_F16_FP8, up_small(x, FP8, SK_F16, 1))
CV(V_CVT_SCALEF32_F16_BF8, up_small(x, BF8, SK_F16, 1))
CV(V_CVT_SCALEF32_PK_F32_FP8, up_small(x, FP8, SK_F32, 2))
CV(V_CVT_SCALEF32_PK_F32_BF8, up_small(x, BF8, SK_F32, 2))
CV(V_CVT_SCALEF32_PK_F16_FP8, up_small(x, FP8, SK_F16, 2))
CV(V_CVT_SCALEF32_PK_F16_BF8, up_small(x, BF8, SK_F16, 2))
CV(V_CVT_SCALEF32_PK_BF16_FP8, up_small(x, FP8, SK_BF16, 2))
CV(V_CVT_SCALEF32_PK_BF16_BF8, up_small(x, BF8, SK_BF16, 2))
CV(V_CVT_SCALEF32_PK_F32_FP4, up_small(x, FP4, SK_F32, 2))
CV(V_CVT_SCALEF32_PK_F16_FP4, up_small(x, FP4, SK_F16, 2))
CV(V_CVT_SCALEF32_PK_BF16_FP4, up_small(x, FP4, SK_BF16, 2))
/* 32 x FP6/BF6 */
CV(V_CVT_SCALEF32_2XPK16_FP6_F32, down_pk32(x, FP6, SK_F32, 2))
CV(V_CVT_SCALEF32_2XPK16_BF6_F32, down_pk32(x, BF6, SK_F32, 2))
CV(V_CVT_SCALEF32_SR_PK32_FP6_F32, down_pk32(x, FP6, SK_F32, 1))
CV(V_CVT_SCALEF32_SR_PK32_BF6_F32, down_pk32(x, BF6, SK_F32, 1))
CV(V_CVT_SCALEF32_PK32_FP6_F16, down_pk32(x, FP6, SK_F16, 0))
CV(V_CVT_SCALEF32_PK32_FP6_BF16, down_pk32(x, FP6, SK_BF16, 0))
CV(V_CVT_SCALEF32_PK32_BF6_F16, down_pk32(x, BF6, SK_F16, 0))
CV(V_CVT_SCALEF32_PK32_BF6_BF16, down_pk32(x, BF6, SK_BF16, 0))
CV(V_CVT_SCALEF32_SR_PK32_FP6_F16, down_pk32(x, FP6, SK_F16, 1))
CV(V_CVT_SCALEF32_SR_PK32_FP6_BF16, down_pk32(x, FP6, SK_BF16, 1))
CV(V_CVT_SCALEF32_SR_PK32_BF6_F16, down_pk32(x, BF6, SK_F16, 1))
CV(V_CVT_SCALEF32_SR_PK32_BF6_BF16, down_pk32(x, BF6, SK_BF16, 1))
CV(V_CVT_SCALEF32_PK32_F32_FP6, up_pk32(x, FP6, SK_F32))
CV(V_CVT_SCALEF32_PK32_F32_BF6, up_pk32(x, BF6, SK_F32))
CV(V_CVT_SCALEF32_PK32_F16_FP6, up_pk32(x, FP6, SK_F16))
CV(V_CVT_SCALEF32_PK32_BF16_FP6, up_pk32(x, FP6, SK_BF16))
CV(V_CVT_SCALEF32_PK32_F16_BF6, up_pk32(x, BF6, SK_F16))
CV(V_CVT_SCALEF32_PK32_BF16_BF6, up_pk32(x, BF6, SK_BF16))

const sim_body_ent sim_bodies_cvtmx[] = {
    B(V_CVT_SCALEF32_PK_FP8_F32), B(V_CVT_SCALEF32_PK_BF8_F32), B(V_CVT_SCALEF32_PK_FP8_F16),
    B(V_CVT_SCALEF32_PK_BF8_F16), B(V_CVT_SCALEF32_PK_FP8_BF16), B(V_CVT_SCALEF32_PK_BF8_BF16),
    B(V_CVT_SCALEF32_SR_FP8_F32), B(V_CVT_SCALEF32_SR_BF8_F32), B(V_CVT_SCALEF32_SR_FP8_F16),
    B(V_CVT_SCALEF32_SR_BF8_F16), B(V_CVT_SCALEF32_SR_FP8_BF16), B(V_CVT_SCALEF32_SR_BF8_BF16),
    B(V_CVT_SCALEF32_PK_FP4_F32), B(V_CVT_SCALEF32_PK_FP4_F16), B(V_CVT_SCALEF32_PK_FP4_BF16),
    B(V_CVT_SCALEF32_SR_PK_FP4_F32), B(V_CVT_SCALEF32_SR_PK_FP4_F16),
    B(V_CVT_SCALEF32_SR_PK_FP4_BF16),
    B(V_CVT_SCALEF32_F32_FP8), B(V_CVT_SCALEF32_F32_BF8), B(V_CVT_SCALEF32_F16_FP8),
    B(V_CVT_SCALEF32_F16_BF8), B(V_CVT_SCALEF32_PK_F32_FP8), B(V_CVT_SCALEF32_PK_F32_BF8),
    B(V_CVT_SCALEF32_PK_F16_FP8), B(V_CVT_SCALEF32_PK_F16_BF8), B(V_CVT_SCALEF32_PK_BF16_FP8),
    B(V_CVT_SCALEF32_PK_BF16_BF8), B(V_CVT_SCALEF32_PK_F32_FP4), B(V_CVT_SCALEF32_PK_F16_FP4),
    B(V_CVT_SCALEF32_PK_BF16_FP4),
    B(V_CVT_SCALEF32_2XPK16_FP6_F32), B(V_CVT_SCALEF32_2XPK16_BF6_F32),
    B(V_CVT_SCALEF32_SR_PK32_FP6_F32), B(V_CVT_SCALEF32_SR_PK32_BF6_F32),
    B(V_CVT_SCALEF32_PK32_FP6_F16), B(V_CVT_SCALEF32_PK32_FP6_BF16),
    B(V_CVT_SCALEF32_PK32_BF6_F16), B(V_CVT_SCALEF32_PK32_BF6_BF16),
    B(V_CVT_SCALEF32_SR_PK32_FP6_F16), B(V_CVT_SCALEF32_SR_PK32_FP6_BF16),
    B(V_CVT_SCALEF32_SR_PK32_BF6_F16), B(V_CVT_SCALEF32_SR_PK32_BF6_BF16),
    B(V_CVT_SCALEF32_PK32_F32_FP6), B(V_CVT_SCALEF32_PK32_F32_BF6),
    B(V_CVT_SCALEF32_PK32_F16_FP6), B(V_CVT_SCALEF32_PK32_BF16_FP6),
    B(V_CVT_SCALEF32_PK32_F16_BF6), B(V_CVT_SCALEF32_PK32_BF16_BF6),
    {NULL, NULL, 0}
};
