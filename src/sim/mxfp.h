/*
 * mxfp.h -- one parameterised codec for the small float formats of the
 * conversion instructions: FP8/BF8 (OCP E4M3FN / E5M2 on gfx950, FNUZ on
 * gfx942), the OCP Microscaling element formats FP6 (E2M3), BF6 (E3M2) and
 * FP4 (E2M1), and f16 / bf16 as targets of the stochastic-rounding
 * conversions.  Values travel as doubles (every input of these conversions,
 * scaled by a power of two, is exact in a double).
 *
 * Rounding: round to nearest even, or stochastic rounding as the CDNA3/CDNA4
 * ISA defines it for V_CVT_SR_FP8_F32: the top D = 23 - mbits bits of the
 * 32-bit random value are added to the f32 mantissa of the input (the bits
 * the conversion drops; carry propagates into the exponent) and the sum is
 * truncated ("These ops add a random value ... and then truncate", CDNA4 ISA
 * section 7.3).
 */
#ifndef GCN_SIM_MXFP_H
#define GCN_SIM_MXFP_H

#include <stdint.h>

enum {
    MX_IEEE,     /* all-ones exponent: inf / NaN (E5M2, f16, bf16) */
    MX_FN,       /* no inf; only S.1111.111 is NaN (OCP E4M3FN) */
    MX_FNUZ,     /* no inf, no -0; 0x80 is NaN (gfx942 fp8/bf8) */
    MX_FINITE,   /* no inf, no NaN (OCP FP6/BF6/FP4) */
};

typedef struct gcn_mxfmt {
    uint8_t ebits, mbits, kind;
    int bias;
} gcn_mxfmt;

extern const gcn_mxfmt GCN_MX_E4M3FN, GCN_MX_E5M2, GCN_MX_E4M3FNUZ, GCN_MX_E5M2FNUZ,
    GCN_MX_E2M3, GCN_MX_E3M2, GCN_MX_E2M1, GCN_MX_F16, GCN_MX_BF16;

/* Largest finite magnitude of F. */
double gcn_mx_max(const gcn_mxfmt *F);
/* Value of code c (NaN for the NaN codes). */
double gcn_mx_decode(uint32_t c, const gcn_mxfmt *F);
/* Code of v: sr = 0 round to nearest even, else stochastic rounding with the
 * random bits rnd.  Out of range after rounding (and infinities): sat = 1
 * gives the signed largest finite value; else infinity (MX_IEEE), NaN
 * (MX_FN, MX_FNUZ) or, for the formats without either, the largest finite
 * value as well.  NaN gives the format's NaN with all mantissa bits set (0x7f
 * for E4M3FN and E5M2, as the simulator's unscaled FP8 conversions; callers
 * give f16/bf16 NaNs themselves), 0x80 for FNUZ; MX_FINITE has none: the
 * largest value.  NaN results are positive (assumptions: the ISA leaves NaN
 * codes and signs and the FP4/FP6 NaN conversion open). */
uint32_t gcn_mx_encode(double v, const gcn_mxfmt *F, int sr, uint32_t rnd, int sat);

#endif
