/*
 * ops_cvt.c -- conversion instructions: integer <-> float of every width,
 * f16/bf16/f32/f64, packing and normalization, and the 8-bit float formats.
 *
 * Float -> integer conversions truncate toward zero, saturate to the
 * destination range and give 0 for NaN (CDNA3 ISA V_CVT_*_F32 notes).
 * 8-bit floats: gfx942 uses the FNUZ formats (fp8 = E4M3, bias 8; bf8 = E5M2,
 * bias 16; no infinity, no negative zero, 0x80 is NaN); gfx950 uses the OCP
 * formats (fp8 = E4M3FN, bias 7, NaN 0x7f/0xff, no infinity; bf8 = E5M2,
 * bias 15, IEEE-like with infinities) (LLVM AMDGPU fp8 conversion notes;
 * OCP 8-bit floating point specification).  Conversions to 8 bits round to
 * nearest even (the _sr forms add S1's bits below the result's ulp: stochastic
 * rounding); an out-of-range value gives the largest finite value when clamp
 * is set, else NaN (or infinity for OCP E5M2).
 */
#include "valu_int.h"
#include "mxfp.h"

#define RD0 const uint32_t *A = sim_vsrc(x, 0); uint32_t *R = x->r[0]
static inline int rm32(const sim_x *x) { return (int)(x->w->hw_mode & 3); }

/* f32 -> integer with truncation and saturation */
static inline uint32_t f2i32(double a)
{
    if (isnan(a)) return 0;
    a = trunc(a);
    if (a >= 2147483647.0) return 0x7fffffffu;
    if (a <= -2147483648.0) return 0x80000000u;
    return (uint32_t)(int32_t)a;
}
static inline uint32_t f2u32(double a)
{
    if (isnan(a) || a <= 0.0) return 0;
    a = trunc(a);
    if (a >= 4294967295.0) return 0xffffffffu;
    return (uint32_t)a;
}
static inline uint16_t f2i16(double a)
{
    if (isnan(a)) return 0;
    a = trunc(a);
    if (a >= 32767.0) return 0x7fff;
    if (a <= -32768.0) return 0x8000;
    return (uint16_t)(int16_t)a;
}
static inline uint16_t f2u16(double a)
{
    if (isnan(a) || a <= 0.0) return 0;
    a = trunc(a);
    if (a >= 65535.0) return 0xffff;
    return (uint16_t)a;
}

BODY(V_CVT_F32_I32) { RD0; int rm = RM32(x); LANES R[l] = f2u((float)(int32_t)A[l]); rm_end(rm); sim_vdst_f32(x, R); }
BODY(V_CVT_F32_U32) { RD0; int rm = RM32(x); LANES R[l] = f2u((float)A[l]); rm_end(rm); sim_vdst_f32(x, R); }
BODY(V_CVT_I32_F32) { const uint32_t *A = sim_vsrc_f32(x, 0); uint32_t *R = x->r[0]; LANES R[l] = f2i32(u2f(A[l])); sim_vdst(x, R); }
BODY(V_CVT_U32_F32) { const uint32_t *A = sim_vsrc_f32(x, 0); uint32_t *R = x->r[0]; LANES R[l] = f2u32(u2f(A[l])); sim_vdst(x, R); }
BODY(V_CVT_RPI_I32_F32) { const uint32_t *A = sim_vsrc_f32(x, 0); uint32_t *R = x->r[0]; LANES R[l] = f2i32(floor((double)u2f(A[l]) + 0.5)); sim_vdst(x, R); }
BODY(V_CVT_FLR_I32_F32) { const uint32_t *A = sim_vsrc_f32(x, 0); uint32_t *R = x->r[0]; LANES R[l] = f2i32(floor((double)u2f(A[l]))); sim_vdst(x, R); }
BODY(V_CVT_OFF_F32_I4)
{
    RD0;
    LANES {
        int v = (int)(A[l] & 15);
        if (v >= 8) v -= 16;
        R[l] = f2u((float)v / 16.0f);
    }
    sim_vdst_f32(x, R);
}
BODY(V_CVT_F16_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0);
    uint32_t *R = x->r[0];
    int rm = rm16(x);
    LANES R[l] = fp_f2h(u2f(A[l]), rm);
    sim_vdst_f16(x, R);
}
BODY(V_CVT_F32_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0);
    uint32_t *R = x->r[0];
    LANES R[l] = f2u(fp_h2f((uint16_t)A[l]));
    sim_vdst_f32(x, R);
}
BODY(V_CVT_F32_F64)
{
    uint64_t A[NL];
    sim_vsrc64(x, 0, A, 1);
    uint32_t *R = x->r[0];
    int rm = RM32(x);
    LANES R[l] = f64_is_nan(A[l]) ? f32_quiet((uint32_t)(A[l] >> 63 << 31) | 0x7f800000u | (uint32_t)((A[l] >> 29) & 0x7fffff))
                                  : f2u((float)u2d(A[l]));
    rm_end(rm);
    sim_vdst_f32(x, R);
}
BODY(V_CVT_F64_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0);
    uint64_t R[NL];
    LANES R[l] = f32_is_nan(A[l]) ? f64_quiet((uint64_t)(A[l] >> 31) << 63 | 0x7ff0000000000000ull | (uint64_t)(A[l] & 0x7fffff) << 29)
                                  : d2u((double)u2f(A[l]));
    sim_vdst_f64(x, R);
}
#define UB(N) BODY(V_CVT_F32_UBYTE##N) { RD0; LANES R[l] = f2u((float)((A[l] >> (8 * N)) & 0xff)); sim_vdst_f32(x, R); }
UB(0) UB(1) UB(2) UB(3)
BODY(V_CVT_I32_F64) { uint64_t A[NL]; sim_vsrc64(x, 0, A, 1); uint32_t *R = x->r[0]; LANES R[l] = f2i32(u2d(A[l])); sim_vdst(x, R); }
BODY(V_CVT_U32_F64) { uint64_t A[NL]; sim_vsrc64(x, 0, A, 1); uint32_t *R = x->r[0]; LANES R[l] = f2u32(u2d(A[l])); sim_vdst(x, R); }
BODY(V_CVT_F64_I32) { RD0; uint64_t D[NL]; LANES D[l] = d2u((double)(int32_t)A[l]); sim_vdst_f64(x, D); (void)R; }
BODY(V_CVT_F64_U32) { RD0; uint64_t D[NL]; LANES D[l] = d2u((double)A[l]); sim_vdst_f64(x, D); (void)R; }
BODY(V_CVT_F16_U16) { const uint32_t *A = sim_vsrc_f16(x, 0); uint32_t *R = x->r[0]; int rm = rm16(x); LANES R[l] = fp_f2h((float)(uint16_t)A[l], rm); sim_vdst_f16(x, R); }
BODY(V_CVT_F16_I16) { const uint32_t *A = sim_vsrc_f16(x, 0); uint32_t *R = x->r[0]; int rm = rm16(x); LANES R[l] = fp_f2h((float)(int16_t)A[l], rm); sim_vdst_f16(x, R); }
BODY(V_CVT_U16_F16) { const uint32_t *A = sim_vsrc_f16(x, 0); uint32_t *R = x->r[0]; LANES R[l] = f2u16(fp_h2f((uint16_t)A[l])); sim_vdst16(x, R, 0); }
BODY(V_CVT_I16_F16) { const uint32_t *A = sim_vsrc_f16(x, 0); uint32_t *R = x->r[0]; LANES R[l] = f2i16(fp_h2f((uint16_t)A[l])); sim_vdst16(x, R, 0); }
static inline uint16_t norm_i16(float a)
{
    if (isnan(a)) return 0;
    if (a > 1.0f) a = 1.0f;
    if (a < -1.0f) a = -1.0f;
    return (uint16_t)(int16_t)nearbyintf(a * 32767.0f);
}
static inline uint16_t norm_u16(float a)
{
    if (isnan(a)) return 0;
    if (a > 1.0f) a = 1.0f;
    if (a < 0.0f) a = 0.0f;
    return (uint16_t)nearbyintf(a * 65535.0f);
}
BODY(V_CVT_NORM_I16_F16) { const uint32_t *A = sim_vsrc_f16(x, 0); uint32_t *R = x->r[0]; LANES R[l] = norm_i16(fp_h2f((uint16_t)A[l])); sim_vdst16(x, R, 0); }
BODY(V_CVT_NORM_U16_F16) { const uint32_t *A = sim_vsrc_f16(x, 0); uint32_t *R = x->r[0]; LANES R[l] = norm_u16(fp_h2f((uint16_t)A[l])); sim_vdst16(x, R, 0); }
BODY(V_CVT_PKRTZ_F16_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = fp_f2h(u2f(A[l]), RM_ZERO) | (uint32_t)fp_f2h(u2f(Bv[l]), RM_ZERO) << 16;
    sim_vdst(x, R);
}
BODY(V_CVT_PKNORM_I16_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = norm_i16(u2f(A[l])) | (uint32_t)norm_i16(u2f(Bv[l])) << 16;
    sim_vdst(x, R);
}
BODY(V_CVT_PKNORM_U16_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = norm_u16(u2f(A[l])) | (uint32_t)norm_u16(u2f(Bv[l])) << 16;
    sim_vdst(x, R);
}
BODY(V_CVT_PKNORM_I16_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = norm_i16(fp_h2f((uint16_t)A[l])) | (uint32_t)norm_i16(fp_h2f((uint16_t)Bv[l])) << 16;
    sim_vdst(x, R);
}
BODY(V_CVT_PKNORM_U16_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = norm_u16(fp_h2f((uint16_t)A[l])) | (uint32_t)norm_u16(fp_h2f((uint16_t)Bv[l])) << 16;
    sim_vdst(x, R);
}
static inline uint32_t satu16(uint32_t v) { return v > 0xffff ? 0xffff : v; }
static inline uint32_t sati16(int32_t v) { return (uint16_t)(v > 32767 ? 32767 : v < -32768 ? -32768 : v); }
BODY(V_CVT_PK_U16_U32) { const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1); uint32_t *R = x->r[0]; LANES R[l] = satu16(A[l]) | satu16(Bv[l]) << 16; sim_vdst(x, R); }
BODY(V_CVT_PK_I16_I32) { const uint32_t *A = sim_vsrc(x, 0), *Bv = sim_vsrc(x, 1); uint32_t *R = x->r[0]; LANES R[l] = sati16((int32_t)A[l]) | sati16((int32_t)Bv[l]) << 16; sim_vdst(x, R); }
BODY(V_CVT_PK_U8_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc(x, 1), *Cv = sim_vsrc(x, 2);
    uint32_t *R = x->r[0];
    LANES {
        float a = u2f(A[l]);
        uint32_t b = isnan(a) ? 0 : a <= 0.0f ? 0 : a >= 255.0f ? 255 : (uint32_t)nearbyintf(a);
        unsigned sh = 8 * (Bv[l] & 3);
        R[l] = (Cv[l] & ~(0xffu << sh)) | b << sh;
    }
    sim_vdst(x, R);
}
BODY(V_CVT_PKACCUM_U8_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc(x, 1);
    const uint32_t *Old = x->w->v[x->i->d.r];
    uint32_t *R = x->r[0];
    LANES {
        float a = u2f(A[l]);
        uint32_t b = isnan(a) ? 0 : a <= 0.0f ? 0 : a >= 255.0f ? 255 : (uint32_t)nearbyintf(a);
        unsigned sh = 8 * (Bv[l] & 3);
        R[l] = (Old[l] & ~(0xffu << sh)) | b << sh;
    }
    sim_vdst(x, R);
}
BODY(V_PACK_B32_F16)
{
    const uint32_t *A = sim_vsrc_f16(x, 0), *Bv = sim_vsrc_f16(x, 1);
    uint32_t *R = x->r[0];
    LANES R[l] = (A[l] & 0xffff) | (Bv[l] & 0xffff) << 16;
    sim_vdst(x, R);
}
static inline uint32_t satu8(int16_t v) { return (uint32_t)(v < 0 ? 0 : v > 255 ? 255 : v); }
BODY(V_SAT_PK_U8_I16) { RD0; LANES R[l] = satu8((int16_t)A[l]) | satu8((int16_t)(A[l] >> 16)) << 8; sim_vdst16(x, R, 0); }
BODY(V_CVT_PK_BF16_F32)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1);
    uint32_t *R = x->r[0];
    int rm = rm32(x);
    LANES R[l] = fp_f2bf(u2f(A[l]), rm) | (uint32_t)fp_f2bf(u2f(Bv[l]), rm) << 16;
    sim_vdst(x, R);
}

/* ---- 8-bit floats ----------------------------------------------------------------- */
typedef struct mf8 {
    int ebits, mbits, bias, fnuz, inf;
    double max;
} mf8;
static const mf8 F_E4M3_FNUZ = {4, 3, 8, 1, 0, 240.0};
static const mf8 F_E5M2_FNUZ = {5, 2, 16, 1, 0, 57344.0};
static const mf8 F_E4M3_OCP = {4, 3, 7, 0, 0, 448.0};
static const mf8 F_E5M2_OCP = {5, 2, 15, 0, 1, 57344.0};

static const mf8 *fmt8(const sim_x *x, int bf8)
{
    gcn_target t = sim_target(x);
    int ocp = t == GCN_TARGET_GFX950;
    return bf8 ? (ocp ? &F_E5M2_OCP : &F_E5M2_FNUZ) : (ocp ? &F_E4M3_OCP : &F_E4M3_FNUZ);
}

static float mf8_decode(uint8_t b, const mf8 *F)
{
    int s = b >> 7;
    unsigned e = (b >> F->mbits) & ((1u << F->ebits) - 1), m = b & ((1u << F->mbits) - 1);
    unsigned emax = (1u << F->ebits) - 1;
    if (F->fnuz) {
        if (b == 0x80) return NAN;
    } else if (F->inf) {
        if (e == emax) return m ? NAN : (s ? -INFINITY : INFINITY);
    } else if (e == emax && m == (1u << F->mbits) - 1) {
        return NAN;
    }
    double v = e ? ldexp(1.0 + m / (double)(1 << F->mbits), (int)e - F->bias)
                 : ldexp(m / (double)(1 << F->mbits), 1 - F->bias);
    return (float)(s ? -v : v);
}

/* Encode with round-to-nearest-even (rnd < 0) or stochastic rounding with
 * the 32 random bits rnd. */
static uint8_t mf8_encode(float f, const mf8 *F, int clamp, int64_t rnd)
{
    uint8_t nan = F->fnuz ? 0x80 : (uint8_t)(F->inf ? 0x7f : 0x7f);
    if (isnan(f))
        return nan;
    int s = signbit(f) ? 1 : 0;
    double a = fabs((double)f);
    uint8_t sb = (uint8_t)(s << 7);
    if (isinf(f) && !clamp)
        return F->inf ? (uint8_t)(sb | 0x7c) : nan;
    int minexp = 1 - F->bias;
    int e;
    frexp(a, &e);
    e -= 1;                                  /* a = 1.x * 2^e */
    if (e < minexp) e = minexp;
    double q = ldexp(1.0, e - F->mbits);     /* quantum at this exponent */
    double m = a / q, mr;
    if (rnd < 0) {
        mr = nearbyint(m);                   /* host is in round-to-nearest-even */
    } else {
        mr = floor(m + (double)rnd / 4294967296.0);
    }
    double v = mr * q;
    if (v > F->max || isinf(a)) {
        if (clamp)
            v = F->max;
        else
            return F->inf ? (uint8_t)(sb | 0x7c) : (F->fnuz ? nan : (uint8_t)(sb | 0x7f));
    }
    if (v == 0.0)
        return F->fnuz ? 0 : sb;
    int ve;
    frexp(v, &ve);
    ve -= 1;
    unsigned ef, mf;
    if (ve < minexp) {
        ef = 0;
        mf = (unsigned)(v / ldexp(1.0, minexp - F->mbits));
    } else {
        ef = (unsigned)(ve + F->bias);
        mf = (unsigned)(v / ldexp(1.0, ve - F->mbits)) - (1u << F->mbits);
    }
    return (uint8_t)(sb | ef << F->mbits | mf);
}

/* v_cvt_pk_fp8_f32 vdst, src0, src1: two bytes into the word op_sel[3] picks */
static void cvt_pk8(sim_x *x, int bf8)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc_f32(x, 1);
    const uint32_t *Old = x->w->v[x->i->d.r];
    uint32_t *R = x->r[0];
    const mf8 *F = fmt8(x, bf8);
    int hi = x->i->mods.op_sel >> 3 & 1, cl = x->i->mods.clamp || (x->w->hw_mode >> 23 & 1);   /* MODE.FP16_OVFL */
    LANES {
        uint32_t p = mf8_encode(u2f(A[l]), F, cl, -1) | (uint32_t)mf8_encode(u2f(Bv[l]), F, cl, -1) << 8;
        R[l] = hi ? (Old[l] & 0xffff) | p << 16 : (Old[l] & 0xffff0000u) | p;
    }
    sim_vdst(x, R);
}
/* v_cvt_sr_fp8_f32 vdst, src0, src1(random): byte op_sel[3:2] of vdst.
 * Stochastic rounding per the ISA pseudo-code: S1[31:12] (fp8) / S1[31:11]
 * (bf8) is added to the f32 mantissa and the sum truncated (mxfp.c); out of
 * range saturates with clamp or MODE.FP16_OVFL (bit 23), else NaN / inf. */
static void cvt_sr8(sim_x *x, int bf8)
{
    const uint32_t *A = sim_vsrc_f32(x, 0), *Bv = sim_vsrc(x, 1);
    const uint32_t *Old = x->w->v[x->i->d.r];
    uint32_t *R = x->r[0];
    int ocp = sim_target(x) == GCN_TARGET_GFX950;
    const gcn_mxfmt *F = bf8 ? (ocp ? &GCN_MX_E5M2 : &GCN_MX_E5M2FNUZ)
                             : (ocp ? &GCN_MX_E4M3FN : &GCN_MX_E4M3FNUZ);
    unsigned sh = 8 * ((x->i->mods.op_sel >> 2) & 3);
    int sat = x->i->mods.clamp || (x->w->hw_mode >> 23 & 1);
    LANES {
        uint32_t b = gcn_mx_encode(u2f(A[l]), F, 1, Bv[l], sat);
        R[l] = (Old[l] & ~(0xffu << sh)) | b << sh;
    }
    sim_vdst(x, R);
}
/* v_cvt_f32_fp8 vdst, src0: byte selected by SDWA src0_sel or VOP3 op_sel[1:0] */
static void cvt_f32_8(sim_x *x, int bf8)
{
    const sim_insn *i = x->i;
    const uint32_t *A = sim_vsrc(x, 0);      /* SDWA already extracted the byte */
    uint32_t *R = x->r[0];
    const mf8 *F = fmt8(x, bf8);
    unsigned sel = i->enc == GCN_FMT_VOP3 ? (i->mods.op_sel & 3) : 0;
    LANES R[l] = f2u(mf8_decode((uint8_t)(A[l] >> (8 * sel)), F));
    sim_vdst(x, R);
}
/* v_cvt_pk_f32_fp8 vdst[0:1], src0: the word op_sel[0] picks */
static void cvt_pk_f32_8(sim_x *x, int bf8)
{
    const sim_insn *i = x->i;
    const uint32_t *A = sim_vsrc(x, 0);
    const mf8 *F = fmt8(x, bf8);
    unsigned hi = (i->sub == GCN_SUB_SDWA) ? 0 : (i->mods.op_sel & 1);
    uint64_t D[NL];
    LANES {
        uint32_t w = hi ? A[l] >> 16 : A[l];
        D[l] = f2u(mf8_decode((uint8_t)w, F)) | (uint64_t)f2u(mf8_decode((uint8_t)(w >> 8), F)) << 32;
    }
    sim_vdst64(x, D);
}
BODY(V_CVT_PK_FP8_F32) { cvt_pk8(x, 0); }
BODY(V_CVT_PK_BF8_F32) { cvt_pk8(x, 1); }
BODY(V_CVT_SR_FP8_F32) { cvt_sr8(x, 0); }
BODY(V_CVT_SR_BF8_F32) { cvt_sr8(x, 1); }
BODY(V_CVT_F32_FP8) { cvt_f32_8(x, 0); }
BODY(V_CVT_F32_BF8) { cvt_f32_8(x, 1); }
BODY(V_CVT_PK_F32_FP8) { cvt_pk_f32_8(x, 0); }
BODY(V_CVT_PK_F32_BF8) { cvt_pk_f32_8(x, 1); }

const sim_body_ent sim_bodies_cvt[] = {
    B(V_CVT_F32_I32), B(V_CVT_F32_U32), B(V_CVT_I32_F32), B(V_CVT_U32_F32), B(V_CVT_RPI_I32_F32),
    B(V_CVT_FLR_I32_F32), B(V_CVT_OFF_F32_I4), B(V_CVT_F16_F32), B(V_CVT_F32_F16), B(V_CVT_F32_F64),
    B(V_CVT_F64_F32), B(V_CVT_F32_UBYTE0), B(V_CVT_F32_UBYTE1), B(V_CVT_F32_UBYTE2),
    B(V_CVT_F32_UBYTE3), B(V_CVT_I32_F64), B(V_CVT_U32_F64), B(V_CVT_F64_I32), B(V_CVT_F64_U32),
    B(V_CVT_F16_U16), B(V_CVT_F16_I16), B(V_CVT_U16_F16), B(V_CVT_I16_F16), B(V_CVT_NORM_I16_F16),
    B(V_CVT_NORM_U16_F16), B(V_CVT_PKRTZ_F16_F32), B(V_CVT_PKNORM_I16_F32), B(V_CVT_PKNORM_U16_F32),
    B(V_CVT_PKNORM_I16_F16), B(V_CVT_PKNORM_U16_F16), B(V_CVT_PK_U16_U32), B(V_CVT_PK_I16_I32),
    B(V_CVT_PK_U8_F32), B(V_CVT_PKACCUM_U8_F32), B(V_PACK_B32_F16), B(V_SAT_PK_U8_I16), B(V_CVT_PK_BF16_F32),
    B(V_CVT_PK_FP8_F32), B(V_CVT_PK_BF8_F32), B(V_CVT_SR_FP8_F32), B(V_CVT_SR_BF8_F32),
    B(V_CVT_F32_FP8), B(V_CVT_F32_BF8), B(V_CVT_PK_F32_FP8), B(V_CVT_PK_F32_BF8),
    {NULL, NULL, 0}
};
