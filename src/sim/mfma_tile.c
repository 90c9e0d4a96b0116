/*
 * mfma_tile.c -- the fast path of the matrix-core numerics: a whole tile (one block of
 * one instruction) of FUSED f16 / bf16 / xf32 arithmetic at once, vectorised across the
 * columns j of a row, bit-identical to gcn_mfma_num_dot (src/sim/mfma_num.c) on every
 * input it accepts; it declines (returns -1) the rest, which then take the general path.
 *
 * Why it is exact.  Accepted: every A and B element finite, the largest A exponent plus
 * the largest B exponent <= 126 (so no product reaches 2^128 and no group is special),
 * every C finite, and every group result finite (C and results are checked as it goes;
 * an inf / NaN anywhere declines the whole tile).  On
 * such inputs mfma_num.c's group step (fused_group_fast, the MMA-Sim "fused dot, round
 * down, add" model of docs/mfma.md) computes, with ep = ea + eb the product exponents
 * (decoded exponents: floor(log2|x|), 1 - bias for a subnormal, -126 for a zero) and
 * E = max ep over the group:
 *   t_p = trunc(|a_p * b_p| * 2^(24 - E)) with the product's sign,  S = sum t_p,
 *   mx = max(E, ec),  Sp = floor(S * 2^(7 + E - mx)),  Cp = floor(C * 2^(24 - mx)),
 *   D = round_f32_rne((Sp + 128 * Cp) * 2^(mx - 31)).
 * Here every step is done in binary64 and each one is exact: a*b has at most 22
 * significant bits (11 x 11, f16 and tf32; bf16 8 x 8), scaling by a power of two in
 * 2^-700..2^700 neither overflows nor underflows a double, trunc/floor of a double are
 * exact, |t_p| < 2^26 so the sum of at most 16 of them is an exact integer below 2^30
 * (sum order therefore irrelevant), |Sp + 128 Cp| < 2^40, and the last product by a
 * power of two is exact; the only rounding is the final conversion to float (RNE, the
 * host's default mode, as in mfma_num.c).  A sum that is an integer zero is made +0
 * (mfma_num.c's integer R = 0 gives +0.0).  A group result feeds the next group as C,
 * exactly as gcn_mfma_num_dot_vals chains groups.
 * tests/sim/test_mfma_tile.c compares this with gcn_mfma_num_dot on adversarial inputs.
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math")
#endif

#include "gcn_mfma_num.h"

#include <math.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(GCN_NO_CLONES)
#define TILE_HOT __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define TILE_HOT
#endif

enum { TMAX_MK = 2048, TMAX_N = 64, TMAX_K = 64 };

/* How many column chunks x groups took each route (tests check all are exercised). */
static _Thread_local uint64_t route_count[3];

void gcn_mfma_num_tile_routes(uint64_t out[3])
{
    memcpy(out, route_count, sizeof route_count);
}

/* 2^e as a double, e in -1022..1023 (bit construction, vectorisable). */
static inline double pow2i(int64_t e)
{
    union { int64_t i; double d; } u = {.i = (1023 + e) << 52};
    return u.d;
}

/* Exponent of the lowest set bit of m > 0 (vectorisable: through a double). */
static inline int64_t lsb_exp(int64_t m)
{
    union { double d; int64_t i; } u = {.d = (double)(m & -m)};
    return (u.i >> 52) - 1023;
}

/* Decode n f16 / bf16 / xf32 elements: values (signed, exact in a double), decoded
 * exponents e (as mfma_num.c's decode: floor(log2|x|), 1 - bias for a subnormal, -126
 * for a zero) and z, the exponent of the element's lowest set bit (ZERO_Z for a zero).
 * Returns the largest e, or a value above 1000 when an element is inf or NaN.  Plain
 * loops over arrays, so that they vectorise. */
enum { ZERO_Z = 100000 };
TILE_HOT static int64_t dec_n(gcn_mfma_type t, const uint32_t *bits, size_t n, double *v,
                              int64_t *e, int64_t *z)
{
    int64_t mx = -100000, special = 0;
    if (t == GCN_MT_F16) {
        for (size_t p = 0; p < n; p++) {
            int64_t x = bits[p] & 0xffff;
            int64_t E = (x >> 10) & 31, M = x & 0x3ff;
            int64_t m = E ? M | 0x400 : M, u = (E ? E : 1) - 25;
            double d = (double)m * pow2i(u);
            v[p] = (x >> 15) ? -d : d;
            e[p] = E ? E - 15 : (M ? -14 : -126);
            z[p] = m ? u + lsb_exp(m) : ZERO_Z;
            special |= E == 31;
            mx = e[p] > mx ? e[p] : mx;
        }
    } else {        /* bf16 (the high half of an f32) and xf32 (f32, 13 low bits cut) */
        int sh = t == GCN_MT_BF16 ? 16 : 0;
        uint32_t keep = t == GCN_MT_BF16 ? 0xffff0000u : 0xffffe000u;
        for (size_t p = 0; p < n; p++) {
            union { uint32_t u; float f; } u = {.u = (bits[p] << sh) & keep};
            int64_t E = (u.u >> 23) & 0xff;
            int64_t m = (u.u & 0x7fffff) | (E ? 0x800000 : 0);
            v[p] = u.f;
            e[p] = E ? E - 127 : -126;
            z[p] = m ? (E ? E : 1) - 150 + lsb_exp(m) : ZERO_Z;
            special |= E == 255;
            mx = e[p] > mx ? e[p] : mx;
        }
    }
    return special ? 100000 : mx;
}

/* Columns j0 .. j0+W-1 of row i (W a constant after inlining, so that the per-column
 * state stays in vector registers): the K/g groups, each one's result the next one's C.
 * ge/gz: largest exponent / lowest set bit of row i's A elements per group; he/hz: the
 * same of each column's B elements per group ([group][N]). */
static inline __attribute__((always_inline)) int64_t
tile_cols(unsigned W, unsigned N, unsigned K, unsigned g, const double *av, const int64_t *ae,
          const int64_t *ge, const int64_t *gz, const double *bv, const int64_t *be,
          const int64_t *he, const int64_t *hz, const uint32_t *c, uint32_t *d)
{
    int64_t bad = 0, ce[32], cz[32];
    double cv[32];
    for (unsigned l = 0; l < W; l++) {          /* C: an inf / NaN declines the tile */
        union { uint32_t u; float f; } u = {.u = c[l]};
        int64_t E = (u.u >> 23) & 0xff, m = (u.u & 0x7fffff) | (E ? 0x800000 : 0);
        bad |= E == 0xff;
        cv[l] = u.f;
        ce[l] = E - 127 + (E == 0);
        cz[l] = m ? ce[l] - 23 + lsb_exp(m) : ZERO_Z;
    }
    for (unsigned k0 = 0; k0 < K; k0 += g) {
        size_t gi = k0 / g;
        const int64_t *hel = &he[gi * N], *hzl = &hz[gi * N];
        float f[32];
        /* Bounds: E <= eH = ge + he (E: the group's largest product exponent), every
         * product a multiple of 2^dz (dz = gz + hz), C a multiple of 2^zc (zc: C's
         * lowest set bit, any power for a zero C); mx = max(E, ec) <= X = max(eH, ec).
         * (0) dz >= eH - 24: no product is truncated, S = sum(a*b) * 2^(24-E) exactly;
         * (1) dz >= X - 31: sum(a*b) * 2^(31-mx) is an integer, Sp's floor is exact;
         * (2) zc >= X - 24: C * 2^(24-mx) is an integer, Cp's floor is exact.
         * With all three R * 2^(mx-31) = C + sum(a*b), and D = f32(C + sum(a*b)), the
         * sum exact in double (terms multiples of 2^(X-31), |sum| < 2^(X+7)). */
        int64_t rounded = 0, inexact = 0;
        for (unsigned l = 0; l < W; l++) {
            int64_t eH = ge[gi] + hel[l], dz = gz[gi] + hzl[l];
            int64_t X = eH > ce[l] ? eH : ce[l];
            int64_t zc = cz[l];
            inexact |= dz < eH - 24;
            rounded |= (dz < X - 31) | (zc < X - 24);
        }
        route_count[inexact ? 2 : rounded ? 1 : 0]++;
        if (!(inexact | rounded)) {
            double S[32];
            for (unsigned l = 0; l < W; l++)
                S[l] = cv[l];
            for (unsigned q = k0; q < k0 + g; q++) {
                double a = av[q];
                const double *b = &bv[(size_t)q * N];
                for (unsigned l = 0; l < W; l++)
                    S[l] = fma(a, b[l], S[l]);
            }
            for (unsigned l = 0; l < W; l++)
                f[l] = (float)(S[l] + 0.0);
        } else {
            int64_t em[32];
            double S[32], sc[32];
            for (unsigned l = 0; l < W; l++) {
                em[l] = -100000;
                S[l] = 0;
            }
            for (unsigned q = k0; q < k0 + g; q++) {
                int64_t ea = ae[q];
                const int64_t *eb = &be[(size_t)q * N];
                for (unsigned l = 0; l < W; l++) {
                    int64_t x = ea + eb[l];
                    em[l] = x > em[l] ? x : em[l];
                }
            }
            if (!inexact) {     /* (0): S = sum(a*b) * 2^(24-E), the sum exact */
                for (unsigned q = k0; q < k0 + g; q++) {
                    double a = av[q];
                    const double *b = &bv[(size_t)q * N];
                    for (unsigned l = 0; l < W; l++)
                        S[l] = fma(a, b[l], S[l]);
                }
                for (unsigned l = 0; l < W; l++)
                    sc[l] = pow2i(31 - (em[l] > ce[l] ? em[l] : ce[l]));
            } else {
                for (unsigned l = 0; l < W; l++)
                    sc[l] = pow2i(24 - em[l]);
                for (unsigned q = k0; q < k0 + g; q++) {
                    double a = av[q];
                    const double *b = &bv[(size_t)q * N];
                    for (unsigned l = 0; l < W; l++)
                        S[l] += trunc(a * b[l] * sc[l]);
                }
                for (unsigned l = 0; l < W; l++)
                    sc[l] = pow2i(7 + em[l] - (em[l] > ce[l] ? em[l] : ce[l]));
            }
            for (unsigned l = 0; l < W; l++) {
                int64_t mx = em[l] > ce[l] ? em[l] : ce[l];
                double Sp = floor(S[l] * sc[l]);
                double Cp = floor(cv[l] * pow2i(24 - mx));
                double R = (Sp + 128.0 * Cp) + 0.0;
                f[l] = (float)(R * pow2i(mx - 31));
            }
        }
        uint32_t u[32];
        memcpy(u, f, W * 4);
        for (unsigned l = 0; l < W; l++) {
            int64_t E = (u[l] >> 23) & 0xff, m = (u[l] & 0x7fffff) | (E ? 0x800000 : 0);
            bad |= E == 0xff;
            cv[l] = f[l];
            ce[l] = E - 127 + (E == 0);
            cz[l] = m ? ce[l] - 23 + lsb_exp(m) : ZERO_Z;
        }
    }
    for (unsigned l = 0; l < W; l++) {
        union { float f; uint32_t u; } u = {.f = (float)cv[l]};
        d[l] = u.u;
    }
    return bad;
}

/* he/hz[group][j]: largest exponent / lowest set bit of column j's B elements in each
 * group (B as [k][j]). */
TILE_HOT static void tile_colstats(unsigned N, unsigned K, unsigned g, const int64_t *be,
                                   const int64_t *bz, int64_t *he, int64_t *hz)
{
    for (unsigned k0 = 0; k0 < K; k0 += g) {
        int64_t *h = &he[(size_t)(k0 / g) * N], *z = &hz[(size_t)(k0 / g) * N];
        for (unsigned j = 0; j < N; j++) {
            h[j] = -100000;
            z[j] = ZERO_Z;
        }
        for (unsigned k = k0; k < k0 + g; k++) {
            const int64_t *e = &be[(size_t)k * N], *y = &bz[(size_t)k * N];
            for (unsigned j = 0; j < N; j++) {
                h[j] = e[j] > h[j] ? e[j] : h[j];
                z[j] = y[j] < z[j] ? y[j] : z[j];
            }
        }
    }
}

/* One row i: every column, C row c, result row d; -1 when a group result is inf/NaN. */
TILE_HOT static int tile_row(unsigned N, unsigned K, unsigned g, const double *av,
                             const int64_t *ae, const int64_t *ge, const int64_t *gz,
                             const double *bv, const int64_t *be, const int64_t *he,
                             const int64_t *hz, const uint32_t *c, uint32_t *d)
{
    int64_t bad = 0;
#define TILE_COLS(W)                                                                     \
    for (unsigned j0 = 0; j0 < N; j0 += W)                                               \
        bad |= tile_cols(W, N, K, g, av, ae, ge, gz, &bv[j0], &be[j0], &he[j0], &hz[j0], \
                         &c[j0], &d[j0])
    if (N % 32 == 0)
        TILE_COLS(32);
    else if (N % 16 == 0)
        TILE_COLS(16);
    else if (N % 8 == 0)
        TILE_COLS(8);
    else if (N % 4 == 0)
        TILE_COLS(4);
    else
        TILE_COLS(1);
#undef TILE_COLS
    return bad ? -1 : 0;
}

int gcn_mfma_num_tile(const gcn_mfma_num *nm, unsigned M, unsigned N, unsigned K,
                      const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d)
{
    if (nm->alg != GCN_MA_FUSED || nm->ta != nm->tb || nm->tc != GCN_MT_F32 ||
        (nm->ta != GCN_MT_F16 && nm->ta != GCN_MT_BF16 && nm->ta != GCN_MT_XF32))
        return -1;
    if (M % 4 == 0 && N % 8 == 0 && K <= TMAX_K && (size_t)M * N <= 1024 &&
        (size_t)M * K <= TMAX_MK && (size_t)N * K <= TMAX_MK) {
        /* the tile-wide exact route first (mfma_exact.c): A[i][k] at a[k + i*K],
         * B[k][j] at b[k*N + j], C/D rows of N */
        uint16_t aw[TMAX_K], bw[TMAX_K];
        uint8_t zb[TMAX_K] = {0};
        for (unsigned k = 0; k < K; k++) {
            aw[k] = (uint16_t)k;
            bw[k] = (uint16_t)(k * N);
        }
        gcn_mfma_tile_src s = {a, b, c, d, aw, bw, NULL, zb, zb, K};
        if (!gcn_mfma_num_tile_exact(nm, M, N, K, &s))
            return 0;
    }
    unsigned g = nm->group < K ? nm->group : K;
    if (!g || K % g || g > 16 || N > TMAX_N || K > TMAX_K || (size_t)M * K > TMAX_MK ||
        (size_t)N * K > TMAX_MK)
        return -1;
    double av[TMAX_MK], bv[TMAX_MK];
    int64_t ae[TMAX_MK], be[TMAX_MK], az[TMAX_MK], bz[TMAX_MK];
    int64_t ge[TMAX_K], gz[TMAX_K], he[TMAX_MK], hz[TMAX_MK];
    int64_t amax = dec_n(nm->ta, a, (size_t)M * K, av, ae, az);
    int64_t bmax = dec_n(nm->tb, b, (size_t)N * K, bv, be, bz);
    if (amax > 126 || bmax > 126 || amax + bmax > 126)
        return -1;
    tile_colstats(N, K, g, be, bz, he, hz);
    for (unsigned i = 0; i < M; i++) {
        const int64_t *aei = &ae[(size_t)i * K], *azi = &az[(size_t)i * K];
        for (unsigned k0 = 0; k0 < K; k0 += g) {
            int64_t mz = ZERO_Z, me = -100000;
            for (unsigned k = k0; k < k0 + g; k++) {
                mz = azi[k] < mz ? azi[k] : mz;
                me = aei[k] > me ? aei[k] : me;
            }
            ge[k0 / g] = me;
            gz[k0 / g] = mz;
        }
        if (tile_row(N, K, g, &av[(size_t)i * K], aei, ge, gz, bv, be, he, hz,
                     &c[(size_t)i * N], &d[(size_t)i * N]))
            return -1;
    }
    return 0;
}
