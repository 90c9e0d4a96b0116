/*
 * ops_vop3p.c -- packed math (VOP3P): 2 x 16-bit integer and f16 operations,
 * 2 x f32 (v_pk_*_f32, gfx90a+), mixed-precision v_fma_mix*, dot products,
 * and the AGPR moves (v_accvgpr_*).
 *
 * Source element selection (CDNA3 ISA "VOP3P"): the low result element reads
 * half op_sel[k] of source k and is negated by neg_lo[k]; the high element
 * reads half op_sel_hi[k], negated by neg_hi[k].  For the f32 pairs the
 * halves are the two dwords of the 64-bit source.  v_fma_mix*: op_sel_hi[k]
 * set means source k is f16 (half op_sel[k]), else f32; neg_lo is neg and
 * neg_hi is abs.  MFMA/SMFMAC bodies are in ops_mfma.c.
 */
#include "valu_int.h"

#define M (&x->i->mods)

static inline uint16_t half_of(uint32_t v, int hi) { return (uint16_t)(hi ? v >> 16 : v); }

/* element e (0 lo, 1 hi) of 16-bit source k of lane value v */
static inline uint16_t el16(const sim_x *x, unsigned k, uint32_t v, int e, int fneg)
{
    int sel = e ? (M->op_sel_hi >> k & 1) : (M->op_sel >> k & 1);
    uint16_t h = half_of(v, sel);
    if (fneg && ((e ? M->neg_hi : M->neg_lo) >> k & 1))
        h ^= 0x8000;
    return h;
}

typedef uint16_t (*pk_fn)(uint16_t a, uint16_t b, uint16_t c, int rm);

static void pk16(sim_x *x, unsigned nsrc, int fneg, pk_fn f)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = nsrc > 1 ? sim_vsrc(x, 1) : A;
    const uint32_t *Cv = nsrc > 2 ? sim_vsrc(x, 2) : A;
    uint32_t *R = x->r[0];
    int rm = rm16(x);
    LANES {
        uint32_t r = 0;
        for (int e = 0; e < 2; e++) {
            uint16_t a = el16(x, 0, A[l], e, fneg), b = el16(x, 1, Bv[l], e, fneg),
                     c = nsrc > 2 ? el16(x, 2, Cv[l], e, fneg) : 0;
            r |= (uint32_t)f(a, b, c, rm) << (16 * e);
        }
        R[l] = r;
    }
    sim_vdst(x, R);
}

static _Thread_local int pk_clamp;   /* set per call from the instruction (per thread: gcn_sim_opts.threads) */
static inline uint16_t hclamp(uint16_t u)
{
    if (!pk_clamp) return u;
    if (f16_is_nan(u)) return 0;
    if (u & 0x8000) return 0;
    return u > 0x3c00 ? 0x3c00 : u;
}
#define PKF(ID, EXPR, NS) \
    static uint16_t f_##ID(uint16_t a, uint16_t b, uint16_t c, int rm) { (void)c; (void)rm; return (EXPR); } \
    BODY(ID) { pk_clamp = x->i->mods.clamp; pk16(x, NS, 1, f_##ID); }
#define PKI(ID, EXPR, NS) \
    static uint16_t f_##ID(uint16_t a, uint16_t b, uint16_t c, int rm) { (void)c; (void)rm; return (uint16_t)(EXPR); } \
    BODY(ID) { pk_clamp = x->i->mods.clamp; pk16(x, NS, 0, f_##ID); }

static inline uint16_t hadd(uint16_t a, uint16_t b, int rm) { return hclamp(nan_fix16(fp_f2h(fp_h2f(a) + fp_h2f(b), rm), a, b, 0)); }
static inline uint16_t hmul(uint16_t a, uint16_t b, int rm) { return hclamp(nan_fix16(fp_f2h(fp_h2f(a) * fp_h2f(b), rm), a, b, 0)); }
static inline uint16_t hfma(uint16_t a, uint16_t b, uint16_t c, int rm)
{
    double r = (double)fp_h2f(a) * fp_h2f(b) + fp_h2f(c);
    return hclamp(nan_fix16(fp_f2h((float)r, rm), a, b, c));
}
PKF(V_PK_ADD_F16, hadd(a, b, rm), 2)
PKF(V_PK_MUL_F16, hmul(a, b, rm), 2)
PKF(V_PK_FMA_F16, hfma(a, b, c, rm), 3)
PKF(V_PK_MIN_F16, hclamp(fmin16(a, b)), 2)
PKF(V_PK_MAX_F16, hclamp(fmax16(a, b)), 2)
static inline int32_t sat16s(int32_t v) { return v > 32767 ? 32767 : v < -32768 ? -32768 : v; }
static inline int32_t sat16u(int32_t v) { return v > 65535 ? 65535 : v < 0 ? 0 : v; }
PKI(V_PK_ADD_U16, pk_clamp ? sat16u((int32_t)a + b) : a + b, 2)
PKI(V_PK_SUB_U16, pk_clamp ? sat16u((int32_t)a - b) : a - b, 2)
PKI(V_PK_ADD_I16, pk_clamp ? sat16s((int16_t)a + (int16_t)b) : a + b, 2)
PKI(V_PK_SUB_I16, pk_clamp ? sat16s((int16_t)a - (int16_t)b) : a - b, 2)
PKI(V_PK_MUL_LO_U16, (uint32_t)a * b, 2)   /* uint16 operands promote to int: 65535^2 overflows */
PKI(V_PK_MAD_U16, pk_clamp ? ((uint32_t)a * b + c > 65535u ? 65535u : (uint32_t)a * b + c)
                           : (uint32_t)a * b + c, 3)
PKI(V_PK_MAD_I16, pk_clamp ? (uint32_t)sat16s((int16_t)a * (int16_t)b + (int16_t)c) : (uint32_t)a * b + c, 3)
PKI(V_PK_LSHLREV_B16, b << (a & 15), 2)
PKI(V_PK_LSHRREV_B16, b >> (a & 15), 2)
PKI(V_PK_ASHRREV_I16, (int16_t)b >> (a & 15), 2)
PKI(V_PK_MAX_I16, (int16_t)a > (int16_t)b ? a : b, 2)
PKI(V_PK_MIN_I16, (int16_t)a < (int16_t)b ? a : b, 2)
PKI(V_PK_MAX_U16, a > b ? a : b, 2)
PKI(V_PK_MIN_U16, a < b ? a : b, 2)

/* v_pk_fmac_f16 (VOP2): both halves, the destination accumulates */
BODY(V_PK_FMAC_F16)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1);
    const uint32_t *C = x->w->v[x->i->d.r];
    uint32_t *R = x->r[0];
    int rm = rm16(x);
    pk_clamp = 0;
    LANES {
        uint32_t r = 0;
        for (int e = 0; e < 2; e++)
            r |= (uint32_t)hfma(half_of(A[l], e), half_of(Bv[l], e), half_of(C[l], e), rm) << (16 * e);
        R[l] = r;
    }
    sim_vdst(x, R);
}

/* ---- 2 x f32 ----------------------------------------------------------------------- */
static inline uint32_t el32(const sim_x *x, unsigned k, uint64_t v, int e)
{
    int sel = e ? (M->op_sel_hi >> k & 1) : (M->op_sel >> k & 1);
    uint32_t w = (uint32_t)(sel ? v >> 32 : v);
    if ((e ? M->neg_hi : M->neg_lo) >> k & 1)
        w ^= 0x80000000u;
    return w;
}
/* pk32's common case as 64-lane loops that vectorize: no DPP, no flushing of
 * f32 denormals (MODE[5:4] = 3), rounding to nearest, no clamp, every lane written to a
 * destination pair inside the file.  The elements are chosen by op_sel / op_sel_hi and
 * negated by neg_lo / neg_hi as el32 does; NaN results get nan_fix32 afterwards, from the
 * same inputs.  Returns 0 when the case does not apply (pk32 does the rest). */
GCN_HOT static int pk32_plain(sim_x *x, unsigned nsrc, int op)
{
    const sim_insn *i = x->i;
    sim_wave *w = x->w;
    if (i->sub == GCN_SUB_DPP || i->mods.clamp || x->wmask != ~0ull ||
        (w->hw_mode & 0x33u) != 0x30u || i->d.kind != OK_V || (unsigned)i->d.r + 1 >= w->nvrows)
        return 0;
    const uint32_t *src[3][2];
    uint32_t neg[3][2];
    _Alignas(64) uint32_t bc[3][2][NL];     /* a scalar source's two halves, broadcast */
    static const uint32_t zrow[NL];         /* no src2: c = 0, as el32 is not asked */
    for (unsigned k = 0; k < 3; k++) {
        if (k >= nsrc) {
            src[k][0] = src[k][1] = zrow;
            neg[k][0] = neg[k][1] = 0;
            continue;
        }
        const sim_opnd *o = &i->s[k];
        const uint32_t *lo, *hi;
        if (o->kind == OK_V) {
            lo = w->v[o->r];
            hi = w->v[(unsigned)o->r + 1 < w->nvrows ? o->r + 1u : o->r];
        } else {                            /* as sim_vsrc64 reads it */
            uint64_t c = o->n >= 2 || o->kind == OK_C ? rs64(x, o) : rs32(x, o);
            for (unsigned l = 0; l < NL; l++) {
                bc[k][0][l] = (uint32_t)c;
                bc[k][1][l] = (uint32_t)(c >> 32);
            }
            lo = bc[k][0];
            hi = bc[k][1];
        }
        for (int e = 0; e < 2; e++) {
            int sel = e ? (M->op_sel_hi >> k & 1) : (M->op_sel >> k & 1);
            src[k][e] = sel ? hi : lo;
            neg[k][e] = ((e ? M->neg_hi : M->neg_lo) >> k & 1) ? 0x80000000u : 0;
        }
    }
    uint32_t R[2][NL];
    for (int e = 0; e < 2; e++) {
        const uint32_t *a = src[0][e], *b = src[1][e], *c = src[2][e];
        uint32_t na = neg[0][e], nb = neg[1][e], nc = neg[2][e], nan = 0;
        uint32_t *r = R[e];
        if (op == 0) {
            for (unsigned l = 0; l < NL; l++) {
                r[l] = f2u(fmaf(u2f(a[l] ^ na), u2f(b[l] ^ nb), u2f(c[l] ^ nc)));
                nan |= (0x7f800000u - (r[l] & 0x7fffffffu)) >> 31;
            }
        } else if (op == 1) {
            for (unsigned l = 0; l < NL; l++) {
                r[l] = f2u(u2f(a[l] ^ na) * u2f(b[l] ^ nb));
                nan |= (0x7f800000u - (r[l] & 0x7fffffffu)) >> 31;
            }
        } else {
            for (unsigned l = 0; l < NL; l++) {
                r[l] = f2u(u2f(a[l] ^ na) + u2f(b[l] ^ nb));
                nan |= (0x7f800000u - (r[l] & 0x7fffffffu)) >> 31;
            }
        }
        if (nan)
            for (unsigned l = 0; l < NL; l++)
                r[l] = nan_fix32(r[l], a[l] ^ na, b[l] ^ nb, c[l] ^ nc);
    }
    memcpy(w->v[i->d.r], R[0], sizeof R[0]);
    memcpy(w->v[i->d.r + 1], R[1], sizeof R[1]);
    return 1;
}

static void pk32(sim_x *x, unsigned nsrc, int op)
{
    if (pk32_plain(x, nsrc, op))
        return;
    uint64_t A[NL], Bv[NL], Cv[NL], R[NL];
    sim_vsrc64(x, 0, A, 0);
    sim_vsrc64(x, 1, Bv, 0);
    if (nsrc > 2)
        sim_vsrc64(x, 2, Cv, 0);
    int rm = RM32(x);
    int fl = !(x->w->hw_mode >> 4 & 1), flo = !(x->w->hw_mode >> 5 & 1);
    LANES {
        uint64_t r = 0;
        for (int e = 0; e < 2; e++) {
            uint32_t a = el32(x, 0, A[l], e), b = el32(x, 1, Bv[l], e), c = nsrc > 2 ? el32(x, 2, Cv[l], e) : 0;
            if (fl) { a = f32_flush(a); b = f32_flush(b); c = f32_flush(c); }
            float fa = u2f(a), fb = u2f(b), fc = u2f(c);
            uint32_t v = op == 0 ? f2u(fmaf(fa, fb, fc)) : op == 1 ? f2u(fa * fb) : f2u(fa + fb);
            v = nan_fix32(v, a, b, c);
            if (x->i->mods.clamp) {
                if (f32_is_nan(v) || (int32_t)v < 0) v = 0;
                else if (v > 0x3f800000u) v = 0x3f800000u;
            }
            if (flo) v = f32_flush(v);
            r |= (uint64_t)v << (32 * e);
        }
        R[l] = r;
    }
    rm_end(rm);
    sim_vdst64(x, R);
}
BODY(V_PK_FMA_F32) { pk32(x, 3, 0); }
BODY(V_PK_MUL_F32) { pk32(x, 2, 1); }
BODY(V_PK_ADD_F32) { pk32(x, 2, 2); }
BODY(V_PK_MOV_B32)
{
    uint64_t A[NL], Bv[NL], R[NL];
    sim_vsrc64(x, 0, A, 0);
    sim_vsrc64(x, 1, Bv, 0);
    int s0 = M->op_sel & 1, s1 = M->op_sel >> 1 & 1;
    LANES R[l] = (uint32_t)(s0 ? A[l] >> 32 : A[l]) | (uint64_t)(uint32_t)(s1 ? Bv[l] >> 32 : Bv[l]) << 32;
    sim_vdst64(x, R);
}

/* ---- mixed precision ----------------------------------------------------------------- */
static inline float mix_src(const sim_x *x, unsigned k, uint32_t v)
{
    float f;
    if (M->op_sel_hi >> k & 1)
        f = fp_h2f(half_of(v, M->op_sel >> k & 1));
    else
        f = u2f(v);
    if (M->neg_hi >> k & 1) f = fabsf(f);
    if (M->neg_lo >> k & 1) f = -f;
    return f;
}
static void fma_mix(sim_x *x, int out)   /* out: 0 f32, 1 lo f16, 2 hi f16 */
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1), *Cv = sim_vsrc(x, 2);
    const uint32_t *Old = x->w->v[x->i->d.r];
    uint32_t *R = x->r[0];
    int clamp = x->i->mods.clamp;
    LANES {
        float r = fmaf(mix_src(x, 0, A[l]), mix_src(x, 1, Bv[l]), mix_src(x, 2, Cv[l]));
        uint32_t u = nan_fix32(f2u(r), 0, 0, 0);
        if (out == 0) {
            if (clamp) u = (f32_is_nan(u) || (int32_t)u < 0) ? 0 : u > 0x3f800000u ? 0x3f800000u : u;
            R[l] = u;
        } else {
            uint16_t h = fp_f2h(u2f(u), rm16(x));
            if (clamp) h = (f16_is_nan(h) || (h & 0x8000)) ? 0 : h > 0x3c00 ? 0x3c00 : h;
            R[l] = out == 1 ? (Old[l] & 0xffff0000u) | h : (Old[l] & 0xffff) | (uint32_t)h << 16;
        }
    }
    sim_vdst(x, R);
}
BODY(V_FMA_MIX_F32) { fma_mix(x, 0); }
BODY(V_FMA_MIXLO_F16) { fma_mix(x, 1); }
BODY(V_FMA_MIXHI_F16) { fma_mix(x, 2); }

/* ---- dot products ---------------------------------------------------------------------- */
static void dot2_f16(sim_x *x, int acc, int bf16)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1);
    const uint32_t *C = acc ? x->w->v[x->i->d.r] : sim_vsrc(x, 2);
    uint32_t *R = x->r[0];
    int vop3p = x->i->enc == GCN_FMT_VOP3P;
    LANES {
        double s = u2f(C[l]);
        for (int e = 0; e < 2; e++) {
            uint16_t a = vop3p ? el16(x, 0, A[l], e, 1) : half_of(A[l], e);
            uint16_t b = vop3p ? el16(x, 1, Bv[l], e, 1) : half_of(Bv[l], e);
            s += bf16 ? (double)fp_bf2f(a) * fp_bf2f(b) : (double)fp_h2f(a) * fp_h2f(b);
        }
        uint32_t u = f2u((float)s);
        if (x->i->mods.clamp) u = (f32_is_nan(u) || (int32_t)u < 0) ? 0 : u > 0x3f800000u ? 0x3f800000u : u;
        R[l] = u;
    }
    sim_vdst(x, R);
}
BODY(V_DOT2_F32_F16) { dot2_f16(x, 0, 0); }
BODY(V_DOT2C_F32_F16) { dot2_f16(x, 1, 0); }
BODY(V_DOT2_F32_BF16) { dot2_f16(x, 0, 1); }
BODY(V_DOT2C_F32_BF16) { dot2_f16(x, 1, 1); }

/* integer dots: n elements of w bits, signed or not; clamp saturates */
static void idot(sim_x *x, unsigned n, unsigned w, int sgn, int acc)
{
    const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1);
    const uint32_t *C = acc ? x->w->v[x->i->d.r] : sim_vsrc(x, 2);
    uint32_t *R = x->r[0];
    int clamp = x->i->mods.clamp;
    uint32_t mask = (1u << w) - 1;
    LANES {
        int64_t s = sgn ? (int64_t)(int32_t)C[l] : (int64_t)C[l];
        for (unsigned e = 0; e < n; e++) {
            uint32_t a = (A[l] >> (w * e)) & mask, b = (Bv[l] >> (w * e)) & mask;
            if (sgn) {
                int32_t sa = (int32_t)(a << (32 - w)) >> (32 - w), sb = (int32_t)(b << (32 - w)) >> (32 - w);
                s += (int64_t)sa * sb;
            } else {
                s += (int64_t)a * b;
            }
        }
        if (clamp) {
            if (sgn) s = s > INT32_MAX ? INT32_MAX : s < INT32_MIN ? INT32_MIN : s;
            else s = s > (int64_t)UINT32_MAX ? (int64_t)UINT32_MAX : s < 0 ? 0 : s;
        }
        R[l] = (uint32_t)s;
    }
    sim_vdst(x, R);
}
BODY(V_DOT2_I32_I16) { idot(x, 2, 16, 1, 0); }
BODY(V_DOT2_U32_U16) { idot(x, 2, 16, 0, 0); }
BODY(V_DOT4_I32_I8) { idot(x, 4, 8, 1, 0); }
BODY(V_DOT4_U32_U8) { idot(x, 4, 8, 0, 0); }
BODY(V_DOT8_I32_I4) { idot(x, 8, 4, 1, 0); }
BODY(V_DOT8_U32_U4) { idot(x, 8, 4, 0, 0); }
BODY(V_DOT2C_I32_I16) { idot(x, 2, 16, 1, 1); }
BODY(V_DOT4C_I32_I8) { idot(x, 4, 8, 1, 1); }
BODY(V_DOT8C_I32_I4) { idot(x, 8, 4, 1, 1); }

/* ---- AGPR moves ------------------------------------------------------------------------- */
BODY(V_ACCVGPR_READ_B32) { sim_vdst(x, sim_vsrc(x, 0)); }
BODY(V_ACCVGPR_WRITE_B32) { sim_vdst(x, sim_vsrc(x, 0)); }
BODY(V_ACCVGPR_MOV_B32) { sim_vdst(x, sim_vsrc(x, 0)); }

const sim_body_ent sim_bodies_vop3p[] = {
    B(V_PK_ADD_F16), B(V_PK_MUL_F16), B(V_PK_FMA_F16), B(V_PK_MIN_F16), B(V_PK_MAX_F16),
    B(V_PK_ADD_U16), B(V_PK_SUB_U16), B(V_PK_ADD_I16), B(V_PK_SUB_I16), B(V_PK_MUL_LO_U16),
    B(V_PK_MAD_U16), B(V_PK_MAD_I16), B(V_PK_LSHLREV_B16), B(V_PK_LSHRREV_B16),
    B(V_PK_ASHRREV_I16), B(V_PK_MAX_I16), B(V_PK_MIN_I16), B(V_PK_MAX_U16), B(V_PK_MIN_U16),
    B(V_PK_FMA_F32), B(V_PK_MUL_F32), B(V_PK_ADD_F32), B(V_PK_MOV_B32),
    B(V_FMA_MIX_F32), B(V_FMA_MIXLO_F16), B(V_FMA_MIXHI_F16), B(V_PK_FMAC_F16),
    B(V_DOT2_F32_F16), B(V_DOT2C_F32_F16), B(V_DOT2_F32_BF16), B(V_DOT2C_F32_BF16),
    B(V_DOT2_I32_I16), B(V_DOT2_U32_U16), B(V_DOT4_I32_I8), B(V_DOT4_U32_U8), B(V_DOT8_I32_I4),
    B(V_DOT8_U32_U4), B(V_DOT2C_I32_I16), B(V_DOT4C_I32_I8), B(V_DOT8C_I32_I4),
    B(V_ACCVGPR_READ_B32), B(V_ACCVGPR_WRITE_B32), B(V_ACCVGPR_MOV_B32),
    {NULL, NULL, 0}
};
