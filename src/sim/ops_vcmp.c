/*
 * ops_vcmp.c -- vector compares (VOPC and their VOP3 forms): v_cmp_* write a
 * lane mask to VCC or an SGPR pair (inactive lanes 0); v_cmpx_* also write
 * it to EXEC (gfx9 semantics).  Float conditions (CDNA3 ISA VOPC table):
 * f lt eq le gt lg ge o u nge nlg ngt nle neq nlt tru, where the n-forms are
 * true for unordered operands; integer conditions f lt eq le gt ne ge t.
 * v_cmp_class: S1 bits 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
 * 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
 */
#include "valu_int.h"

enum { C_F, C_LT, C_EQ, C_LE, C_GT, C_LG, C_GE, C_O, C_U, C_NGE, C_NLG, C_NGT, C_NLE,
       C_NEQ, C_NLT, C_TRU, C_NE, C_T };

static inline int fcond(int c, double a, double b)
{
    int un = isnan(a) || isnan(b);
    switch (c) {
    case C_F: return 0;
    case C_LT: return a < b;
    case C_EQ: return a == b;
    case C_LE: return a <= b;
    case C_GT: return a > b;
    case C_LG: return !un && a != b;
    case C_GE: return a >= b;
    case C_O: return !un;
    case C_U: return un;
    case C_NGE: return !(a >= b);
    case C_NLG: return un || a == b;
    case C_NGT: return !(a > b);
    case C_NLE: return !(a <= b);
    case C_NEQ: return !(a == b);
    case C_NLT: return !(a < b);
    default: return 1;
    }
}

#define ICOND(c, a, b) ((c) == C_F ? 0 : (c) == C_LT ? (a) < (b) : (c) == C_EQ ? (a) == (b) : \
    (c) == C_LE ? (a) <= (b) : (c) == C_GT ? (a) > (b) : (c) == C_NE ? (a) != (b) : \
    (c) == C_GE ? (a) >= (b) : 1)

/* m := the lane mask of COND (an expression of lane l), built in groups of 8
 * lanes, which vectorizes (a plain `if (COND) m |= 1 << l` loop does not). */
#define LANEMASK(m, COND) do { \
    (m) = 0; \
    for (unsigned g_ = 0; g_ < NL / 8; g_++) { \
        uint32_t b_ = 0; \
        for (unsigned k_ = 0; k_ < 8; k_++) { \
            unsigned l = g_ * 8 + k_; \
            b_ |= (uint32_t)(COND) << k_; \
        } \
        (m) |= (uint64_t)b_ << (8 * g_); \
    } } while (0)

/* The compare's mask m, its lanes outside wmask cleared, into its destination, and EXEC for v_cmpx
 * (inline: cmp_i32_rows's path has no call) */
static inline __attribute__((always_inline)) void cmp_write(sim_x *x, uint64_t m, int cmpx)
{
    m &= x->wmask;
    sim_sdst_mask(x, &x->i->d, m);
    if (cmpx)
        sim_set_exec(x->w, m);
}

static inline __attribute__((always_inline)) void cmp_f32(sim_x *x, int c, int cmpx)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1);
    uint64_t m;
    LANEMASK(m, fcond(c, u2f(A[l]), u2f(Bv[l])));
    cmp_write(x, m, cmpx);
}
static inline __attribute__((always_inline)) void cmp_f16(sim_x *x, int c, int cmpx)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1);
    uint64_t m = 0;
    LANES if (fcond(c, fp_h2f((uint16_t)A[l]), fp_h2f((uint16_t)Bv[l]))) m |= 1ull << l;
    cmp_write(x, m, cmpx);
}
static inline __attribute__((always_inline)) void cmp_f64(sim_x *x, int c, int cmpx)
{
    uint64_t A[NL], Bv[NL];
    sim_vsrc64(x, 0, A, 1);
    sim_vsrc64(x, 1, Bv, 1);
    uint64_t m = 0;
    LANES if (fcond(c, u2d(A[l]), u2d(Bv[l]))) m |= 1ull << l;
    cmp_write(x, m, cmpx);
}
/* The lane mask of ICOND(c, A[l], Bv[l]) (A[l] = a0 for every lane, or the row A), eight
 * lanes a compare: each group's 0/-1 lanes ANDed with its bits (groups 0-3 in the low word,
 * 4-7 in the high one), one OR across the lanes at the end. */
typedef uint32_t vc_u32x8 __attribute__((vector_size(32), aligned(4)));
typedef int32_t vc_i32x8 __attribute__((vector_size(32), aligned(4)));
static inline __attribute__((always_inline)) uint64_t imask32(int c, const uint32_t *A, uint32_t a0,
                                                             const uint32_t *Bv, int sgn)
{
    const vc_u32x8 bit = {1, 2, 4, 8, 16, 32, 64, 128};
    vc_u32x8 lo = {0, 0, 0, 0, 0, 0, 0, 0}, hi = lo;
    /* (the unsigned order of the less/greater conditions: the signed one of the values with
     * their sign bits flipped, by an XOR that takes its operand from memory; a0 flipped once) */
    const uint32_t f = sgn || c == C_EQ || c == C_NE ? 0 : 0x80000000u;
#pragma GCC unroll 8
    for (unsigned g = 0; g < NL / 8; g++) {
        vc_u32x8 a = {a0 ^ f, a0 ^ f, a0 ^ f, a0 ^ f, a0 ^ f, a0 ^ f, a0 ^ f, a0 ^ f}, b;
        if (A)
            memcpy(&a, A + 8 * g, sizeof a);
        memcpy(&b, Bv + 8 * g, sizeof b);
        if (A)
            a ^= f;
        vc_i32x8 r, sa = (vc_i32x8)a, sb = (vc_i32x8)(b ^ f);
        switch (c) {            /* ICOND's conditions (c is a constant here) */
        case C_F: r = (vc_i32x8){0, 0, 0, 0, 0, 0, 0, 0}; break;
        case C_LT: r = sa < sb; break;
        case C_EQ: r = sa == sb; break;
        case C_LE: r = sa <= sb; break;
        case C_GT: r = sa > sb; break;
        case C_NE: r = sa != sb; break;
        case C_GE: r = sa >= sb; break;
        default: r = (vc_i32x8){-1, -1, -1, -1, -1, -1, -1, -1}; break;
        }
        vc_u32x8 t = (vc_u32x8)r & (bit << (8 * (g & 3)));
        if (g < 4)
            lo |= t;
        else
            hi |= t;
    }
    /* the OR across lanes by halving shuffles: lo's four-lane halves into lanes 0-3, hi's
     * into 4-7, then pairs, then neighbours (lane 0: lo's OR, lane 4: hi's) */
    vc_u32x8 t = __builtin_shufflevector(lo, hi, 0, 1, 2, 3, 8, 9, 10, 11) |
                 __builtin_shufflevector(lo, hi, 4, 5, 6, 7, 12, 13, 14, 15);
    t |= __builtin_shufflevector(t, t, 2, 3, 0, 1, 6, 7, 4, 5);
    t |= __builtin_shufflevector(t, t, 1, 0, 3, 2, 5, 4, 7, 6);
    return (uint64_t)t[4] << 32 | t[0];
}
static inline __attribute__((always_inline)) void cmp_i32(sim_x *x, int c, int cmpx, int sgn)
{
    uint64_t m;
    uint32_t a0;
    if (vsrc_scalar(x, 0, &a0))             /* an SGPR or a constant against a row */
        m = imask32(c, NULL, a0, vsrc(x, 1), sgn);
    else {
        const uint32_t *A = vsrc(x, 0), *Bv = vsrc(x, 1);
        m = imask32(c, A, 0, Bv, sgn);
    }
    cmp_write(x, m, cmpx);
}
/* cmp_i32's rows case, 1 when it applies: src1 a plain VGPR (vfast's bit: no DPP, no SDWA),
 * src0 a plain VGPR, an SGPR or a constant (vsrc_scalar's broadcast). */
static inline __attribute__((always_inline)) int cmp_i32_rows(sim_x *x, int c, int cmpx, int sgn)
{
    const sim_insn *i = x->i;
    if (__builtin_expect(!(i->vfast & 2), 0))
        return 0;
    sim_wave *w = x->w;
    const uint32_t *Bv = w->v[i->s[1].r];
    const sim_opnd *o = &i->s[0];
    uint64_t m;
    if (i->vfast & 1)
        m = imask32(c, w->v[o->r], 0, Bv, sgn);
    else if (o->kind == OK_S || o->kind == OK_C || o->kind == OK_IMM)
        m = imask32(c, NULL, o->kind == OK_S ? w->s[o->r] : (uint32_t)o->c, Bv, sgn);
    else
        return 0;
    cmp_write(x, m, cmpx);
    return 1;
}
/* A 32-bit integer compare body: the rows case inline, the rest out of line (the rows
 * path then needs no stack frame). */
#define I32BODY(NAME, CN, CMPX, SGN) \
    GCN_HOT_NOINLINE static void NAME##_general(sim_x *x) { cmp_i32(x, CN, CMPX, SGN); } \
    HBODY(NAME) { if (!cmp_i32_rows(x, CN, CMPX, SGN)) NAME##_general(x); }
static inline __attribute__((always_inline)) void cmp_i16(sim_x *x, int c, int cmpx, int sgn)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1);
    uint64_t m = 0;
    if (sgn) {
        LANES { int16_t a = (int16_t)A[l], b = (int16_t)Bv[l]; if (ICOND(c, a, b)) m |= 1ull << l; }
    } else {
        LANES { uint16_t a = (uint16_t)A[l], b = (uint16_t)Bv[l]; if (ICOND(c, a, b)) m |= 1ull << l; }
    }
    cmp_write(x, m, cmpx);
}
static inline __attribute__((always_inline)) void cmp_i64(sim_x *x, int c, int cmpx, int sgn)
{
    uint64_t A[NL], Bv[NL];
    sim_vsrc64(x, 0, A, 0);
    sim_vsrc64(x, 1, Bv, 0);
    uint64_t m = 0;
    if (sgn) {
        LANES { int64_t a = (int64_t)A[l], b = (int64_t)Bv[l]; if (ICOND(c, a, b)) m |= 1ull << l; }
    } else {
        LANES { uint64_t a = A[l], b = Bv[l]; if (ICOND(c, a, b)) m |= 1ull << l; }
    }
    cmp_write(x, m, cmpx);
}

/* class of a value as the bit index of v_cmp_class */
static int class_bit(int nan, int snan, int inf, int zero, int denorm, int neg)
{
    if (nan) return snan ? 0 : 1;
    if (inf) return neg ? 2 : 9;
    if (zero) return neg ? 5 : 6;
    if (denorm) return neg ? 4 : 7;
    return neg ? 3 : 8;
}
static void cls_f32(sim_x *x, int cmpx)
{
    /* raw source bits (no denormal flushing), abs/neg modifiers apply */
    const uint32_t *A0 = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1);
    unsigned mods = x->i->s[0].mods;
    uint64_t m = 0;
    LANES {
        uint32_t a = A0[l];
        if (mods & OM_ABS) a &= 0x7fffffffu;
        if (mods & OM_NEG) a ^= 0x80000000u;
        uint32_t e = (a >> 23) & 0xff, f = a & 0x7fffff;
        int b = class_bit(e == 255 && f, !(f >> 22 & 1), e == 255 && !f, !e && !f, !e && f, a >> 31);
        if (Bv[l] >> b & 1) m |= 1ull << l;
    }
    cmp_write(x, m, cmpx);
}
static void cls_f16(sim_x *x, int cmpx)
{
    const uint32_t *A0 = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1);
    unsigned mods = x->i->s[0].mods;
    int hi = x->i->enc == GCN_FMT_VOP3 && (x->i->mods.op_sel & 1);
    uint64_t m = 0;
    LANES {
        uint16_t a = (uint16_t)(hi ? A0[l] >> 16 : A0[l]);
        if (mods & OM_ABS) a &= 0x7fff;
        if (mods & OM_NEG) a ^= 0x8000;
        unsigned e = (a >> 10) & 31, f = a & 0x3ff;
        int b = class_bit(e == 31 && f, !(f >> 9 & 1), e == 31 && !f, !e && !f, !e && f, a >> 15);
        if (Bv[l] >> b & 1) m |= 1ull << l;
    }
    cmp_write(x, m, cmpx);
}
static void cls_f64(sim_x *x, int cmpx)
{
    uint64_t A[NL];
    sim_vsrc64(x, 0, A, 0);
    const uint32_t *Bv = sim_vsrc(x, 1);
    unsigned mods = x->i->s[0].mods;
    uint64_t m = 0;
    LANES {
        uint64_t a = A[l];
        if (mods & OM_ABS) a &= 0x7fffffffffffffffull;
        if (mods & OM_NEG) a ^= 0x8000000000000000ull;
        uint64_t e = (a >> 52) & 0x7ff, f = a & 0xfffffffffffffull;
        int b = class_bit(e == 2047 && f, !(f >> 51 & 1), e == 2047 && !f, !e && !f, !e && f,
                          (int)(a >> 63));
        if (Bv[l] >> b & 1) m |= 1ull << l;
    }
    cmp_write(x, m, cmpx);
}

#define FC(C, CN) \
    BODY(V_CMP_##C##_F16) { cmp_f16(x, CN, 0); } BODY(V_CMPX_##C##_F16) { cmp_f16(x, CN, 1); } \
    HBODY(V_CMP_##C##_F32) { cmp_f32(x, CN, 0); } HBODY(V_CMPX_##C##_F32) { cmp_f32(x, CN, 1); } \
    BODY(V_CMP_##C##_F64) { cmp_f64(x, CN, 0); } BODY(V_CMPX_##C##_F64) { cmp_f64(x, CN, 1); }
#define FCE(C) B(V_CMP_##C##_F16), B(V_CMPX_##C##_F16), B(V_CMP_##C##_F32), B(V_CMPX_##C##_F32), \
    B(V_CMP_##C##_F64), B(V_CMPX_##C##_F64)
FC(F, C_F) FC(LT, C_LT) FC(EQ, C_EQ) FC(LE, C_LE) FC(GT, C_GT) FC(LG, C_LG) FC(GE, C_GE)
FC(O, C_O) FC(U, C_U) FC(NGE, C_NGE) FC(NLG, C_NLG) FC(NGT, C_NGT) FC(NLE, C_NLE)
FC(NEQ, C_NEQ) FC(NLT, C_NLT) FC(TRU, C_TRU)

#define IC(C, CN) \
    BODY(V_CMP_##C##_I16) { cmp_i16(x, CN, 0, 1); } BODY(V_CMPX_##C##_I16) { cmp_i16(x, CN, 1, 1); } \
    BODY(V_CMP_##C##_U16) { cmp_i16(x, CN, 0, 0); } BODY(V_CMPX_##C##_U16) { cmp_i16(x, CN, 1, 0); } \
    I32BODY(V_CMP_##C##_I32, CN, 0, 1) I32BODY(V_CMPX_##C##_I32, CN, 1, 1) \
    I32BODY(V_CMP_##C##_U32, CN, 0, 0) I32BODY(V_CMPX_##C##_U32, CN, 1, 0) \
    BODY(V_CMP_##C##_I64) { cmp_i64(x, CN, 0, 1); } BODY(V_CMPX_##C##_I64) { cmp_i64(x, CN, 1, 1); } \
    BODY(V_CMP_##C##_U64) { cmp_i64(x, CN, 0, 0); } BODY(V_CMPX_##C##_U64) { cmp_i64(x, CN, 1, 0); }
#define ICE(C) B(V_CMP_##C##_I16), B(V_CMPX_##C##_I16), B(V_CMP_##C##_U16), B(V_CMPX_##C##_U16), \
    B(V_CMP_##C##_I32), B(V_CMPX_##C##_I32), B(V_CMP_##C##_U32), B(V_CMPX_##C##_U32), \
    B(V_CMP_##C##_I64), B(V_CMPX_##C##_I64), B(V_CMP_##C##_U64), B(V_CMPX_##C##_U64)
IC(F, C_F) IC(LT, C_LT) IC(EQ, C_EQ) IC(LE, C_LE) IC(GT, C_GT) IC(NE, C_NE) IC(GE, C_GE)
IC(T, C_T)

BODY(V_CMP_CLASS_F16) { cls_f16(x, 0); }
BODY(V_CMPX_CLASS_F16) { cls_f16(x, 1); }
BODY(V_CMP_CLASS_F32) { cls_f32(x, 0); }
BODY(V_CMPX_CLASS_F32) { cls_f32(x, 1); }
BODY(V_CMP_CLASS_F64) { cls_f64(x, 0); }
BODY(V_CMPX_CLASS_F64) { cls_f64(x, 1); }

const sim_body_ent sim_bodies_vcmp[] = {
    FCE(F), FCE(LT), FCE(EQ), FCE(LE), FCE(GT), FCE(LG), FCE(GE), FCE(O), FCE(U), FCE(NGE),
    FCE(NLG), FCE(NGT), FCE(NLE), FCE(NEQ), FCE(NLT), FCE(TRU),
    ICE(F), ICE(LT), ICE(EQ), ICE(LE), ICE(GT), ICE(NE), ICE(GE), ICE(T),
    B(V_CMP_CLASS_F16), B(V_CMPX_CLASS_F16), B(V_CMP_CLASS_F32), B(V_CMPX_CLASS_F32),
    B(V_CMP_CLASS_F64), B(V_CMPX_CLASS_F64),
    {NULL, NULL, 0}
};
