/*
 * ops_valu.c -- semantics of the vector ALU (VOP1, VOP2, VOP3) instructions
 * of gfx942/gfx950 except compares (ops_vcmp.c), conversions (ops_cvt.c)
 * and packed math (ops_vop3p.c): integer, bit, f16/f32/f64 arithmetic,
 * transcendentals, lane moves, and the ones the ISA defines by a table or a
 * loop (v_trig_preop_f64, the SADs, the cube-map coordinates); the gfx950
 * additions are in ops_gfx950.c.  One small body per instruction; operands
 * come from sim_vsrc* (whole 64-lane vectors, DPP/SDWA/modifiers applied) and
 * results go through sim_vdst* (EXEC, omod/clamp, denormal flushing).
 *
 * Semantics: AMD Instinct MI300 (CDNA3) ISA reference, "Vector ALU
 * operations"; operand shapes from LLVM VOP1/VOP2/VOP3Instructions.td.
 * Float results are IEEE-754 correctly rounded in the MODE rounding mode;
 * transcendental instructions (v_exp/log/rcp/rsq/sqrt/sin/cos) are computed
 * correctly rounded from the host's libm, where hardware is within ~1 ulp
 * (the ISA does not define their exact results).
 */
#include <stdlib.h>
#include "valu_int.h"
#include "twoopi.h"

/* ---- generators ----------------------------------------------------------- */
#define FETCH2 const uint32_t *restrict A = vsrc(x, 0), *restrict Bv = vsrc(x, 1); uint32_t *restrict R = vout(x)
#define FETCH3 const uint32_t *restrict A = vsrc(x, 0), *restrict Bv = vsrc(x, 1), *restrict Cv = vsrc(x, 2); uint32_t *restrict R = vout(x)
#define U1(ID, EXPR) HBODY(ID) { const uint32_t *restrict A = vsrc(x, 0); uint32_t *restrict R = vout(x); LANES { uint32_t a = A[l]; R[l] = (EXPR); } vdst(x, R); }
#define U2(ID, EXPR) HBODY(ID) { FETCH2; LANES { uint32_t a = A[l], b = Bv[l]; R[l] = (EXPR); } vdst(x, R); }
#define U3(ID, EXPR) HBODY(ID) { FETCH3; LANES { uint32_t a = A[l], b = Bv[l], c = Cv[l]; R[l] = (EXPR); } vdst(x, R); }

/* f32: one pass computes the results and notes whether any is a NaN; only
 * then a second pass gives NaNs the GPU's values (nan_fix32).  The plain
 * case (f32_plain: plain VGPR operands, all lanes, MODE rounding to nearest
 * and keeping f32 denormals) runs the lane loop straight on the register rows
 * (into the destination row unless it is also a source); the rest goes
 * through the operand fetch and write-back of vfetch.c. */
#define FLANES(ID, N, DECL, EXPR) \
    static inline __attribute__((always_inline)) uint32_t ID##_lanes(uint32_t *restrict R, \
        const uint32_t *restrict A, const uint32_t *restrict Bv, const uint32_t *restrict Cv) \
    { uint32_t nan = 0; (void)Bv; (void)Cv; \
      LANES { DECL; uint32_t r = f2u(EXPR); R[l] = r; nan |= (0x7f800000u - (r & 0x7fffffffu)) >> 31; } \
      return nan; }
#define FBODY(ID, N) \
    GCN_HOT_NOINLINE static void ID##_general(sim_x *x) { \
        const uint32_t *A, *Bv = NULL, *Cv = NULL; \
        A = vsrc_f32(x, 0); if (N > 1) Bv = vsrc_f32(x, 1); if (N > 2) Cv = vsrc_f32(x, 2); \
        uint32_t *R = vout(x); int rm = RM32(x); uint32_t nan = ID##_lanes(R, A, Bv, Cv); rm_end(rm); \
        if (nan) { nan_fix_vec(R, A, Bv, Cv); } vdst_f32(x, R); } \
    HBODY(ID) { \
        if (!f32_plain(x, (1u << N) - 1)) { ID##_general(x); return; } \
        uint32_t (*v)[NL] = x->w->v; const sim_insn *i = x->i; \
        const uint32_t *A = v[i->s[0].r], *Bv = N > 1 ? v[i->s[1].r] : NULL, *Cv = N > 2 ? v[i->s[2].r] : NULL; \
        uint32_t *D = v[i->d.r], *R = (i->vfast & VF_NOALIAS) ? D : x->r[0]; \
        if (__builtin_expect(ID##_lanes(R, A, Bv, Cv), 0)) nan_fix_vec(R, A, Bv, Cv); \
        if (R != D) memcpy(D, R, NL * 4); }
/* The plain case of a two-source f32 body with an elementwise vector form VEXPR (of a, b:
 * eight lanes each): the eight groups' results are computed into registers first (every
 * source lane is read before any store: the destination may be a source), their sum says
 * whether a result may be a NaN (a NaN result makes the sum a NaN; infinities of both signs
 * can too); if so the lane loop of FBODY, from the untouched rows, gives the NaNs their
 * values; else the results are stored straight into the destination row.  The host adds and
 * multiplies as the lane loop does (round to nearest, denormals kept: f32_plain). */
typedef float vf_f32x8 __attribute__((vector_size(32), aligned(4), may_alias));
/* whether the eight lanes' sum of s may be a NaN: a macro, not a function (clang checks the
 * ABI of a vector argument even where the call is inlined, in the clones without AVX) */
#define VF_MAYBE_NAN(S) ({ \
    vf_f32x8 s_ = (S); \
    s_ += __builtin_shufflevector(s_, s_, 4, 5, 6, 7, 0, 1, 2, 3); \
    s_ += __builtin_shufflevector(s_, s_, 2, 3, 0, 1, 6, 7, 4, 5); \
    s_ += __builtin_shufflevector(s_, s_, 1, 0, 3, 2, 5, 4, 7, 6); \
    s_[0] != s_[0]; })
/* group G of the eight: its result into r##G (A, Bv: the source rows as vf_f32x8 *) */
#define VF_GROUP(G, VEXPR) vf_f32x8 r##G; { vf_f32x8 a = A[G], b = Bv[G]; r##G = (VEXPR); }
#define FBODY2V(ID, VEXPR) \
    GCN_HOT_NOINLINE static void ID##_lanes_plain(sim_x *x) { \
        uint32_t (*v)[NL] = x->w->v; const sim_insn *i = x->i; \
        const uint32_t *A = v[i->s[0].r], *Bv = v[i->s[1].r]; \
        uint32_t *D = v[i->d.r], *R = (i->vfast & VF_NOALIAS) ? D : x->r[0]; \
        if (ID##_lanes(R, A, Bv, NULL)) nan_fix_vec(R, A, Bv, NULL); \
        if (R != D) memcpy(D, R, NL * 4); } \
    HBODY(ID) { \
        if (!f32_plain(x, 3)) { ID##_general(x); return; } \
        uint32_t (*v)[NL] = x->w->v; const sim_insn *i = x->i; \
        const vf_f32x8 *A = (const vf_f32x8 *)v[i->s[0].r], *Bv = (const vf_f32x8 *)v[i->s[1].r]; \
        _Static_assert(NL == 64, "eight groups of eight lanes"); \
        VF_GROUP(0, VEXPR) VF_GROUP(1, VEXPR) VF_GROUP(2, VEXPR) VF_GROUP(3, VEXPR) \
        VF_GROUP(4, VEXPR) VF_GROUP(5, VEXPR) VF_GROUP(6, VEXPR) VF_GROUP(7, VEXPR) \
        if (__builtin_expect(VF_MAYBE_NAN(((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))), 0)) { \
            ID##_lanes_plain(x); \
            return; \
        } \
        vf_f32x8 *D = (vf_f32x8 *)v[i->d.r]; \
        D[0] = r0; D[1] = r1; D[2] = r2; D[3] = r3; D[4] = r4; D[5] = r5; D[6] = r6; D[7] = r7; }
#define FBODY2V_GENERAL(ID) \
    GCN_HOT_NOINLINE static void ID##_general(sim_x *x) { \
        const uint32_t *A = vsrc_f32(x, 0), *Bv = vsrc_f32(x, 1); \
        uint32_t *R = vout(x); int rm = RM32(x); uint32_t nan = ID##_lanes(R, A, Bv, NULL); rm_end(rm); \
        if (nan) { nan_fix_vec(R, A, Bv, NULL); } vdst_f32(x, R); }
/* F2 with the vector form of its expression for the plain case */
#define F2V(ID, EXPR, VEXPR) FLANES(ID, 2, float a = u2f(A[l]); float b = u2f(Bv[l]), EXPR) \
    FBODY2V_GENERAL(ID) FBODY2V(ID, VEXPR)
#define F1(ID, EXPR) FLANES(ID, 1, float a = u2f(A[l]), EXPR) FBODY(ID, 1)
#define F2(ID, EXPR) FLANES(ID, 2, float a = u2f(A[l]); float b = u2f(Bv[l]), EXPR) FBODY(ID, 2)
#define F3(ID, EXPR) FLANES(ID, 3, float a = u2f(A[l]); float b = u2f(Bv[l]); float c = u2f(Cv[l]), EXPR) FBODY(ID, 3)
/* raw-bit f32 ops (min/max/med: no rounding) */
#define F2B(ID, EXPR) BODY(ID) { const uint32_t *A = vsrc_f32(x, 0), *Bv = vsrc_f32(x, 1); uint32_t *R = x->r[0]; \
    LANES { uint32_t a = A[l], b = Bv[l]; R[l] = (EXPR); } vdst_f32(x, R); }
#define F3B(ID, EXPR) BODY(ID) { const uint32_t *A = vsrc_f32(x, 0), *Bv = vsrc_f32(x, 1), *Cv = vsrc_f32(x, 2); uint32_t *R = x->r[0]; \
    LANES { uint32_t a = A[l], b = Bv[l], c = Cv[l]; R[l] = (EXPR); } vdst_f32(x, R); }

#define D64_1(ID, EXPR) BODY(ID) { uint64_t A[NL], R[NL]; sim_vsrc64(x, 0, A, 1); int rm = RM64(x); \
    LANES { double a = u2d(A[l]); R[l] = nan_fix64(d2u(EXPR), A[l], 0, 0); } rm_end(rm); sim_vdst_f64(x, R); }
#define D64_2(ID, EXPR) BODY(ID) { uint64_t A[NL], Bv[NL], R[NL]; sim_vsrc64(x, 0, A, 1); sim_vsrc64(x, 1, Bv, 1); int rm = RM64(x); \
    LANES { double a = u2d(A[l]), b = u2d(Bv[l]); R[l] = nan_fix64(d2u(EXPR), A[l], Bv[l], 0); } rm_end(rm); sim_vdst_f64(x, R); }

/* f16: sources in bits 15:0, computed in f32 (exact for + - * / sqrt, then one
 * rounding: f32 has >= 2*11+2 bits) or f64 (fma) */
#define H1(ID, EXPR) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0); uint32_t *R = x->r[0]; int rm = rm16(x); \
    LANES { float a = fp_h2f((uint16_t)A[l]); R[l] = nan_fix16(fp_f2h((EXPR), rm), (uint16_t)A[l], 0, 0); } sim_vdst_f16(x, R); }
#define H2P(ID, EXPR, PRESERVE) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1); uint32_t *R = x->r[0]; int rm = rm16(x); \
    LANES { float a = fp_h2f((uint16_t)A[l]), b = fp_h2f((uint16_t)Bv[l]); R[l] = nan_fix16(fp_f2h((EXPR), rm), (uint16_t)A[l], (uint16_t)Bv[l], 0); } sim_vdst_f16p(x, R, PRESERVE); }
#define H2(ID, EXPR) H2P(ID, EXPR, 0)
#define H2B(ID, EXPR) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1); uint32_t *R = x->r[0]; \
    LANES { uint16_t a = (uint16_t)A[l], b = (uint16_t)Bv[l]; R[l] = (EXPR); } sim_vdst_f16(x, R); }
#define H3B(ID, EXPR) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1), *Cv = sim_vsrc_f16(x, 2); uint32_t *R = x->r[0]; \
    LANES { uint16_t a = (uint16_t)A[l], b = (uint16_t)Bv[l], c = (uint16_t)Cv[l]; R[l] = (EXPR); } sim_vdst_f16(x, R); }

/* 16-bit integer ops: sources' low halves (op_sel for VOP3), result low half */
#define I16_2(ID, EXPR) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1); uint32_t *R = x->r[0]; \
    LANES { uint16_t a = (uint16_t)A[l], b = (uint16_t)Bv[l]; R[l] = (uint16_t)(EXPR); } sim_vdst16(x, R, 0); }
#define I16_3(ID, EXPR) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1), *Cv = sim_vsrc_f16(x, 2); uint32_t *R = x->r[0]; \
    LANES { uint16_t a = (uint16_t)A[l], b = (uint16_t)Bv[l], c = (uint16_t)Cv[l]; R[l] = (uint16_t)(EXPR); } sim_vdst16(x, R, 0); }

/* ---- moves and lane operations ---------------------------------------------- */
BODY(V_NOP) { (void)x; }
HBODY(V_MOV_B32) { vdst(x, vsrc(x, 0)); }
BODY(V_MOV_B64) { uint64_t A[NL]; sim_vsrc64(x, 0, A, 0); sim_vdst64(x, A); }
BODY(V_CNDMASK_B32)
{
    const sim_insn *i = x->i;
    int fm = (i->s[0].mods | i->s[1].mods) & (OM_NEG | OM_ABS);
    const uint32_t *A = fm ? sim_vsrc_f32(x, 0) : sim_vsrc(x, 0);
    const uint32_t *Bv = fm ? sim_vsrc_f32(x, 1) : sim_vsrc(x, 1);
    uint64_t m = i->s[2].kind != OK_NONE ? rs64(x, &i->s[2]) : sim_vcc(x->w);
    uint32_t *R = x->r[0];
    LANES R[l] = (m >> l & 1) ? Bv[l] : A[l];
    sim_vdst(x, R);
}
static unsigned first_lane(uint64_t e) { return e ? (unsigned)__builtin_ctzll(e) : 0; }
BODY(V_READFIRSTLANE_B32)
{
    const sim_opnd *o = &x->i->s[0];
    ws32(x, VD, rv32(x, o, first_lane(x->exec), 0));
}
BODY(V_READLANE_B32)
{
    unsigned lane = rs32(x, &x->i->s[1]) & 63;
    ws32(x, VD, rv32(x, &x->i->s[0], lane, 0));
}
BODY(V_WRITELANE_B32)
{
    unsigned lane = rs32(x, &x->i->s[1]) & 63;
    if (VD->kind == OK_V)
        x->w->v[VD->r][lane] = rs32(x, &x->i->s[0]);
}
BODY(V_SWAP_B32)
{
    /* v_swap_b32 vdst, vsrc: both registers are written */
    const sim_opnd *a = VD, *b = &x->i->s[0];
    if (a->kind != OK_V || b->kind != OK_V)
        return;
    uint32_t *p = x->w->v[a->r], *q = x->w->v[b->r];
    LANES if (x->exec >> l & 1) { uint32_t t = p[l]; p[l] = q[l]; q[l] = t; }
}
/* ---- integer ----------------------------------------------------------------- */
static inline uint32_t sat_u32(uint64_t v) { return v > 0xffffffffu ? 0xffffffffu : (uint32_t)v; }
/* v_add/sub/subrev_u32 of a plain VGPR (src1) and a plain VGPR or a scalar (src0) into a
 * plain VGPR, all lanes, no clamp: straight on the rows, eight lanes at a time (the
 * destination may be a source: each group is loaded before it is stored). */
typedef uint32_t u32x8 __attribute__((vector_size(32), aligned(4)));
#define U32_ROWOP(OP) \
    do { \
        const sim_insn *i_ = x->i; \
        if (__builtin_expect((i_->vfast & (VF_DST | 2)) == (VF_DST | 2) && x->wmask == ~0ull, 1)) { \
            const uint32_t *B_ = x->w->v[i_->s[1].r]; \
            uint32_t *D_ = x->w->v[i_->d.r], c_; \
            if (i_->vfast & 1) { \
                const uint32_t *A_ = x->w->v[i_->s[0].r]; \
                _Pragma("GCC unroll 8") \
                for (unsigned g_ = 0; g_ < NL; g_ += 8) { \
                    u32x8 a, b; \
                    memcpy(&a, A_ + g_, sizeof a); \
                    memcpy(&b, B_ + g_, sizeof b); \
                    a = OP; \
                    memcpy(D_ + g_, &a, sizeof a); \
                } \
                return; \
            } \
            const sim_opnd *o_ = &i_->s[0];     /* (vfast's bits: no DPP, no SDWA) */ \
            if (o_->kind == OK_S || o_->kind == OK_C || o_->kind == OK_IMM) { \
                c_ = o_->kind == OK_S ? x->w->s[o_->r] : (uint32_t)o_->c; \
                _Pragma("GCC unroll 8") \
                for (unsigned g_ = 0; g_ < NL; g_ += 8) { \
                    u32x8 a = {c_, c_, c_, c_, c_, c_, c_, c_}, b; \
                    memcpy(&b, B_ + g_, sizeof b); \
                    a = OP; \
                    memcpy(D_ + g_, &a, sizeof a); \
                } \
                return; \
            } \
        } \
    } while (0)
/* (the general cases out of line: the row paths need no stack frame) */
GCN_HOT_NOINLINE static void add_u32_general(sim_x *x)
{
    FETCH2;
    if (x->i->mods.clamp) { LANES R[l] = sat_u32((uint64_t)A[l] + Bv[l]); }
    else { LANES R[l] = A[l] + Bv[l]; }
    sim_vdst(x, R);
}
GCN_HOT_NOINLINE static void sub_u32_general(sim_x *x)
{
    FETCH2;
    if (x->i->mods.clamp) { LANES R[l] = A[l] > Bv[l] ? A[l] - Bv[l] : 0; }
    else { LANES R[l] = A[l] - Bv[l]; }
    sim_vdst(x, R);
}
GCN_HOT_NOINLINE static void subrev_u32_general(sim_x *x)
{
    FETCH2;
    if (x->i->mods.clamp) { LANES R[l] = Bv[l] > A[l] ? Bv[l] - A[l] : 0; }
    else { LANES R[l] = Bv[l] - A[l]; }
    sim_vdst(x, R);
}
HBODY(V_ADD_U32)
{
    U32_ROWOP(a + b);
    add_u32_general(x);
}
HBODY(V_SUB_U32)
{
    U32_ROWOP(a - b);
    sub_u32_general(x);
}
HBODY(V_SUBREV_U32)
{
    U32_ROWOP(b - a);
    subrev_u32_general(x);
}
/* carry-out forms: D2 = carry mask of the active lanes */
static void carry_op(sim_x *x, int kind, int cin)
{
    FETCH2;
    uint64_t ci = 0, co = 0;
    if (cin)
        ci = x->i->s[2].kind != OK_NONE ? rs64(x, &x->i->s[2]) : sim_vcc(x->w);
    int clamp = x->i->mods.clamp;
    LANES {
        uint64_t a = A[l], b = Bv[l], c = cin ? (ci >> l & 1) : 0, r;
        int carry;
        switch (kind) {
        case 0: r = a + b + c; carry = r >> 32 != 0; break;          /* add */
        case 1: r = a - b - c; carry = b + c > a; break;             /* sub: borrow */
        default: r = b - a - c; carry = a + c > b; break;            /* subrev */
        }
        if (clamp && carry)
            r = kind == 0 ? 0xffffffffu : 0;
        R[l] = (uint32_t)r;
        if (carry)
            co |= 1ull << l;
    }
    sim_vdst(x, R);
    sim_sdst_mask(x, &x->i->d2, co & x->wmask);
}
BODY(V_ADD_CO_U32) { carry_op(x, 0, 0); }
BODY(V_SUB_CO_U32) { carry_op(x, 1, 0); }
BODY(V_SUBREV_CO_U32) { carry_op(x, 2, 0); }
BODY(V_ADDC_CO_U32) { carry_op(x, 0, 1); }
BODY(V_SUBB_CO_U32) { carry_op(x, 1, 1); }
BODY(V_SUBBREV_CO_U32) { carry_op(x, 2, 1); }
BODY(V_ADD_I32)
{
    FETCH2;
    LANES {
        int64_t r = (int64_t)(int32_t)A[l] + (int32_t)Bv[l];
        if (x->i->mods.clamp) r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
        R[l] = (uint32_t)r;
    }
    sim_vdst(x, R);
}
BODY(V_SUB_I32)
{
    FETCH2;
    LANES {
        int64_t r = (int64_t)(int32_t)A[l] - (int32_t)Bv[l];
        if (x->i->mods.clamp) r = r > INT32_MAX ? INT32_MAX : r < INT32_MIN ? INT32_MIN : r;
        R[l] = (uint32_t)r;
    }
    sim_vdst(x, R);
}
U2(V_MUL_LO_U32, a * b)
U2(V_MUL_HI_U32, (uint32_t)(((uint64_t)a * b) >> 32))
U2(V_MUL_HI_I32, (uint32_t)((uint64_t)((int64_t)(int32_t)a * (int32_t)b) >> 32))
static inline int32_t s24(uint32_t v) { return (int32_t)(v << 8) >> 8; }
U2(V_MUL_U32_U24, (a & 0xffffff) * (b & 0xffffff))
U2(V_MUL_I32_I24, (uint32_t)s24(a) * (uint32_t)s24(b))   /* low 32 bits; no signed overflow */
U2(V_MUL_HI_U32_U24, (uint32_t)(((uint64_t)(a & 0xffffff) * (b & 0xffffff)) >> 32))
U2(V_MUL_HI_I32_I24, (uint32_t)((uint64_t)((int64_t)s24(a) * s24(b)) >> 32))
U3(V_MAD_U32_U24, (a & 0xffffff) * (b & 0xffffff) + c)
U3(V_MAD_I32_I24, (uint32_t)((int64_t)s24(a) * s24(b)) + c)   /* no signed overflow */
U3(V_MAD_U32_U16, (a & 0xffff) * (b & 0xffff) + c)
U3(V_MAD_I32_I16, (uint32_t)((int32_t)(int16_t)a * (int16_t)b) + c)
HBODY(V_MAD_U64_U32)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1);
    uint64_t C[NL], R[NL], co = 0;
    sim_vsrc64(x, 2, C, 0);
    /* the 32x32-bit product fits in 64 bits; the sum carries out of 64 bits exactly when
     * it wraps below the product (lane loops without 128-bit arithmetic or branches; the
     * carry mask in groups of 8 lanes, which vectorizes as the compares' masks do) */
    LANES R[l] = (uint64_t)A[l] * Bv[l] + C[l];
    for (unsigned g = 0; g < NL / 8; g++) {
        uint32_t b = 0;
        for (unsigned k = 0; k < 8; k++) {
            unsigned l = g * 8 + k;
            b |= (uint32_t)(R[l] < (uint64_t)A[l] * Bv[l]) << k;
        }
        co |= (uint64_t)b << (8 * g);
    }
    sim_vdst64(x, R);
    sim_sdst_mask(x, &x->i->d2, co & x->wmask);
}
BODY(V_MAD_I64_I32)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1);
    uint64_t C[NL], R[NL], co = 0;
    sim_vsrc64(x, 2, C, 0);
    LANES {
        __int128 r = (__int128)((int64_t)(int32_t)A[l] * (int32_t)Bv[l]) + (int64_t)C[l];
        R[l] = (uint64_t)r;
        if (r > INT64_MAX || r < INT64_MIN) co |= 1ull << l;
    }
    sim_vdst64(x, R);
    sim_sdst_mask(x, &x->i->d2, co & x->wmask);
}
U2(V_LSHLREV_B32, b << (a & 31))
U2(V_LSHRREV_B32, b >> (a & 31))
U2(V_ASHRREV_I32, (uint32_t)((int32_t)b >> (a & 31)))
U2(V_AND_B32, a & b)
U2(V_OR_B32, a | b)
U2(V_XOR_B32, a ^ b)
U2(V_XNOR_B32, ~(a ^ b))
U1(V_NOT_B32, ~a)
static inline uint32_t brev32(uint32_t v)
{
    v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
    v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
    v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
    v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
    return (v >> 16) | (v << 16);
}
U1(V_BFREV_B32, brev32(a))
U1(V_FFBH_U32, a ? (uint32_t)__builtin_clz(a) : ~0u)
U1(V_FFBL_B32, a ? (uint32_t)__builtin_ctz(a) : ~0u)
static inline uint32_t ffbh_i32(uint32_t a)
{
    uint32_t v = (int32_t)a < 0 ? ~a : a;
    return v ? (uint32_t)__builtin_clz(v) : ~0u;
}
U1(V_FFBH_I32, ffbh_i32(a))
U2(V_BCNT_U32_B32, (uint32_t)__builtin_popcount(a) + b)
BODY(V_MBCNT_LO_U32_B32) { FETCH2; LANES { uint32_t m = l >= 32 ? ~0u : (uint32_t)((1ull << l) - 1); R[l] = (uint32_t)__builtin_popcount(A[l] & m) + Bv[l]; } sim_vdst(x, R); }
BODY(V_MBCNT_HI_U32_B32) { FETCH2; LANES { uint32_t m = l < 32 ? 0 : (uint32_t)((1ull << (l - 32)) - 1); R[l] = (uint32_t)__builtin_popcount(A[l] & m) + Bv[l]; } sim_vdst(x, R); }
static inline uint32_t bfe_u(uint32_t v, uint32_t off, uint32_t w)
{
    off &= 31;
    w &= 31;
    if (!w) return 0;
    return (v >> off) & ((w >= 32) ? ~0u : (1u << w) - 1);
}
static inline uint32_t bfe_i(uint32_t v, uint32_t off, uint32_t w)
{
    off &= 31;
    w &= 31;
    if (!w) return 0;
    uint32_t r = (v >> off) & ((1u << w) - 1);
    if (r >> (w - 1) & 1) r |= ~0u << w;
    return r;
}
U3(V_BFE_U32, bfe_u(a, b, c))
U3(V_BFE_I32, bfe_i(a, b, c))
U3(V_BFI_B32, (a & b) | (~a & c))
U2(V_BFM_B32, ((1u << (a & 31)) - 1) << (b & 31))
U3(V_ALIGNBIT_B32, (uint32_t)((((uint64_t)a << 32) | b) >> (c & 31)))
U3(V_ALIGNBYTE_B32, (uint32_t)((((uint64_t)a << 32) | b) >> (8 * (c & 3))))
U2(V_MIN_I32, (int32_t)a < (int32_t)b ? a : b)
U2(V_MAX_I32, (int32_t)a > (int32_t)b ? a : b)
U2(V_MIN_U32, a < b ? a : b)
U2(V_MAX_U32, a > b ? a : b)
static inline int32_t min3i(int32_t a, int32_t b, int32_t c) { int32_t m = a < b ? a : b; return m < c ? m : c; }
static inline int32_t max3i(int32_t a, int32_t b, int32_t c) { int32_t m = a > b ? a : b; return m > c ? m : c; }
static inline uint32_t min3u(uint32_t a, uint32_t b, uint32_t c) { uint32_t m = a < b ? a : b; return m < c ? m : c; }
static inline uint32_t max3u(uint32_t a, uint32_t b, uint32_t c) { uint32_t m = a > b ? a : b; return m > c ? m : c; }
static inline int32_t med3i(int32_t a, int32_t b, int32_t c)
{
    int32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return hi < c ? hi : (lo > c ? lo : c);
}
static inline uint32_t med3u(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
    return hi < c ? hi : (lo > c ? lo : c);
}
U3(V_MIN3_I32, (uint32_t)min3i((int32_t)a, (int32_t)b, (int32_t)c))
U3(V_MAX3_I32, (uint32_t)max3i((int32_t)a, (int32_t)b, (int32_t)c))
U3(V_MED3_I32, (uint32_t)med3i((int32_t)a, (int32_t)b, (int32_t)c))
U3(V_MIN3_U32, min3u(a, b, c))
U3(V_MAX3_U32, max3u(a, b, c))
U3(V_MED3_U32, med3u(a, b, c))
U3(V_LSHL_ADD_U32, (a << (b & 31)) + c)
U3(V_ADD_LSHL_U32, (a + b) << (c & 31))
U3(V_ADD3_U32, a + b + c)
U3(V_LSHL_OR_B32, (a << (b & 31)) | c)
U3(V_AND_OR_B32, (a & b) | c)
U3(V_OR3_B32, a | b | c)
U3(V_XAD_U32, (a ^ b) + c)
static inline uint32_t perm_byte(uint64_t v, unsigned sel)
{
    if (sel < 8) return (uint32_t)(v >> (8 * sel)) & 0xff;
    switch (sel) {
    case 8: return (v >> 15 & 1) ? 0xff : 0;
    case 9: return (v >> 31 & 1) ? 0xff : 0;
    case 10: return (v >> 47 & 1) ? 0xff : 0;
    case 11: return (v >> 63 & 1) ? 0xff : 0;
    case 12: return 0;
    default: return 0xff;
    }
}
static inline uint32_t perm_b32(uint32_t a, uint32_t b, uint32_t c)
{
    uint64_t v = (uint64_t)a << 32 | b;
    uint32_t r = 0;
    for (int k = 0; k < 4; k++)
        r |= perm_byte(v, (c >> (8 * k)) & 0xff) << (8 * k);
    return r;
}
U3(V_PERM_B32, perm_b32(a, b, c))
static inline uint32_t sad_u8(uint32_t a, uint32_t b)
{
    uint32_t s = 0;
    for (int k = 0; k < 4; k++) {
        int d = (int)((a >> (8 * k)) & 0xff) - (int)((b >> (8 * k)) & 0xff);
        s += (uint32_t)(d < 0 ? -d : d);
    }
    return s;
}
static inline uint32_t msad_u8(uint32_t a, uint32_t b)
{
    uint32_t s = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t rb = (b >> (8 * k)) & 0xff;
        if (!rb) continue;
        int d = (int)((a >> (8 * k)) & 0xff) - (int)rb;
        s += (uint32_t)(d < 0 ? -d : d);
    }
    return s;
}
U3(V_SAD_U8, sad_u8(a, b) + c)
U3(V_SAD_HI_U8, (sad_u8(a, b) << 16) + c)
U3(V_SAD_U16, (uint32_t)(abs((int)(a & 0xffff) - (int)(b & 0xffff)) + abs((int)(a >> 16) - (int)(b >> 16))) + c)
U3(V_SAD_U32, (a > b ? a - b : b - a) + c)
U3(V_MSAD_U8, msad_u8(a, b) + c)
static inline uint32_t lerp_u8(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t x0 = (a >> (8 * k)) & 0xff, y0 = (b >> (8 * k)) & 0xff, z = (c >> (8 * k)) & 1;
        r |= (((x0 + y0 + z) >> 1) & 0xff) << (8 * k);
    }
    return r;
}
U3(V_LERP_U8, lerp_u8(a, b, c))

/* 16-bit integer (VOP2/VOP3; results zero the high half on gfx9) */
I16_2(V_ADD_U16, a + b)
I16_2(V_SUB_U16, a - b)
I16_2(V_SUBREV_U16, b - a)
I16_2(V_MUL_LO_U16, (uint32_t)a * b)   /* uint16 operands promote to int: 65535^2 overflows */
I16_2(V_LSHLREV_B16, b << (a & 15))
I16_2(V_LSHRREV_B16, b >> (a & 15))
I16_2(V_ASHRREV_I16, (int16_t)b >> (a & 15))
I16_2(V_MAX_U16, a > b ? a : b)
I16_2(V_MIN_U16, a < b ? a : b)
I16_2(V_MAX_I16, (int16_t)a > (int16_t)b ? a : b)
I16_2(V_MIN_I16, (int16_t)a < (int16_t)b ? a : b)
I16_3(V_MAD_U16, (uint32_t)a * b + c)   /* uint16 operands promote to int */
I16_3(V_MAD_I16, (int16_t)a * (int16_t)b + (int16_t)c)
I16_3(V_MAD_LEGACY_U16, (uint32_t)a * b + c)
I16_3(V_MAD_LEGACY_I16, (int16_t)a * (int16_t)b + (int16_t)c)
I16_3(V_MIN3_I16, min3i((int16_t)a, (int16_t)b, (int16_t)c))
I16_3(V_MAX3_I16, max3i((int16_t)a, (int16_t)b, (int16_t)c))
I16_3(V_MED3_I16, med3i((int16_t)a, (int16_t)b, (int16_t)c))
I16_3(V_MIN3_U16, min3u(a, b, c))
I16_3(V_MAX3_U16, max3u(a, b, c))
I16_3(V_MED3_U16, med3u(a, b, c))
BODY(V_ADD_I16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1);
    uint32_t *R = x->r[0];
    LANES {
        int32_t r = (int16_t)A[l] + (int16_t)Bv[l];
        if (x->i->mods.clamp) r = r > 32767 ? 32767 : r < -32768 ? -32768 : r;
        R[l] = (uint16_t)r;
    }
    sim_vdst16(x, R, 0);
}
BODY(V_SUB_I16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1);
    uint32_t *R = x->r[0];
    LANES {
        int32_t r = (int16_t)A[l] - (int16_t)Bv[l];
        if (x->i->mods.clamp) r = r > 32767 ? 32767 : r < -32768 ? -32768 : r;
        R[l] = (uint16_t)r;
    }
    sim_vdst16(x, R, 0);
}

/* A 64-bit source as sim_vsrc64 reads it (no DPP), as two rows: a VGPR pair's, or the two
 * halves of a scalar value broadcast into bc (the lane loops then always read rows). */
static inline __attribute__((always_inline)) void src64_rows(const sim_x *x, unsigned k,
                                                             const uint32_t **lo,
                                                             const uint32_t **hi,
                                                             uint32_t bc[2][NL])
{
    const sim_opnd *o = &x->i->s[k];
    const sim_wave *w = x->w;
    if (o->kind == OK_V) {
        *lo = w->v[o->r];
        *hi = w->v[(unsigned)o->r + 1 < w->nvrows ? o->r + 1u : o->r];
        return;
    }
    uint64_t c = o->n >= 2 || o->kind == OK_C ? rs64(x, o) : rs32(x, o);
    for (unsigned l = 0; l < NL; l++) {
        bc[0][l] = (uint32_t)c;
        bc[1][l] = (uint32_t)(c >> 32);
    }
    *lo = bc[0];
    *hi = bc[1];
}
/* 64-bit shifts by a per-lane amount: every lane to a VGPR pair straight from the register
 * rows (the 64-bit addresses of compiled kernels), else the general 64-bit lanes */
#define SH64(ID, EXPR) HBODY(ID) { \
    const sim_insn *i = x->i; \
    const uint32_t *A = vsrc(x, 0); \
    if (i->sub != GCN_SUB_DPP && i->d.kind == OK_V && x->wmask == ~0ull && \
        (unsigned)i->d.r + 1 < x->w->nvrows) { \
        _Alignas(64) uint32_t bb[2][NL], Rl[NL], Rh[NL]; \
        const uint32_t *bl, *bh; \
        src64_rows(x, 1, &bl, &bh, bb); \
        for (unsigned l = 0; l < NL; l++) { \
            uint32_t a = A[l]; uint64_t b = (uint64_t)bl[l] | (uint64_t)bh[l] << 32; \
            uint64_t r = (EXPR); \
            Rl[l] = (uint32_t)r; Rh[l] = (uint32_t)(r >> 32); \
        } \
        memcpy(x->w->v[i->d.r], Rl, sizeof Rl); \
        memcpy(x->w->v[i->d.r + 1], Rh, sizeof Rh); \
        return; \
    } \
    uint64_t Bv[NL], R[NL]; sim_vsrc64(x, 1, Bv, 0); \
    LANES { uint32_t a = A[l]; uint64_t b = Bv[l]; R[l] = (EXPR); } sim_vdst64(x, R); }
SH64(V_LSHLREV_B64, b << (a & 63))
SH64(V_LSHRREV_B64, b >> (a & 63))
SH64(V_ASHRREV_I64, (uint64_t)((int64_t)b >> (a & 63)))
HBODY(V_LSHL_ADD_U64)
{
    const sim_insn *i = x->i;
    if (i->sub != GCN_SUB_DPP && i->d.kind == OK_V && x->wmask == ~0ull &&
        (unsigned)i->d.r + 1 < x->w->nvrows) {
        /* every lane to a VGPR pair (64-bit addresses): one pass, no 64-bit copies */
        _Alignas(64) uint32_t ba[2][NL], bcc[2][NL], Rl[NL], Rh[NL];
        const uint32_t *al, *ah, *cl, *ch;
        const sim_opnd *o0 = &i->s[0], *o1 = &i->s[1];
        if ((o0->kind == OK_S || o0->kind == OK_C || o0->kind == OK_IMM) &&
            (o1->kind == OK_S || o1->kind == OK_C || o1->kind == OK_IMM) && i->s[2].kind == OK_V) {
            /* a scalar base shifted by a scalar amount plus a VGPR pair (the address of
             * a compiled kernel's element): one 64-bit value, as src64_rows and vsrc read
             * them, added to every lane's pair with the carry */
            uint64_t a = o0->n >= 2 || o0->kind == OK_C ? rs64(x, o0) : rs32(x, o0);
            uint32_t sh = (o1->kind == OK_S ? x->w->s[o1->r] : (uint32_t)o1->c) & 7;
            a <<= sh;
            uint32_t alo = (uint32_t)a, ahi = (uint32_t)(a >> 32);
            src64_rows(x, 2, &cl, &ch, bcc);
            for (unsigned l = 0; l < NL; l++) {
                uint32_t lo = cl[l] + alo;
                Rl[l] = lo;
                Rh[l] = ch[l] + ahi + (lo < alo);
            }
            memcpy(x->w->v[i->d.r], Rl, sizeof Rl);
            memcpy(x->w->v[i->d.r + 1], Rh, sizeof Rh);
            return;
        }
        if (o0->kind == OK_V && (o1->kind == OK_S || o1->kind == OK_C || o1->kind == OK_IMM) &&
            (i->s[2].kind == OK_S || i->s[2].kind == OK_C || i->s[2].kind == OK_IMM)) {
            /* a VGPR pair shifted by a scalar amount plus a scalar value (a loop's pointer
             * step, v[18:19] + 16): the rows below with the shift and the addend as
             * scalars, no broadcast rows */
            uint32_t sh = (o1->kind == OK_S ? x->w->s[o1->r] : (uint32_t)o1->c) & 7;
            const sim_opnd *o2 = &i->s[2];
            uint64_t c = o2->n >= 2 || o2->kind == OK_C ? rs64(x, o2) : rs32(x, o2);
            uint32_t clo = (uint32_t)c, chi = (uint32_t)(c >> 32);
            src64_rows(x, 0, &al, &ah, ba);
            for (unsigned l = 0; l < NL; l++) {
                uint32_t a0 = al[l] << sh, a1 = (ah[l] << sh) | ((al[l] >> 1) >> (31 - sh));
                uint32_t lo = a0 + clo;
                Rl[l] = lo;
                Rh[l] = a1 + chi + (lo < a0);
            }
            memcpy(x->w->v[i->d.r], Rl, sizeof Rl);
            memcpy(x->w->v[i->d.r + 1], Rh, sizeof Rh);
            return;
        }
        src64_rows(x, 0, &al, &ah, ba);
        src64_rows(x, 2, &cl, &ch, bcc);
        const uint32_t *Bv = vsrc(x, 1);
        /* (a << s) + c in 32-bit halves (no widening to 64-bit lanes): the shifted low
         * half, the high half with the bits shifted out of the low one -- (al >> 1) >>
         * (31 - s) is al >> (32 - s), and 0 for s = 0 -- and the sum with its carry */
        for (unsigned l = 0; l < NL; l++) {
            uint32_t sh = Bv[l] & 7, a0 = al[l] << sh;
            uint32_t a1 = (ah[l] << sh) | ((al[l] >> 1) >> (31 - sh));
            uint32_t lo = a0 + cl[l];
            Rl[l] = lo;
            Rh[l] = a1 + ch[l] + (lo < a0);
        }
        memcpy(x->w->v[i->d.r], Rl, sizeof Rl);
        memcpy(x->w->v[i->d.r + 1], Rh, sizeof Rh);
        return;
    }
    uint64_t A[NL], C[NL], R[NL];
    sim_vsrc64(x, 0, A, 0);
    const uint32_t *Bv = sim_vsrc(x, 1);
    sim_vsrc64(x, 2, C, 0);
    LANES R[l] = (A[l] << (Bv[l] & 7)) + C[l];
    sim_vdst64(x, R);
}
BODY(V_CLREXCP) { (void)x; }

/* ---- f32 arithmetic ------------------------------------------------------------ */
F2V(V_ADD_F32, a + b, a + b)
F2V(V_SUB_F32, a - b, a - b)
F2V(V_SUBREV_F32, b - a, b - a)
F2V(V_MUL_F32, a * b, a * b)
F2(V_MUL_LEGACY_F32, (a == 0.0f || b == 0.0f) ? 0.0f : a * b)
F3(V_FMA_F32, fmaf(a, b, c))
F2B(V_MIN_F32, fmin32(a, b))
F2B(V_MAX_F32, fmax32(a, b))
F3B(V_MIN3_F32, fmin32(fmin32(a, b), c))
F3B(V_MAX3_F32, fmax32(fmax32(a, b), c))
static inline uint32_t med3f(uint32_t a, uint32_t b, uint32_t c)
{
    if (f32_is_nan(a) || f32_is_nan(b) || f32_is_nan(c))
        return fmin32(fmin32(a, b), c);
    return fmax32(fmin32(a, b), fmin32(fmax32(a, b), c));
}
F3B(V_MED3_F32, med3f(a, b, c))
HBODY(V_FMAC_F32)
{
    const uint32_t *restrict A = vsrc_f32(x, 0), *restrict Bv = vsrc_f32(x, 1);
    const uint32_t *restrict C = x->w->v[VD->r];
    uint32_t *restrict R = x->r[0];   /* the destination is also a source */
    int rm = RM32(x);
    uint32_t nan = 0;
    LANES {
        uint32_t r = f2u(fmaf(u2f(A[l]), u2f(Bv[l]), u2f(C[l])));
        R[l] = r;
        nan |= (0x7f800000u - (r & 0x7fffffffu)) >> 31;
    }
    rm_end(rm);
    if (nan)
        nan_fix_vec(R, A, Bv, C);
    vdst_f32(x, R);
}
HBODY(V_FMAMK_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *K = sim_vsrc_f32(x, 1), *Cv = sim_vsrc_f32(x, 2);
    uint32_t *R = x->r[0];
    LANES R[l] = nan_fix32(f2u(fmaf(u2f(A[l]), u2f(K[l]), u2f(Cv[l]))), A[l], K[l], Cv[l]);
    sim_vdst_f32(x, R);
}
HBODY(V_FMAAK_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1), *K = sim_vsrc_f32(x, 2);
    uint32_t *R = x->r[0];
    LANES R[l] = nan_fix32(f2u(fmaf(u2f(A[l]), u2f(Bv[l]), u2f(K[l]))), A[l], Bv[l], K[l]);
    sim_vdst_f32(x, R);
}
static inline float ldexpf_i(float a, int32_t e)
{
    if (e > 300) e = 300;
    if (e < -300) e = -300;
    return ldexpf(a, e);
}
BODY(V_LDEXP_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = nan_fix32(f2u(ldexpf_i(u2f(A[l]), (int32_t)Bv[l])), A[l], 0, 0);
    sim_vdst_f32(x, R);
}
F1(V_RCP_F32, 1.0f / a)
F1(V_RCP_IFLAG_F32, 1.0f / a)
F1(V_RSQ_F32, (float)(1.0 / sqrt((double)a)))
F1(V_SQRT_F32, sqrtf(a))
F1(V_EXP_F32, exp2f(a))
F1(V_LOG_F32, log2f(a))
F1(V_EXP_LEGACY_F32, exp2f(a))
F1(V_LOG_LEGACY_F32, a == 0.0f ? -INFINITY : log2f(a))
static inline float sin_rev(float a)
{
    if (isinf(a)) return NAN;
    double r = fmod((double)a, 1.0);
    return (float)sin(r * 2.0 * M_PI);
}
static inline float cos_rev(float a)
{
    if (isinf(a)) return NAN;
    double r = fmod((double)a, 1.0);
    return (float)cos(r * 2.0 * M_PI);
}
F1(V_SIN_F32, sin_rev(a))
F1(V_COS_F32, cos_rev(a))
F1(V_TRUNC_F32, truncf(a))
F1(V_CEIL_F32, ceilf(a))
F1(V_FLOOR_F32, floorf(a))
F1(V_RNDNE_F32, nearbyintf(a))
static inline float fract32(float a)
{
    if (isinf(a)) return NAN;
    float r = a - floorf(a);
    return r >= 1.0f ? 0x1.fffffep-1f : r;
}
F1(V_FRACT_F32, fract32(a))
static inline float frexp_mant32(float a)
{
    if (isinf(a) || isnan(a)) return NAN;
    int e;
    return frexpf(a, &e);
}
F1(V_FREXP_MANT_F32, frexp_mant32(a))
BODY(V_FREXP_EXP_I32_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0);
    uint32_t *R = x->r[0];
    LANES {
        float a = u2f(A[l]);
        int e = 0;
        if (!isinf(a) && !isnan(a))
            frexpf(a, &e);
        R[l] = (uint32_t)e;
    }
    sim_vdst(x, R);
}

/* v_div_scale/fmas/fixup (CDNA3 ISA pseudocode; the scale factor is 2^64 for
 * f32 and 2^128 for f64) */
static inline int exp32(uint32_t u) { return (int)((u >> 23) & 0xff); }
static inline int exp64(uint64_t u) { return (int)((u >> 52) & 0x7ff); }
BODY(V_DIV_SCALE_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1), *Cv = sim_vsrc_f32(x, 2);
    uint32_t *R = x->r[0];
    uint64_t vcc = 0;
    LANES {
        uint32_t s0 = A[l], s1 = Bv[l], s2 = Cv[l];
        float f0 = u2f(s0), f1 = u2f(s1), f2 = u2f(s2);
        float d = f0;
        int v = 0;
        if (f2 == 0.0f || f1 == 0.0f) {
            d = NAN;
        } else if (exp32(s2) - exp32(s1) >= 96) {
            v = 1;
            if (f0 == f1) d = ldexpf(f0, 64);
        } else if (f32_is_denorm(s1)) {
            d = ldexpf(f0, 64);
        } else if (f32_is_denorm(f2u(1.0f / f1)) && !f32_is_denorm(f2u(f2 / f1))) {
            v = 1;
            if (f0 == f1) d = ldexpf(f0, 64);
        } else if (f32_is_denorm(f2u(1.0f / f1))) {
            d = ldexpf(f0, -64);
        } else if (f32_is_denorm(f2u(f2 / f1))) {
            v = 1;
            if (f0 == f2) d = ldexpf(f0, 64);
        } else if (exp32(s2) <= 23) {
            d = ldexpf(f0, 64);
        }
        R[l] = f32_is_nan(f2u(d)) && !f32_is_nan(s0) ? QNAN32 : f32_quiet(f2u(d));
        if (v) vcc |= 1ull << l;
    }
    sim_vdst(x, R);
    sim_sdst_mask(x, &x->i->d2, vcc & x->wmask);
}
BODY(V_DIV_SCALE_F64)
{
    uint64_t A[NL], Bv[NL], Cv[NL], R[NL];
    sim_vsrc64(x, 0, A, 1);
    sim_vsrc64(x, 1, Bv, 1);
    sim_vsrc64(x, 2, Cv, 1);
    uint64_t vcc = 0;
    LANES {
        uint64_t s0 = A[l], s1 = Bv[l], s2 = Cv[l];
        double f0 = u2d(s0), f1 = u2d(s1), f2 = u2d(s2), d = f0;
        int v = 0;
        if (f2 == 0.0 || f1 == 0.0) {
            d = NAN;
        } else if (exp64(s2) - exp64(s1) >= 768) {
            v = 1;
            if (f0 == f1) d = ldexp(f0, 128);
        } else if (f64_is_denorm(s1)) {
            d = ldexp(f0, 128);
        } else if (f64_is_denorm(d2u(1.0 / f1)) && !f64_is_denorm(d2u(f2 / f1))) {
            v = 1;
            if (f0 == f1) d = ldexp(f0, 128);
        } else if (f64_is_denorm(d2u(1.0 / f1))) {
            d = ldexp(f0, -128);
        } else if (f64_is_denorm(d2u(f2 / f1))) {
            v = 1;
            if (f0 == f2) d = ldexp(f0, 128);
        } else if (exp64(s2) <= 53) {
            d = ldexp(f0, 128);
        }
        R[l] = f64_is_nan(d2u(d)) && !f64_is_nan(s0) ? QNAN64 : f64_quiet(d2u(d));
        if (v) vcc |= 1ull << l;
    }
    sim_vdst64(x, R);
    sim_sdst_mask(x, &x->i->d2, vcc & x->wmask);
}
HBODY(V_DIV_FMAS_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1), *Cv = sim_vsrc_f32(x, 2);
    uint32_t *R = x->r[0];
    uint64_t vcc = sim_vcc(x->w);
    int rm = RM32(x);
    LANES {
        float r = fmaf(u2f(A[l]), u2f(Bv[l]), u2f(Cv[l]));
        if (vcc >> l & 1)
            r = exp32(Cv[l]) > 127 ? ldexpf(r, 64) : ldexpf(r, -64);
        R[l] = nan_fix32(f2u(r), A[l], Bv[l], Cv[l]);
    }
    rm_end(rm);
    sim_vdst_f32(x, R);
}
BODY(V_DIV_FMAS_F64)
{
    uint64_t A[NL], Bv[NL], Cv[NL], R[NL];
    sim_vsrc64(x, 0, A, 1);
    sim_vsrc64(x, 1, Bv, 1);
    sim_vsrc64(x, 2, Cv, 1);
    uint64_t vcc = sim_vcc(x->w);
    int rm = RM64(x);
    LANES {
        double r = fma(u2d(A[l]), u2d(Bv[l]), u2d(Cv[l]));
        if (vcc >> l & 1)
            r = exp64(Cv[l]) > 1023 ? ldexp(r, 128) : ldexp(r, -128);
        R[l] = nan_fix64(d2u(r), A[l], Bv[l], Cv[l]);
    }
    rm_end(rm);
    sim_vdst_f64(x, R);
}
static uint32_t div_fixup32(uint32_t s0, uint32_t s1, uint32_t s2)
{
    uint32_t sign = (s1 ^ s2) & 0x80000000u;
    float f1 = u2f(s1), f2 = u2f(s2);
    if (f32_is_nan(s2)) return f32_quiet(s2);
    if (f32_is_nan(s1)) return f32_quiet(s1);
    if (f1 == 0.0f && f2 == 0.0f) return QNAN32;
    if (isinf(f1) && isinf(f2)) return QNAN32;
    if (f1 == 0.0f || isinf(f2)) return sign | 0x7f800000u;
    if (isinf(f1) || f2 == 0.0f) return sign;
    if (exp32(s2) - exp32(s1) < -150) return sign;
    if (exp32(s1) == 255) return sign | 0x7f800000u;
    if (f32_is_nan(s0)) return sign | 0x7f800000u;
    return sign | (s0 & 0x7fffffffu);
}
static uint64_t div_fixup64(uint64_t s0, uint64_t s1, uint64_t s2)
{
    uint64_t sign = (s1 ^ s2) & 0x8000000000000000ull;
    double f1 = u2d(s1), f2 = u2d(s2);
    if (f64_is_nan(s2)) return f64_quiet(s2);
    if (f64_is_nan(s1)) return f64_quiet(s1);
    if (f1 == 0.0 && f2 == 0.0) return QNAN64;
    if (isinf(f1) && isinf(f2)) return QNAN64;
    if (f1 == 0.0 || isinf(f2)) return sign | 0x7ff0000000000000ull;
    if (isinf(f1) || f2 == 0.0) return sign;
    if (exp64(s2) - exp64(s1) < -1075) return sign;
    if (exp64(s1) == 2047) return sign | 0x7ff0000000000000ull;
    if (f64_is_nan(s0)) return sign | 0x7ff0000000000000ull;
    return sign | (s0 & 0x7fffffffffffffffull);
}
F3B(V_DIV_FIXUP_F32, div_fixup32(a, b, c))
BODY(V_DIV_FIXUP_F64)
{
    uint64_t A[NL], Bv[NL], Cv[NL], R[NL];
    sim_vsrc64(x, 0, A, 1);
    sim_vsrc64(x, 1, Bv, 1);
    sim_vsrc64(x, 2, Cv, 1);
    LANES R[l] = div_fixup64(A[l], Bv[l], Cv[l]);
    sim_vdst_f64(x, R);
}
BODY(V_DIV_FIXUP_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1), *Cv = sim_vsrc_f16(x, 2);
    uint32_t *R = x->r[0];
    LANES {
        /* as f32 then narrowed: the special cases are the same */
        uint32_t r = div_fixup32(f2u(fp_h2f((uint16_t)A[l])), f2u(fp_h2f((uint16_t)Bv[l])),
                                 f2u(fp_h2f((uint16_t)Cv[l])));
        R[l] = fp_f2h(u2f(r), RM_NE);
    }
    sim_vdst_f16(x, R);
}
BODY(V_DIV_FIXUP_LEGACY_F16) { b_V_DIV_FIXUP_F16(x); }

/* ---- f64 ---------------------------------------------------------------------- */
D64_2(V_ADD_F64, a + b)
D64_2(V_MUL_F64, a * b)
BODY(V_FMA_F64)
{
    uint64_t A[NL], Bv[NL], Cv[NL], R[NL];
    sim_vsrc64(x, 0, A, 1);
    sim_vsrc64(x, 1, Bv, 1);
    sim_vsrc64(x, 2, Cv, 1);
    int rm = RM64(x);
    LANES R[l] = nan_fix64(d2u(fma(u2d(A[l]), u2d(Bv[l]), u2d(Cv[l]))), A[l], Bv[l], Cv[l]);
    rm_end(rm);
    sim_vdst_f64(x, R);
}
BODY(V_FMAC_F64)
{
    uint64_t A[NL], Bv[NL], R[NL];
    sim_vsrc64(x, 0, A, 1);
    sim_vsrc64(x, 1, Bv, 1);
    const uint32_t *clo = x->w->v[VD->r], *chi = x->w->v[(unsigned)VD->r + 1 < x->w->nvrows ? VD->r + 1u : VD->r];
    int rm = RM64(x);
    LANES {
        uint64_t c = (uint64_t)clo[l] | (uint64_t)chi[l] << 32;
        R[l] = nan_fix64(d2u(fma(u2d(A[l]), u2d(Bv[l]), u2d(c))), A[l], Bv[l], c);
    }
    rm_end(rm);
    sim_vdst_f64(x, R);
}
BODY(V_MIN_F64) { uint64_t A[NL], Bv[NL], R[NL]; sim_vsrc64(x, 0, A, 1); sim_vsrc64(x, 1, Bv, 1); LANES R[l] = fmin64(A[l], Bv[l]); sim_vdst_f64(x, R); }
BODY(V_MAX_F64) { uint64_t A[NL], Bv[NL], R[NL]; sim_vsrc64(x, 0, A, 1); sim_vsrc64(x, 1, Bv, 1); LANES R[l] = fmax64(A[l], Bv[l]); sim_vdst_f64(x, R); }
BODY(V_LDEXP_F64)
{
    uint64_t A[NL], R[NL];
    sim_vsrc64(x, 0, A, 1);
    const uint32_t *Bv = sim_vsrc(x, 1);
    LANES {
        int32_t e = (int32_t)Bv[l];
        if (e > 3000) e = 3000;
        if (e < -3000) e = -3000;
        R[l] = nan_fix64(d2u(ldexp(u2d(A[l]), e)), A[l], 0, 0);
    }
    sim_vdst_f64(x, R);
}
D64_1(V_RCP_F64, 1.0 / a)
D64_1(V_RSQ_F64, 1.0 / sqrt(a))
D64_1(V_SQRT_F64, sqrt(a))
D64_1(V_TRUNC_F64, trunc(a))
D64_1(V_CEIL_F64, ceil(a))
D64_1(V_FLOOR_F64, floor(a))
D64_1(V_RNDNE_F64, nearbyint(a))
static inline double fract64(double a)
{
    if (isinf(a)) return NAN;
    double r = a - floor(a);
    return r >= 1.0 ? 0x1.fffffffffffffp-1 : r;
}
D64_1(V_FRACT_F64, fract64(a))
static inline double frexp_mant64(double a)
{
    if (isinf(a) || isnan(a)) return NAN;
    int e;
    return frexp(a, &e);
}
D64_1(V_FREXP_MANT_F64, frexp_mant64(a))
BODY(V_FREXP_EXP_I32_F64)
{
    uint64_t A[NL];
    sim_vsrc64(x, 0, A, 1);
    uint32_t *R = x->r[0];
    LANES {
        double a = u2d(A[l]);
        int e = 0;
        if (!isinf(a) && !isnan(a))
            frexp(a, &e);
        R[l] = (uint32_t)e;
    }
    sim_vdst(x, R);
}
/* v_trig_preop_f64: 53-bit segment of 2/pi selected by S1[4:0]*53 + exponent
 * adjustment (CDNA3 ISA); the 1201-bit constant is generated from long
 * double arithmetic only to 64 bits, so it is refused here. */

/* ---- f16 ------------------------------------------------------------------------ */
H2(V_ADD_F16, a + b)
H2(V_SUB_F16, a - b)
H2(V_SUBREV_F16, b - a)
H2(V_MUL_F16, a * b)
H2B(V_MAX_F16, fmax16(a, b))
H2B(V_MIN_F16, fmin16(a, b))
H3B(V_MAX3_F16, fmax16(fmax16(a, b), c))
H3B(V_MIN3_F16, fmin16(fmin16(a, b), c))
static inline uint16_t med3h(uint16_t a, uint16_t b, uint16_t c)
{
    if (f16_is_nan(a) || f16_is_nan(b) || f16_is_nan(c))
        return fmin16(fmin16(a, b), c);
    return fmax16(fmin16(a, b), fmin16(fmax16(a, b), c));
}
H3B(V_MED3_F16, med3h(a, b, c))
static inline uint16_t fma16(uint16_t a, uint16_t b, uint16_t c, int rm)
{
    double r = (double)fp_h2f(a) * fp_h2f(b) + fp_h2f(c);   /* exact product, one rounding */
    return nan_fix16(fp_f2h((float)r, rm), a, b, c);
}
static inline uint16_t mad16(uint16_t a, uint16_t b, uint16_t c, int rm)
{
    uint16_t p = fp_f2h(fp_h2f(a) * fp_h2f(b), rm);
    return nan_fix16(fp_f2h(fp_h2f(p) + fp_h2f(c), rm), a, b, c);
}
#define H3F(ID, FN, PRESERVE) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1), *Cv = sim_vsrc_f16(x, 2); uint32_t *R = x->r[0]; int rm = rm16(x); \
    LANES { R[l] = FN((uint16_t)A[l], (uint16_t)Bv[l], (uint16_t)Cv[l], rm); } sim_vdst_f16p(x, R, PRESERVE); }
H3F(V_FMA_F16, fma16, 0)
H3F(V_MAD_F16, mad16, 0)
H3F(V_FMA_LEGACY_F16, fma16, 0)
H3F(V_MAD_LEGACY_F16, mad16, 0)
#define HACC(ID, FN) BODY(ID) { const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1); const uint32_t *C = x->w->v[VD->r]; uint32_t *R = x->r[0]; int rm = rm16(x); \
    LANES { R[l] = FN((uint16_t)A[l], (uint16_t)Bv[l], (uint16_t)C[l], rm); } sim_vdst_f16p(x, R, 1); }
HACC(V_MAC_F16, mad16)
BODY(V_MADMK_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *K = sim_vsrc_f16(x, 1), *Cv = sim_vsrc_f16(x, 2);
    uint32_t *R = x->r[0];
    int rm = rm16(x);
    LANES R[l] = mad16((uint16_t)A[l], (uint16_t)K[l], (uint16_t)Cv[l], rm);
    sim_vdst_f16p(x, R, 1);
}
BODY(V_MADAK_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1), *K = sim_vsrc_f16(x, 2);
    uint32_t *R = x->r[0];
    int rm = rm16(x);
    LANES R[l] = mad16((uint16_t)A[l], (uint16_t)Bv[l], (uint16_t)K[l], rm);
    sim_vdst_f16p(x, R, 1);
}
BODY(V_LDEXP_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc(x, 1);
    uint32_t *R = x->r[0];
    int rm = rm16(x);
    LANES {
        int32_t e = (int32_t)(int16_t)Bv[l];
        R[l] = nan_fix16(fp_f2h(ldexpf_i(fp_h2f((uint16_t)A[l]), e), rm), (uint16_t)A[l], 0, 0);
    }
    sim_vdst_f16(x, R);
}
H1(V_RCP_F16, 1.0f / a)
H1(V_RSQ_F16, (float)(1.0 / sqrt((double)a)))
H1(V_SQRT_F16, sqrtf(a))
H1(V_EXP_F16, exp2f(a))
H1(V_LOG_F16, log2f(a))
H1(V_SIN_F16, sin_rev(a))
H1(V_COS_F16, cos_rev(a))
H1(V_TRUNC_F16, truncf(a))
H1(V_CEIL_F16, ceilf(a))
H1(V_FLOOR_F16, floorf(a))
H1(V_RNDNE_F16, nearbyintf(a))
static inline float fract16(float a)
{
    if (isinf(a)) return NAN;
    float r = a - floorf(a);
    return r >= 1.0f ? 0x1.ffcp-1f : r;
}
H1(V_FRACT_F16, fract16(a))
H1(V_FREXP_MANT_F16, frexp_mant32(a))
BODY(V_FREXP_EXP_I16_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0);
    uint32_t *R = x->r[0];
    LANES {
        float a = fp_h2f((uint16_t)A[l]);
        int e = 0;
        if (!isinf(a) && !isnan(a))
            frexpf(a, &e);
        R[l] = (uint16_t)e;
    }
    sim_vdst16(x, R, 0);
}

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

const sim_body_ent sim_bodies_valu[] = {
    B(V_NOP), B(V_MOV_B32), B(V_MOV_B64), B(V_CNDMASK_B32), B(V_READFIRSTLANE_B32),
    B(V_READLANE_B32), B(V_WRITELANE_B32), B(V_SWAP_B32),
   
    B(V_ADD_U32), B(V_SUB_U32), B(V_SUBREV_U32), B(V_ADD_CO_U32), B(V_SUB_CO_U32),
    B(V_SUBREV_CO_U32), B(V_ADDC_CO_U32), B(V_SUBB_CO_U32), B(V_SUBBREV_CO_U32), B(V_ADD_I32),
    B(V_SUB_I32), B(V_MUL_LO_U32), B(V_MUL_HI_U32), B(V_MUL_HI_I32), B(V_MUL_U32_U24),
    B(V_MUL_I32_I24), B(V_MUL_HI_U32_U24), B(V_MUL_HI_I32_I24), B(V_MAD_U32_U24),
    B(V_MAD_I32_I24), B(V_MAD_U32_U16), B(V_MAD_I32_I16), B(V_MAD_U64_U32), B(V_MAD_I64_I32),
    B(V_LSHLREV_B32), B(V_LSHRREV_B32), B(V_ASHRREV_I32),
    B(V_LSHLREV_B64), B(V_LSHRREV_B64), B(V_ASHRREV_I64),
    B(V_AND_B32), B(V_OR_B32), B(V_XOR_B32), B(V_XNOR_B32), B(V_NOT_B32), B(V_BFREV_B32), B(V_FFBH_U32),
    B(V_FFBL_B32), B(V_FFBH_I32), B(V_BCNT_U32_B32), B(V_MBCNT_LO_U32_B32), B(V_MBCNT_HI_U32_B32),
    B(V_BFE_U32), B(V_BFE_I32), B(V_BFI_B32), B(V_BFM_B32), B(V_ALIGNBIT_B32), B(V_ALIGNBYTE_B32),
    B(V_MIN_I32), B(V_MAX_I32), B(V_MIN_U32), B(V_MAX_U32), B(V_MIN3_I32), B(V_MAX3_I32),
    B(V_MED3_I32), B(V_MIN3_U32), B(V_MAX3_U32), B(V_MED3_U32), B(V_LSHL_ADD_U32),
    B(V_ADD_LSHL_U32), B(V_ADD3_U32), B(V_LSHL_OR_B32), B(V_AND_OR_B32), B(V_OR3_B32),
    B(V_XAD_U32), B(V_PERM_B32), B(V_SAD_U8), B(V_SAD_HI_U8), B(V_SAD_U16), B(V_SAD_U32),
    B(V_MSAD_U8), B(V_LERP_U8), B(V_LSHL_ADD_U64), B(V_CLREXCP),
    B(V_ADD_U16), B(V_SUB_U16), B(V_SUBREV_U16), B(V_MUL_LO_U16), B(V_LSHLREV_B16),
    B(V_LSHRREV_B16), B(V_ASHRREV_I16), B(V_MAX_U16), B(V_MIN_U16), B(V_MAX_I16), B(V_MIN_I16),
    B(V_MAD_U16), B(V_MAD_I16), B(V_MAD_LEGACY_U16), B(V_MAD_LEGACY_I16), B(V_MIN3_I16),
    B(V_MAX3_I16), B(V_MED3_I16), B(V_MIN3_U16), B(V_MAX3_U16), B(V_MED3_U16), B(V_ADD_I16),
    B(V_SUB_I16),
    B(V_ADD_F32), B(V_SUB_F32), B(V_SUBREV_F32), B(V_MUL_F32), B(V_MUL_LEGACY_F32), B(V_FMA_F32),
    B(V_MIN_F32), B(V_MAX_F32), B(V_MIN3_F32),
    B(V_MAX3_F32), B(V_MED3_F32), B(V_FMAC_F32),
    B(V_FMAMK_F32), B(V_FMAAK_F32), B(V_LDEXP_F32), B(V_RCP_F32),
    B(V_RCP_IFLAG_F32), B(V_RSQ_F32), B(V_SQRT_F32), B(V_EXP_F32), B(V_LOG_F32),
    B(V_EXP_LEGACY_F32), B(V_LOG_LEGACY_F32), B(V_SIN_F32), B(V_COS_F32), B(V_TRUNC_F32),
    B(V_CEIL_F32), B(V_FLOOR_F32), B(V_RNDNE_F32), B(V_FRACT_F32), B(V_FREXP_MANT_F32),
    B(V_FREXP_EXP_I32_F32), B(V_DIV_SCALE_F32), B(V_DIV_SCALE_F64), B(V_DIV_FMAS_F32),
    B(V_DIV_FMAS_F64), B(V_DIV_FIXUP_F32), B(V_DIV_FIXUP_F64), B(V_DIV_FIXUP_F16),
    B(V_DIV_FIXUP_LEGACY_F16),
    B(V_ADD_F64), B(V_MUL_F64), B(V_FMA_F64), B(V_FMAC_F64), B(V_MIN_F64), B(V_MAX_F64),
    B(V_LDEXP_F64), B(V_RCP_F64), B(V_RSQ_F64), B(V_SQRT_F64), B(V_TRUNC_F64), B(V_CEIL_F64),
    B(V_FLOOR_F64), B(V_RNDNE_F64), B(V_FRACT_F64), B(V_FREXP_MANT_F64), B(V_FREXP_EXP_I32_F64),
    B(V_ADD_F16), B(V_SUB_F16), B(V_SUBREV_F16), B(V_MUL_F16), B(V_MAX_F16), B(V_MIN_F16),
    B(V_MAX3_F16), B(V_MIN3_F16), B(V_MED3_F16), B(V_FMA_F16), B(V_MAD_F16), B(V_FMA_LEGACY_F16),
    B(V_MAD_LEGACY_F16), B(V_MAC_F16), B(V_MADMK_F16), B(V_MADAK_F16),
    B(V_LDEXP_F16), B(V_RCP_F16), B(V_RSQ_F16), B(V_SQRT_F16), B(V_EXP_F16), B(V_LOG_F16),
    B(V_SIN_F16), B(V_COS_F16), B(V_TRUNC_F16), B(V_CEIL_F16), B(V_FLOOR_F16), B(V_RNDNE_F16),
    B(V_FRACT_F16), B(V_FREXP_MANT_F16), B(V_FREXP_EXP_I16_F16),
    B(V_TRIG_PREOP_F64), B(V_QSAD_PK_U16_U8), B(V_MQSAD_PK_U16_U8), B(V_MQSAD_U32_U8),
    B(V_CUBEID_F32), B(V_CUBESC_F32), B(V_CUBETC_F32), B(V_CUBEMA_F32),
    {NULL, NULL, 0}
};
