/*
 * fp.h -- bit-exact floating-point helpers of the simulator: f16 / bf16 <->
 * f32 conversions with the four IEEE rounding modes, denormal flushing,
 * quiet-NaN handling, and the MODE register's float fields.
 *
 * MODE (hwreg 1) on gfx9: [1:0] FP_ROUND f32, [3:2] FP_ROUND f16/f64 (0 nearest
 * even, 1 +inf, 2 -inf, 3 toward zero); [5:4] FP_DENORM f32, [7:6] FP_DENORM
 * f16/f64 (bit 0 of the field: input denormals kept, bit 1: output denormals
 * kept); [8] DX10_CLAMP; [9] IEEE (AMD CDNA3 ISA "MODE"; LLVM SIDefines.h
 * FP_ROUND_* / FP_DENORM_*).
 */
#ifndef GCN_SIM_FP_H
#define GCN_SIM_FP_H

#include <stdint.h>
#include <string.h>
#include <math.h>

enum { RM_NE = 0, RM_UP = 1, RM_DN = 2, RM_ZERO = 3 };

static inline float fp_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t fp_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static inline int f32_is_nan(uint32_t u) { return (u & 0x7fffffffu) > 0x7f800000u; }
static inline int f16_is_nan(uint16_t u) { return (u & 0x7fffu) > 0x7c00u; }
static inline int f64_is_nan(uint64_t u) { return (u & 0x7fffffffffffffffull) > 0x7ff0000000000000ull; }
static inline int f32_is_denorm(uint32_t u) { return (u & 0x7f800000u) == 0 && (u & 0x7fffffu); }
static inline int f16_is_denorm(uint16_t u) { return (u & 0x7c00u) == 0 && (u & 0x3ffu); }
static inline int f64_is_denorm(uint64_t u)
{
    return (u & 0x7ff0000000000000ull) == 0 && (u & 0x000fffffffffffffull);
}
static inline uint32_t f32_flush(uint32_t u) { return (u & 0x7f800000u) ? u : u & 0x80000000u; }
static inline uint16_t f16_flush(uint16_t u) { return (u & 0x7c00u) ? u : (uint16_t)(u & 0x8000u); }
static inline uint64_t f64_flush(uint64_t u)
{
    return (u & 0x7ff0000000000000ull) ? u : u & 0x8000000000000000ull;
}

/* f16 -> f32 (exact; NaN payload kept, made quiet only by arithmetic). */
static inline float fp_h2f(uint16_t h)
{
    uint32_t s = (uint32_t)(h >> 15) << 31, e = (h >> 10) & 0x1f, m = h & 0x3ff;
    if (e == 0) {
        float f = (float)m * 0x1p-24f;
        return s ? -f : f;
    }
    if (e == 31)
        return fp_u2f(s | 0x7f800000u | (m << 13));
    return fp_u2f(s | ((e + 112) << 23) | (m << 13));
}

/* Round-increment decision for a truncated magnitude r with remainder rem of
 * a field whose half is `half`, under rounding mode rm. */
static inline int fp_round_up(uint32_t r, uint64_t rem, uint64_t half, int sign, int rm)
{
    switch (rm) {
    case RM_NE: return rem > half || (rem == half && (r & 1));
    case RM_UP: return rem && !sign;
    case RM_DN: return rem && sign;
    default: return 0;
    }
}

/* f32 -> f16 with rounding mode; NaNs become quiet NaNs keeping the top
 * payload bits; overflow gives inf or the largest finite per rounding mode. */
static inline uint16_t fp_f2h(float f, int rm)
{
    uint32_t u = fp_f2u(f);
    uint16_t s = (uint16_t)((u >> 16) & 0x8000);
    uint32_t a = u & 0x7fffffffu;
    int neg = s != 0;
    if (a >= 0x7f800000u) {
        if (a == 0x7f800000u)
            return s | 0x7c00;
        return (uint16_t)(s | 0x7e00 | ((a >> 13) & 0x3ff));
    }
    if (a >= 0x47800000u) {        /* >= 65536: overflow in every mode */
        int inf = rm == RM_NE || (rm == RM_UP && !neg) || (rm == RM_DN && neg);
        return s | (inf ? 0x7c00 : 0x7bff);
    }
    if (a < 0x38800000u) {         /* result is an f16 denormal or zero */
        if (a == 0)
            return s;
        uint32_t e = a >> 23, m = (a & 0x7fffffu) | (e ? 0x800000u : 0);
        if (e == 0) e = 1;
        unsigned shift = 126 - e;  /* value * 2^24 = m * 2^(e-126), shift >= 14 */
        uint32_t r;
        uint64_t rem, half;
        if (shift >= 32) {          /* far below half an f16 ulp, but not zero */
            r = 0;
            rem = 1;
            half = 2;
        } else {
            r = m >> shift;
            rem = m & ((1u << shift) - 1);
            half = 1ull << (shift - 1);
        }
        if (fp_round_up(r, rem, half, neg, rm))
            r++;
        return (uint16_t)(s | r);
    }
    uint32_t r = (a - 0x38000000u) >> 13, rem = a & 0x1fff;
    if (fp_round_up(r, rem, 0x1000, neg, rm))
        r++;
    if (r >= 0x7c00) {             /* rounded past the largest finite */
        int inf = rm == RM_NE || (rm == RM_UP && !neg) || (rm == RM_DN && neg);
        return s | (inf ? 0x7c00 : 0x7bff);
    }
    return (uint16_t)(s | r);
}

/* bf16 <-> f32. */
static inline float fp_bf2f(uint16_t b) { return fp_u2f((uint32_t)b << 16); }
static inline uint16_t fp_f2bf(float f, int rm)
{
    uint32_t u = fp_f2u(f);
    if (f32_is_nan(u))
        return (uint16_t)((u >> 16) | 0x40);
    uint32_t r = u >> 16, rem = u & 0xffff;
    int neg = u >> 31;
    uint32_t mag = r & 0x7fff;
    if (fp_round_up(mag, rem, 0x8000, neg, rm))
        r++;
    if ((r & 0x7fff) == 0x7f80 && (u & 0x7fffffff) < 0x7f800000u && rm != RM_NE &&
        !((rm == RM_UP && !neg) || (rm == RM_DN && neg)))
        r--;                        /* directed rounding away from inf */
    return (uint16_t)r;
}

/* Quiet a NaN (set the quiet bit). */
static inline uint32_t f32_quiet(uint32_t u) { return f32_is_nan(u) ? u | 0x400000u : u; }
static inline uint16_t f16_quiet(uint16_t u) { return f16_is_nan(u) ? (uint16_t)(u | 0x200u) : u; }
static inline uint64_t f64_quiet(uint64_t u)
{
    return f64_is_nan(u) ? u | 0x0008000000000000ull : u;
}

#endif
