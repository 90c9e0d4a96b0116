/*
 * ops_gfx950.c -- the VALU instructions gfx950 (CDNA4) adds to gfx942's:
 * v_prng_b32, v_permlane16/32_swap_b32, v_cvt_f32_bf16, v_bitop3_b16/b32,
 * v_ashr_pk_i8/u8_i32, v_cvt_pk_f16_f32, v_cvt_sr_f16/bf16_f32,
 * v_minimum3/maximum3_f32, v_pk_minimum3/maximum3_f16 (the scaled conversions
 * are in ops_cvt_mx.c, the scaled MFMAs in ops_mfma.c).
 *
 * Semantics: the pseudo-code of the AMD CDNA4 ISA reference ("VOP1", "VOP3A &
 * VOP3B", "VOP3P" instruction chapters), which is also that of CDNA3 for the
 * rows both have.  Assumptions where it is silent are stated at each body and
 * in docs/gcnsim.md.
 */
#include "valu_int.h"
#include "mxfp.h"

/* ---- v_prng_b32: D = (S0 << 1) ^ (S0[31] ? 197 : 0) (a 32-bit LFSR) ------- */
static inline uint32_t prng32(uint32_t r) { return (r << 1) ^ ((r >> 31) ? 197u : 0u); }
BODY(V_PRNG_B32)
{
    const uint32_t *A = sim_vsrc(x, 0);
    uint32_t *R = x->r[0];
    LANES R[l] = prng32(A[l]);
    sim_vdst(x, R);
}

/* ---- v_permlane16_swap_b32 / v_permlane32_swap_b32 vdst, vsrc --------------
 * Both registers are written: permlane16 swaps the odd rows (16 lanes) of
 * vdst with the even rows of vsrc, permlane32 the upper half of vdst with the
 * lower half of vsrc (ISA pseudo-code: VGPR[p*32+l][SRC0] <->
 * VGPR[p*32+l+16][VDST]; it does not mention EXEC).  Assumption for partial
 * EXEC, from the fi / bound_ctrl operands LLVM gives the instruction (DPP
 * rules): a register lane is written only when its lane is active; a value
 * read from an inactive lane is 0 with bound_ctrl, else that write is
 * skipped, unless fi (fetch inactive) is set. */
static void permlane_swap(sim_x *x, unsigned span)
{
    const sim_opnd *d = &x->i->d, *s = &x->i->s[0];
    if (d->kind != OK_V || s->kind != OK_V)
        return;
    int fi = x->i->mods.op_sel & 1, bc = x->i->mods.op_sel >> 1 & 1;
    uint64_t ex = x->exec;
    uint32_t *D = x->w->v[d->r], *S = x->w->v[s->r];
    uint32_t nd[NL], ns[NL];
    uint64_t wd = 0, ws = 0;
    for (unsigned l = 0; l < NL; l++) {
        if ((l / span) & 1)
            continue;
        unsigned a = l, b = l + span;       /* S[a] <-> D[b] */
        int va = fi || (ex >> a & 1), vb = fi || (ex >> b & 1);
        if ((ex >> a & 1) && (vb || bc)) {  /* S[a] = D[b] */
            ns[a] = vb ? D[b] : 0;
            ws |= 1ull << a;
        }
        if ((ex >> b & 1) && (va || bc)) {  /* D[b] = S[a] */
            nd[b] = va ? S[a] : 0;
            wd |= 1ull << b;
        }
    }
    for (unsigned l = 0; l < NL; l++) {
        if (ws >> l & 1) S[l] = ns[l];
        if (wd >> l & 1) D[l] = nd[l];
    }
}
BODY(V_PERMLANE16_SWAP_B32) { permlane_swap(x, 16); }
BODY(V_PERMLANE32_SWAP_B32) { permlane_swap(x, 32); }

/* ---- v_cvt_f32_bf16: D = { S0.b16, 16'0 } -------------------------------- */
BODY(V_CVT_F32_BF16)
{
    const sim_insn *i = x->i;
    const uint32_t *A = sim_vsrc(x, 0);          /* SDWA selection applied */
    uint32_t *R = x->r[0];
    int hi = i->enc == GCN_FMT_VOP3 && (i->mods.op_sel & 1);
    unsigned m = i->s[0].mods;
    LANES {
        uint32_t h = (hi ? A[l] >> 16 : A[l]) & 0xffff;
        if (m & OM_ABS) h &= 0x7fff;
        if (m & OM_NEG) h ^= 0x8000;
        R[l] = h << 16;
    }
    sim_vdst_f32(x, R);
}

/* ---- v_bitop3: D[i] = TTBL[{S0[i], S1[i], S2[i]}], TTBL = {OMOD, ABS, NEG} -- */
static inline uint32_t bitop3(uint32_t a, uint32_t b, uint32_t c, unsigned t)
{
    uint32_t r = 0;
    for (unsigned k = 0; k < 8; k++)
        if (t >> k & 1)
            r |= ((k & 4) ? a : ~a) & ((k & 2) ? b : ~b) & ((k & 1) ? c : ~c);
    return r;
}
BODY(V_BITOP3_B32)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1), *Cv = sim_vsrc(x, 2);
    uint32_t *R = x->r[0];
    unsigned t = x->i->mods.neg_lo;            /* the decoder's truth table */
    LANES R[l] = bitop3(A[l], Bv[l], Cv[l], t);
    sim_vdst(x, R);
}
BODY(V_BITOP3_B16)
{
    /* 16-bit sources (OPSEL[k] picks the high half), result to the half
     * OPSEL[3] names; writing the low half zeroes the high one (GFX9 16-bit
     * destination rule, as sim_vdst16) */
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1), *Cv = sim_vsrc_f16(x, 2);
    uint32_t *R = x->r[0];
    unsigned t = x->i->mods.neg_lo;
    LANES R[l] = bitop3(A[l], Bv[l], Cv[l], t) & 0xffff;
    sim_vdst16(x, R, 0);
}

/* ---- v_ashr_pk_i8_i32 / v_ashr_pk_u8_i32 ---------------------------------- */
static inline uint32_t sat_i8(int32_t n) { return n <= -128 ? 0x80u : n >= 127 ? 0x7fu : (uint32_t)n & 0xff; }
static inline uint32_t sat_u8(int32_t n) { return n <= 0 ? 0u : n >= 255 ? 0xffu : (uint32_t)n; }
static void ashr_pk(sim_x *x, int sgn)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1), *Cv = sim_vsrc(x, 2);
    uint32_t *R = x->r[0];
    LANES {
        unsigned sh = Cv[l] & 31;
        int32_t a = (int32_t)A[l] >> sh, b = (int32_t)Bv[l] >> sh;
        R[l] = sgn ? sat_i8(a) | sat_i8(b) << 8 : sat_u8(a) | sat_u8(b) << 8;
    }
    sim_vdst16(x, R, 0);                      /* D0[15:0]; OPSEL[3]: the high half */
}
BODY(V_ASHR_PK_I8_I32) { ashr_pk(x, 1); }
BODY(V_ASHR_PK_U8_I32) { ashr_pk(x, 0); }

/* ---- v_cvt_pk_f16_f32: two f32 -> packed f16, round to nearest even -------- */
static inline uint16_t f16_out(const sim_x *x, uint16_t h)
{
    if (x->i->mods.clamp) {
        if (f16_is_nan(h))
            h = (x->w->hw_mode >> 8 & 1) ? 0 : f16_quiet(h);
        else if (h & 0x8000)
            h = 0;
        else if (h > 0x3c00)
            h = 0x3c00;
    }
    if (!(x->w->hw_mode >> 7 & 1))             /* f16 output denormals per MODE */
        h = f16_flush(h);
    return h;
}
BODY(V_CVT_PK_F16_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = f16_out(x, fp_f2h(u2f(A[l]), RM_NE)) | (uint32_t)f16_out(x, fp_f2h(u2f(Bv[l]), RM_NE)) << 16;
    sim_vdst(x, R);
}

/* ---- v_cvt_sr_f16_f32 / v_cvt_sr_bf16_f32 vdst, src0, src1(random) -------
 * Stochastic rounding as the ISA gives it for v_cvt_sr_fp8_f32: the top
 * 23-m bits of S1 (m = 10 for f16, 7 for bf16) are added below the kept
 * mantissa bits and the sum is truncated (assumption: the ISA names
 * f32_to_f16_sr without spelling it out).  Overflow gives infinity; NaN is
 * quieted keeping its top payload bits.  The 16 bits go to the half OPSEL[3]
 * names, the other half is preserved; clamp and omod are ignored. */
static void cvt_sr16(sim_x *x, int bf)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Rn = sim_vsrc(x, 1);
    const uint32_t *Old = x->w->v[x->i->d.r];
    uint32_t *R = x->r[0];
    unsigned sh = 16u * (x->i->mods.op_sel >> 3 & 1);
    LANES {
        float f = u2f(A[l]);
        uint32_t h;
        if (isnan(f))
            h = bf ? fp_f2bf(f, RM_NE) : fp_f2h(f, RM_NE);
        else
            h = gcn_mx_encode(f, bf ? &GCN_MX_BF16 : &GCN_MX_F16, 1, Rn[l], 0);
        R[l] = (Old[l] & ~(0xffffu << sh)) | h << sh;
    }
    sim_vdst(x, R);
}
BODY(V_CVT_SR_F16_F32) { cvt_sr16(x, 0); }
BODY(V_CVT_SR_BF16_F32) { cvt_sr16(x, 1); }

/* ---- IEEE-754-2019 minimum / maximum (NaN-propagating, -0 < +0) ---------------
 * v_minimum3_f32: minimum(minimum(S0, S1), S2); a NaN operand gives that NaN
 * quieted (the first one); the IEEE mode bit is ignored; DX10_CLAMP makes a
 * clamped NaN 0 (sim_vdst_f32). */
static inline uint32_t fminimum32(uint32_t a, uint32_t b)
{
    if (f32_is_nan(a)) return f32_quiet(a);
    if (f32_is_nan(b)) return f32_quiet(b);
    float fa = u2f(a), fb = u2f(b);
    if (fa < fb) return a;
    if (fb < fa) return b;
    return (a & 0x80000000u) ? a : b;
}
static inline uint32_t fmaximum32(uint32_t a, uint32_t b)
{
    if (f32_is_nan(a)) return f32_quiet(a);
    if (f32_is_nan(b)) return f32_quiet(b);
    float fa = u2f(a), fb = u2f(b);
    if (fa > fb) return a;
    if (fb > fa) return b;
    return (a & 0x80000000u) ? b : a;
}
BODY(V_MINIMUM3_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1), *Cv = sim_vsrc_f32(x, 2);
    uint32_t *R = x->r[0];
    LANES R[l] = fminimum32(fminimum32(A[l], Bv[l]), Cv[l]);
    sim_vdst_f32(x, R);
}
BODY(V_MAXIMUM3_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1), *Cv = sim_vsrc_f32(x, 2);
    uint32_t *R = x->r[0];
    LANES R[l] = fmaximum32(fmaximum32(A[l], Bv[l]), Cv[l]);
    sim_vdst_f32(x, R);
}
static inline uint16_t fminimum16(uint16_t a, uint16_t b)
{
    if (f16_is_nan(a)) return f16_quiet(a);
    if (f16_is_nan(b)) return f16_quiet(b);
    float fa = fp_h2f(a), fb = fp_h2f(b);
    if (fa < fb) return a;
    if (fb < fa) return b;
    return (a & 0x8000) ? a : b;
}
static inline uint16_t fmaximum16(uint16_t a, uint16_t b)
{
    if (f16_is_nan(a)) return f16_quiet(a);
    if (f16_is_nan(b)) return f16_quiet(b);
    float fa = fp_h2f(a), fb = fp_h2f(b);
    if (fa > fb) return a;
    if (fb > fa) return b;
    return (a & 0x8000) ? b : a;
}
/* VOP3P element e of source k: half op_sel[k] (e = 0) / op_sel_hi[k] (e = 1),
 * negated by neg_lo[k] / neg_hi[k] (CDNA3/CDNA4 ISA "VOP3P") */
static inline uint16_t pk_el(const sim_x *x, unsigned k, uint32_t v, int e)
{
    const gcn_mods *m = &x->i->mods;
    int sel = e ? (m->op_sel_hi >> k & 1) : (m->op_sel >> k & 1);
    uint16_t h = (uint16_t)(sel ? v >> 16 : v);
    if ((e ? m->neg_hi : m->neg_lo) >> k & 1)
        h ^= 0x8000;
    return h;
}
static void pk_mm3(sim_x *x, int mx)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1), *Cv = sim_vsrc(x, 2);
    uint32_t *R = x->r[0];
    LANES {
        uint32_t r = 0;
        for (int e = 0; e < 2; e++) {
            uint16_t a = pk_el(x, 0, A[l], e), b = pk_el(x, 1, Bv[l], e), c = pk_el(x, 2, Cv[l], e);
            uint16_t h = mx ? fmaximum16(fmaximum16(a, b), c) : fminimum16(fminimum16(a, b), c);
            if (x->i->mods.clamp)
                h = f16_is_nan(h) ? ((x->w->hw_mode >> 8 & 1) ? 0 : h) : (h & 0x8000) ? 0 : h > 0x3c00 ? 0x3c00 : h;
            r |= (uint32_t)h << (16 * e);
        }
        R[l] = r;
    }
    sim_vdst(x, R);
}
BODY(V_PK_MINIMUM3_F16) { pk_mm3(x, 0); }
BODY(V_PK_MAXIMUM3_F16) { pk_mm3(x, 1); }

const sim_body_ent sim_bodies_gfx950[] = {
    B(V_PRNG_B32), B(V_PERMLANE16_SWAP_B32), B(V_PERMLANE32_SWAP_B32), B(V_CVT_F32_BF16),
    B(V_BITOP3_B16), B(V_BITOP3_B32), B(V_ASHR_PK_I8_I32), B(V_ASHR_PK_U8_I32),
    B(V_CVT_PK_F16_F32), B(V_CVT_SR_F16_F32), B(V_CVT_SR_BF16_F32), B(V_MINIMUM3_F32),
    B(V_MAXIMUM3_F32), B(V_PK_MINIMUM3_F16), B(V_PK_MAXIMUM3_F16),
    {NULL, NULL, 0}
};
