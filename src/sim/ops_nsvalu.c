/*
 * ops_nsvalu.c -- VALU rows that had no body before: the gfx950 additions
 * (v_prng_b32, v_permlane16/32_swap_b32, v_cvt_f32_bf16, v_bitop3_b16/b32,
 * v_ashr_pk_i8/u8_i32, v_cvt_pk_f16_f32, v_cvt_sr_f16/bf16_f32,
 * v_minimum3/maximum3_f32, v_pk_minimum3/maximum3_f16), v_trig_preop_f64 and
 * the SAD family v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8 / v_mqsad_u32_u8.
 *
 * Semantics: the pseudo-code of the AMD CDNA4 ISA reference ("VOP1", "VOP3A &
 * VOP3B", "VOP3P" instruction chapters), which is also that of CDNA3 for the
 * rows both have.  Assumptions where it is silent are stated at each body and
 * in docs/gcnsim.md.
 */
#include "valu_int.h"
#include "mxfp.h"
#include "twoopi.h"

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

/* ---- v_trig_preop_f64 ------------------------------------------------------
 * shift = S1[4:0] * 53 (+ exponent(S0) - 1077 when that exponent > 1077);
 * result = the 53 bits b_{1200-shift} .. b_{1148-shift} of 2/pi as an integer,
 * D = ldexp(result, -53 - shift (+128 when exponent(S0) >= 1968)), rounded
 * toward zero (ISA pseudo-code; the table is src/sim/twoopi.h from
 * tools/gen_twoopi.py).  Two cases follow LLVM's constant folding of
 * llvm.amdgcn.trig.preop (AMDGPUInstCombineIntrinsic.cpp) where the
 * pseudo-code says otherwise or nothing: a segment starting at bit 1120 or
 * later gives 0 ("hardware behavior" there), and a NaN input gives it quieted. */
static inline unsigned twoopi_bit(int j)
{
    if (j < 0 || j >= GCN_TWOOPI_BITS)
        return 0;
    unsigned p = (unsigned)(GCN_TWOOPI_BITS - 1 - j);    /* 0 = b_1200 */
    return gcn_twoopi[p / 32] >> (31 - p % 32) & 1;
}
static uint64_t trig_preop(uint64_t s0, uint32_t s1)
{
    if (f64_is_nan(s0))
        return f64_quiet(s0);
    int ex = (int)((s0 >> 52) & 0x7ff);
    int shift = (int)(s1 & 31) * 53;
    if (ex > 1077)
        shift += ex - 1077;
    if ((shift >> 5) + 2 >= 37)
        return 0;
    uint64_t r = 0;
    for (int t = 0; t < 53; t++)
        r = r << 1 | twoopi_bit(1200 - shift - t);
    int scale = -53 - shift;
    if (ex >= 1968)
        scale += 128;
    int save = fegetround();
    fesetround(FE_TOWARDZERO);
    double d = ldexp((double)r, scale);
    fesetround(save);
    return d2u(d);
}
BODY(V_TRIG_PREOP_F64)
{
    uint64_t A[NL], R[NL];
    sim_vsrc64(x, 0, A, 1);
    const uint32_t *Bv = sim_vsrc(x, 1);
    LANES R[l] = trig_preop(A[l], Bv[l]);
    sim_vdst_f64(x, R);
}

/* ---- quad SAD --------------------------------------------------------------
 * v_qsad_pk_u16_u8: four v_sad_u8 of the byte windows S0[31+8k:8k] against
 * S1, accumulating S2's 16-bit fields, each truncated to 16 bits;
 * v_mqsad_*: the masked SAD (reference bytes of 0 skipped), 16-bit or
 * 32-bit accumulators (ISA pseudo-code). */
static inline uint32_t sad4(uint32_t a, uint32_t b, int masked)
{
    uint32_t s = 0;
    for (unsigned k = 0; k < 4; k++) {
        uint32_t x8 = a >> (8 * k) & 0xff, y8 = b >> (8 * k) & 0xff;
        if (masked && !y8)
            continue;
        s += x8 > y8 ? x8 - y8 : y8 - x8;
    }
    return s;
}
static void qsad(sim_x *x, int masked)
{
    uint64_t A[NL], C[NL], R[NL];
    sim_vsrc64(x, 0, A, 0);
    const uint32_t *Bv = sim_vsrc(x, 1);
    sim_vsrc64(x, 2, C, 0);
    LANES {
        uint64_t r = 0;
        for (unsigned k = 0; k < 4; k++) {
            uint32_t acc = (uint32_t)(C[l] >> (16 * k)) & 0xffff;
            r |= (uint64_t)((sad4((uint32_t)(A[l] >> (8 * k)), Bv[l], masked) + acc) & 0xffff) << (16 * k);
        }
        R[l] = r;
    }
    sim_vdst64(x, R);
}
BODY(V_QSAD_PK_U16_U8) { qsad(x, 0); }
BODY(V_MQSAD_PK_U16_U8) { qsad(x, 1); }
BODY(V_MQSAD_U32_U8)
{
    const sim_insn *i = x->i;
    if (i->d.kind != OK_V)
        return;
    uint64_t A[NL];
    sim_vsrc64(x, 0, A, 0);
    const uint32_t *Bv = sim_vsrc(x, 1);
    uint32_t out[4][NL];
    LANES for (unsigned k = 0; k < 4; k++)
        out[k][l] = sad4((uint32_t)(A[l] >> (8 * k)), Bv[l], 1) + rv32(x, &i->s[2], l, k);
    LANES if (x->wmask >> l & 1)
        for (unsigned k = 0; k < 4; k++)
            x->w->v[i->d.r + k][l] = out[k][l];
}

/* ---- cube-map coordinates (ISA pseudo-code V_CUBEID/SC/TC/MA_F32): the major
 * axis is z when |z| >= |x| and |z| >= |y|, else y when |y| >= |x|, else x
 * (comparisons with a NaN are false); S/T results are the sources with their
 * sign flipped as the face requires (a sign change, NaNs kept), MA is 2x the
 * major axis rounded in the MODE rounding mode. */
static inline int cube_axis(float x, float y, float z)
{
    if (fabsf(z) >= fabsf(x) && fabsf(z) >= fabsf(y))
        return 2;
    return fabsf(y) >= fabsf(x) ? 1 : 0;
}
static inline uint32_t cube_op(int op, uint32_t a, uint32_t b, uint32_t c)
{
    float x = u2f(a), y = u2f(b), z = u2f(c);
    int ax = cube_axis(x, y, z);
    switch (op) {
    case 0:                                          /* face id */
        return f2u(ax == 2 ? (z < 0.0f ? 5.0f : 4.0f) : ax == 1 ? (y < 0.0f ? 3.0f : 2.0f)
                                                             : (x < 0.0f ? 1.0f : 0.0f));
    case 1:                                          /* S */
        return ax == 2 ? (z < 0.0f ? a ^ 0x80000000u : a) : ax == 1 ? a : (x < 0.0f ? c : c ^ 0x80000000u);
    case 2:                                          /* T */
        return ax == 1 ? (y < 0.0f ? c ^ 0x80000000u : c) : b ^ 0x80000000u;
    default: {                                       /* 2 x major axis */
        uint32_t m = ax == 2 ? c : ax == 1 ? b : a;
        return nan_fix32(f2u(u2f(m) * 2.0f), m, 0, 0);
    }
    }
}
static void cube(sim_x *x, int op)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1), *Cv = sim_vsrc_f32(x, 2);
    uint32_t *R = x->r[0];
    int rm = RM32(x);
    LANES R[l] = cube_op(op, A[l], Bv[l], Cv[l]);
    rm_end(rm);
    sim_vdst_f32(x, R);
}
BODY(V_CUBEID_F32) { cube(x, 0); }
BODY(V_CUBESC_F32) { cube(x, 1); }
BODY(V_CUBETC_F32) { cube(x, 2); }
BODY(V_CUBEMA_F32) { cube(x, 3); }

const sim_body_ent sim_bodies_nsvalu[] = {
    B(V_CUBEID_F32), B(V_CUBESC_F32), B(V_CUBETC_F32), B(V_CUBEMA_F32),
    B(V_PRNG_B32), B(V_PERMLANE16_SWAP_B32), B(V_PERMLANE32_SWAP_B32), B(V_CVT_F32_BF16),
    B(V_BITOP3_B16), B(V_BITOP3_B32), B(V_ASHR_PK_I8_I32), B(V_ASHR_PK_U8_I32),
    B(V_CVT_PK_F16_F32), B(V_CVT_SR_F16_F32), B(V_CVT_SR_BF16_F32), B(V_MINIMUM3_F32),
    B(V_MAXIMUM3_F32), B(V_PK_MINIMUM3_F16), B(V_PK_MAXIMUM3_F16), B(V_TRIG_PREOP_F64),
    B(V_QSAD_PK_U16_U8), B(V_MQSAD_PK_U16_U8), B(V_MQSAD_U32_U8),
    {NULL, NULL}
};
