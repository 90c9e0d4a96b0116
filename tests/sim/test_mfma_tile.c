/*
 * test_mfma_tile.c -- the fast tile path of the matrix-core numerics
 * (gcn_mfma_num_tile, src/sim/mfma_tile.c) against the general per-element path
 * (gcn_mfma_num_dot, src/sim/mfma_num.c), bit for bit.
 *
 * For f16, bf16 and xf32 and every shape those instructions have (M x N x K per block:
 * 32x32x8/4/16, 16x16x16/8/32, 4x4x4, 32x32x2 ...), random tiles from generators chosen
 * to hit the edges of the proof in mfma_tile.c: ordinary values, wide exponent spreads
 * (products truncated or dropped entirely), subnormals and signed zeros in A, B and C,
 * exact cancellation, C far above and far below the products, products near 2^128
 * and sums that overflow, inf / NaN inputs.  Whenever the tile path accepts a tile every
 * element must equal gcn_mfma_num_dot's; where it declines, nothing is checked, but the
 * generators whose inputs the proof covers must be accepted (so the fast path is really
 * exercised).  Exit 0 when all agree, 1 otherwise (first differences printed).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/gcn_mfma_num.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)(rng >> 16);
}

/* Bits of an element of type t with sign s, biased exponent field e, mantissa m
 * (field widths of the type; xf32 is an f32 whose low 13 bits are noise). */
static uint32_t mk(gcn_mfma_type t, unsigned s, unsigned e, uint32_t m)
{
    switch (t) {
    case GCN_MT_F16:  return s << 15 | (e & 31) << 10 | (m & 0x3ff);
    case GCN_MT_BF16: return s << 15 | (e & 255) << 7 | (m & 0x7f);
    default:          return s << 31 | (e & 255) << 23 | (m & 0x7fffff);
    }
}

static unsigned emax_of(gcn_mfma_type t)
{
    return t == GCN_MT_F16 ? 31 : 255;
}

/* One element by generator g (0..7); which: 0 A, 1 B, 2 C (f32). */
static uint32_t gen(gcn_mfma_type t, int g, int which)
{
    gcn_mfma_type tt = which == 2 ? GCN_MT_F32 : t;
    unsigned em = emax_of(tt), bias = em / 2;
    unsigned s = rnd() & 1;
    uint32_t m = rnd() ^ rnd() << 7;
    unsigned r = rnd() % 100;
    switch (g) {
    case 0:                                     /* ordinary: exponents near 1 */
        return mk(tt, s, bias - 3 + rnd() % 7, m);
    case 1:                                     /* wide spread, products < 2^128 */
        if (tt == GCN_MT_F16 || which == 2)
            return mk(tt, s, 1 + rnd() % (em - 1), m);
        return mk(tt, s, 1 + rnd() % (bias + 62), m);
    case 2:                                     /* zeros and subnormals */
        if (r < 30)
            return mk(tt, s, 0, 0);
        if (r < 70)
            return mk(tt, s, 0, m);
        return mk(tt, s, r < 85 ? 1 : bias - 2 + rnd() % 4, m);
    case 3:                                     /* few distinct values: cancellation */
        return mk(tt, s, bias + (rnd() % 3), (rnd() % 4) << (tt == GCN_MT_BF16 ? 5 : 8));
    case 4:                                     /* C huge or tiny against the products */
        if (which == 2)
            return r < 50 ? mk(tt, s, bias + 40 + rnd() % 60, m) : mk(tt, s, rnd() % 3, m);
        return mk(tt, s, bias - 2 + rnd() % 4, m);
    case 5:                                     /* products near 2^128, sums overflow */
        if (which == 2)
            return mk(tt, s, bias + 120 + rnd() % 8, m);
        if (tt == GCN_MT_F16)
            return mk(tt, s, em - 1 - rnd() % 2, m);
        return mk(tt, s, bias + 62 + rnd() % 2, m);
    case 6:                                     /* a few inf / NaN among ordinary ones */
        if (r < 3)
            return mk(tt, s, em, r < 1 ? 0 : m | 1);
        return mk(tt, s, bias - 3 + rnd() % 7, m);
    default:                                    /* any bits */
        return which == 2 || tt == GCN_MT_XF32 ? rnd() ^ rnd() << 16 : rnd() & 0xffff;
    }
}

int main(void)
{
    static const struct { gcn_mfma_type t; unsigned m, n, k; } sh[] = {
        {GCN_MT_BF16, 32, 32, 8}, {GCN_MT_BF16, 16, 16, 16}, {GCN_MT_BF16, 32, 32, 4},
        {GCN_MT_BF16, 16, 16, 4}, {GCN_MT_BF16, 4, 4, 4}, {GCN_MT_BF16, 32, 32, 16},
        {GCN_MT_BF16, 16, 16, 32}, {GCN_MT_BF16, 32, 32, 2}, {GCN_MT_BF16, 4, 4, 2},
        {GCN_MT_F16, 32, 32, 8}, {GCN_MT_F16, 16, 16, 16}, {GCN_MT_F16, 4, 4, 4},
        {GCN_MT_F16, 32, 32, 16}, {GCN_MT_F16, 16, 16, 32}, {GCN_MT_F16, 32, 32, 4},
        {GCN_MT_XF32, 32, 32, 4}, {GCN_MT_XF32, 16, 16, 8},
    };
    static uint32_t A[64 * 64], Bt[64 * 64], Bk[64 * 64], C[64 * 64], D[64 * 64];
    unsigned long accepted[8] = {0}, tried[8] = {0}, compared = 0;
    int bad = 0;
    for (size_t si = 0; si < sizeof sh / sizeof sh[0]; si++) {
        unsigned M = sh[si].m, N = sh[si].n, K = sh[si].k;
        for (int gfx950 = 0; gfx950 < 2; gfx950++) {
            gcn_mfma_num nm;
            gcn_mfma_num_init(&nm, sh[si].t, sh[si].t, GCN_MT_F32, gfx950);
            for (int g = 0; g < 8; g++) {
                for (int rep = 0; rep < 12; rep++) {
                    for (unsigned p = 0; p < M * K; p++)
                        A[p] = gen(sh[si].t, g, 0);
                    for (unsigned p = 0; p < N * K; p++)
                        Bt[p] = gen(sh[si].t, g, 1);
                    for (unsigned p = 0; p < M * N; p++)
                        C[p] = gen(sh[si].t, g, 2);
                    if (g == 3)                 /* exact cancellation: B column j of */
                        for (unsigned p = 0; p < N * K; p += 2 * K)   /* j+1 negated */
                            for (unsigned q = 0; q < K && p + K + q < N * K; q++)
                                Bt[p + K + q] = Bt[p + q] ^ (sh[si].t == GCN_MT_XF32
                                                             ? 0x80000000u : 0x8000u);
                    for (unsigned j = 0; j < N; j++)
                        for (unsigned k = 0; k < K; k++)
                            Bk[k * N + j] = Bt[j * K + k];
                    tried[g]++;
                    if (gcn_mfma_num_tile(&nm, M, N, K, A, Bk, C, D))
                        continue;
                    accepted[g]++;
                    for (unsigned i = 0; i < M; i++)
                        for (unsigned j = 0; j < N; j++) {
                            uint32_t want = gcn_mfma_num_dot(&nm, &A[i * K], &Bt[j * K], K,
                                                             C[i * N + j], NULL);
                            compared++;
                            if (want != D[i * N + j] && bad++ < 10)
                                printf("FAIL %s %ux%ux%u gen %d: D[%u][%u] = %08x, "
                                       "general path %08x\n",
                                       gcn_mfma_type_name(sh[si].t), M, N, K, g, i, j,
                                       D[i * N + j], want);
                        }
                }
            }
        }
    }
    /* generators 0-4 are inside the proof's conditions: every tile must be taken */
    for (int g = 0; g < 5; g++)
        if (accepted[g] != tried[g]) {
            printf("FAIL generator %d: the tile path declined %lu of %lu tiles it covers\n", g,
                   tried[g] - accepted[g], tried[g]);
            bad++;
        }
    if (!accepted[5] || accepted[5] == tried[5])
        printf("note: generator 5 (overflow edge) accepted %lu of %lu\n", accepted[5],
               tried[5]);
    if (accepted[6] == tried[6] || accepted[7] == tried[7]) {
        printf("FAIL: inf / NaN inputs were accepted by the tile path\n");
        bad++;
    }
    uint64_t routes[3];
    gcn_mfma_num_tile_routes(routes);
    for (int r = 0; r < 3; r++)
        if (routes[r] < 100) {
            printf("FAIL: tile route %d taken only %llu times\n", r,
                   (unsigned long long)routes[r]);
            bad++;
        }
    printf("%lu elements compared (routes %llu / %llu / %llu), %s\n", compared,
           (unsigned long long)routes[0], (unsigned long long)routes[1],
           (unsigned long long)routes[2], bad ? "differences" : "all equal");
    return bad ? 1 : 0;
}
