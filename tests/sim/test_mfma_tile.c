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
 * and sums that overflow, inf / NaN inputs, and data every partial sum of which is
 * exact in binary32 (generator 8) or binary64 (9), which the tile-wide exact route
 * (src/sim/mfma_exact.c) takes, and data on both sides of that route's conditions (10).  Whenever the tile path accepts a tile every
 * element must equal gcn_mfma_num_dot's; where it declines, nothing is checked, but the
 * generators whose inputs the proof covers must be accepted (so the fast path is really
 * exercised).  Then whole instructions: every dense f16 / bf16 / xf32 MFMA through
 * gcn_mfma_run and its register layouts (insns()).
 * Exit 0 when all agree, 1 otherwise (first differences printed).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gcn_decode.h"
#include "sim/gcn_mfma.h"
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

static uint32_t fbits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* The bits of value v (exactly representable) as an element of type t. */
static uint32_t elem(gcn_mfma_type t, double v)
{
    if (t == GCN_MT_F16) {
        _Float16 h = (_Float16)v;
        uint16_t u;
        memcpy(&u, &h, 2);
        return u;
    }
    uint32_t u = fbits((float)v);
    return t == GCN_MT_BF16 ? u >> 16 : u;
}

/* Generator 10, drawn per tile: A, B and C elements are random integers of edge[w][0]
 * bits times 2^(edge[w][1] + 0..edge[w][2]), so that the products' spread of exponents
 * and lowest bits, and C's size and lowest bit against them, fall on both sides of each
 * of the exact route's conditions (binary32: spread + log2(group) <= 21, C a multiple of
 * the products' lowest bit and below 2^22 of it; binary64: spread <= 24, C a multiple of
 * 2^(eH-24) and below 2^31 of the lowest bit); in a quarter of the tiles every value is
 * the largest such integer, positive, so that sums are as large as the bounds allow. */
static int edge[3][3], edge_max;

static void edge_tile(gcn_mfma_type t)
{
    edge_max = rnd() % 4 == 0;     /* a quarter: all values the largest, all positive */
    unsigned wmax = t == GCN_MT_BF16 ? 8 : 11;
    for (int w = 0; w < 2; w++) {
        edge[w][0] = 1 + (int)(rnd() % wmax);
        edge[w][1] = -(int)(rnd() % 12) - (t == GCN_MT_F16 ? 6 : 0);   /* f16: below 2^11 */
        edge[w][2] = rnd() % 3 ? 0 : (int)(rnd() % 7);
    }
    /* bf16, a third of the tiles: products and sums about 2^-126, from A and B both
     * small or one of them at the bottom of the range (subnormal in some tiles, the other
     * about 1): both sides of the bf16 dot-product form's conditions, which must see no
     * subnormal input, product or sum */
    if (t == GCN_MT_BF16 && rnd() % 3 == 0) {
        int how = (int)(rnd() % 5), lo = how % 2;   /* lo: the one made small (0 A, 1 B) */
        for (int w = 0; w < 2; w++)
            if (how == 4)                           /* both small */
                edge[w][1] -= 58 + (int)(rnd() % 8);
            else if (w == lo)                       /* one at the bottom, */
                edge[w][1] -= 118 + (int)(rnd() % 18);
            else if (how >= 2)                      /* the other large */
                edge[w][1] += 10 + (int)(rnd() % 10);
    }
    edge[2][0] = 1 + (int)(rnd() % 24);
    edge[2][1] = edge[0][1] + edge[1][1] - 6 + (int)(rnd() % 19);
    edge[2][2] = rnd() % 3 ? 0 : (int)(rnd() % 4);
    if (rnd() % 6 == 0) {          /* C of 24 bits from 2^(dz-1) on: many in [2^(dz+22), */
        edge[2][0] = 24;           /* 2^(dz+23)), of either sign, half of them odd */
        edge[2][1] = edge[0][1] + edge[1][1] - 1;
        edge[2][2] = 0;
    }
    if (edge_max) {                /* near the binary32 route's size limits */
        for (int w = 0; w < 2; w++) {
            edge[w][0] = (int)wmax - (int)(rnd() % 3);
            edge[w][2] = 0;
        }
        int sc = (int)(rnd() % 3);                  /* C's lowest bit 2^(dz + sc) */
        edge[2][1] = edge[0][1] + edge[1][1] + sc;
        edge[2][0] = 24 - sc - (int)(rnd() % 4);    /* C below 2^(dz + 21..24) */
        edge[2][2] = 0;
    }
}

/* One element by generator g (0..10); which: 0 A, 1 B, 2 C (f32). */
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
    case 7:                                     /* any bits */
        return which == 2 || tt == GCN_MT_XF32 ? rnd() ^ rnd() << 16 : rnd() & 0xffff;
    case 8:                                     /* kernel data: every sum exact in f32 */
        return which == 2 ? fbits((float)((int)(rnd() % 8193) - 4096) / 256)
                          : elem(t, (double)((int)(rnd() % 31) - 15) / 16);
    case 10: {                                  /* the exact route's edges (edge_tile) */
        const int *q = edge[which];
        int32_t v = (int32_t)(rnd() & ((1u << q[0]) - 1)) * (s ? -1 : 1);
        if (edge_max)                           /* every sum as large as it gets */
            v = (int32_t)((1u << q[0]) - 1);
        double x = ldexp((double)v, q[1] + (int)(rnd() % (unsigned)(q[2] + 1)));
        return which == 2 ? fbits((float)x) : elem(t, x);
    }
    default:                                    /* 9: sums exact in binary64 only */
        if (which == 2)                         /* |C| < 2^4, a multiple of 2^-19 */
            return fbits((float)(((int)(rnd() & 0x7fffff) - 0x400000) * 0x1p-19));
        return elem(t, (double)((int)(rnd() % (t == GCN_MT_BF16 ? 255 : 2047)) -
                                (t == GCN_MT_BF16 ? 127 : 1023)) / 256);
    }
}

/* Whole instructions: every dense f16 / bf16 / xf32 MFMA row on both targets (random
 * CBSZ / ABID / BLGP), run by gcn_mfma_run on register contents from generators 0, 3, 8,
 * 9 and 10 (the exact route reads them straight from the registers), against
 * gcn_mfma_num_dot on the elements gcn_mfma_layout places.  Returns the failures. */
static int insns(void)
{
    static uint32_t RA[16 * 64], RB[16 * 64], RC[32 * 64], RD[32 * 64];
    static const int gens[] = {0, 3, 8, 9, 10, 10, 10, 10};
    int bad = 0;
    unsigned long n = 0;
    for (unsigned id = 1; id < GCN_ID_COUNT; id++) {
        for (int tg = 0; tg < 2; tg++) {
            gcn_target tgt = tg ? GCN_TARGET_GFX950 : GCN_TARGET_GFX942;
            gcn_insn in;
            memset(&in, 0, sizeof in);
            in.id = (uint16_t)id;
            gcn_mfma_info I;
            if (gcn_mfma_info_get(&in, tgt, &I, NULL, 0) || I.sparse || I.scaled ||
                I.ta != I.tb || I.tc != GCN_MT_F32 ||
                (I.ta != GCN_MT_F16 && I.ta != GCN_MT_BF16 && I.ta != GCN_MT_XF32))
                continue;
            gcn_mfma_num nm;
            gcn_mfma_num_init(&nm, I.ta, I.tb, I.tc, tg);
            for (int rep = 0; rep < 32; rep++) {
                int g = gens[rep % 8];
                if (g == 10)
                    edge_tile(I.ta);
                in.m.cbsz = (uint8_t)(rep < 16 ? 0 : rnd() % 5);
                in.m.abid = (uint8_t)(rep < 16 ? 0 : rnd() % 16);
                in.m.blgp = (uint8_t)(rep < 16 ? 0 : rnd() % 8);
                unsigned w = I.ta == GCN_MT_XF32 ? 32 : 16;
                for (unsigned p = 0; p < I.regs_a * 64; p++)
                    RA[p] = w == 32 ? gen(I.ta, g, 0)
                                    : gen(I.ta, g, 0) | gen(I.ta, g, 0) << 16;
                for (unsigned p = 0; p < I.regs_b * 64; p++)
                    RB[p] = w == 32 ? gen(I.tb, g, 1)
                                    : gen(I.tb, g, 1) | gen(I.tb, g, 1) << 16;
                for (unsigned p = 0; p < I.regs_c * 64; p++)
                    RC[p] = gen(I.ta, g, 2);
                gcn_mfma_operands ops = {RA, RB, RC, NULL, NULL, NULL, RD};
                if (gcn_mfma_run(&in, tgt, &ops, NULL, 0)) {
                    printf("FAIL %s: gcn_mfma_run refused it\n", gcn_isa_row_of(id)->mnem);
                    bad++;
                    break;
                }
                for (unsigned b = 0; b < I.blocks; b++)
                    for (unsigned i = 0; i < I.m; i++)
                        for (unsigned j = 0; j < I.n; j++) {
                            uint32_t a[64], bb[64];
                            gcn_mfma_place pl;
                            for (unsigned k = 0; k < I.k; k++) {
                                gcn_mfma_layout(&in, tgt, 'A', b, i, k, &pl);
                                a[k] = (RA[pl.reg * 64 + pl.lane] >> pl.bit) &
                                       (w == 32 ? 0xffffffffu : 0xffffu);
                                gcn_mfma_layout(&in, tgt, 'B', b, k, j, &pl);
                                bb[k] = (RB[pl.reg * 64 + pl.lane] >> pl.bit) &
                                        (w == 32 ? 0xffffffffu : 0xffffu);
                            }
                            gcn_mfma_layout(&in, tgt, 'C', b, i, j, &pl);
                            uint32_t want = gcn_mfma_num_dot(&nm, a, bb, I.k,
                                                             RC[pl.reg * 64 + pl.lane], NULL);
                            gcn_mfma_layout(&in, tgt, 'D', b, i, j, &pl);
                            uint32_t got = RD[pl.reg * 64 + pl.lane];
                            n++;
                            if (got != want && bad++ < 10)
                                printf("FAIL %s %s gen %d cbsz %u abid %u blgp %u: "
                                       "D[%u][%u][%u] = %08x, general path %08x\n",
                                       gcn_isa_row_of(id)->mnem, tg ? "gfx950" : "gfx942", g,
                                       in.m.cbsz, in.m.abid, in.m.blgp, b, i, j, got, want);
                        }
            }
        }
    }
    printf("%lu elements of whole instructions compared\n", n);
    if (n < 100000) {
        printf("FAIL: only %lu elements of whole instructions compared\n", n);
        bad++;
    }
    return bad;
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
    unsigned long accepted[11] = {0}, tried[11] = {0}, compared = 0;
    int bad = 0;
    for (size_t si = 0; si < sizeof sh / sizeof sh[0]; si++) {
        unsigned M = sh[si].m, N = sh[si].n, K = sh[si].k;
        for (int gfx950 = 0; gfx950 < 2; gfx950++) {
            gcn_mfma_num nm;
            gcn_mfma_num_init(&nm, sh[si].t, sh[si].t, GCN_MT_F32, gfx950);
            for (int g = 0; g < 11; g++) {
                for (int rep = 0; rep < (g == 10 ? 200 : 12); rep++) {
                    if (g == 10)
                        edge_tile(sh[si].t);
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
    /* generators 0-4 and 8-9 are inside the proofs' conditions: every tile must be taken */
    for (int g = 0; g < 10; g++)
        if ((g < 5 || g > 7) && accepted[g] != tried[g]) {
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
    bad += insns();
    uint64_t routes[3], ex[3];
    gcn_mfma_num_tile_routes(routes);
    gcn_mfma_num_tile_exact_count(ex);
    static const char *const exname[] = {"binary32", "binary64", "bf16 dot product"};
#if defined(__x86_64__) && defined(__GNUC__)
    int bfdot = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bf16");
#else
    int bfdot = 0;
#endif
    if (!bfdot)
        printf("note: this host has no AVX512-BF16: the bf16 dot-product route is not tested\n");
    for (int r = 0; r < 2 + bfdot; r++)
        if (ex[r] < 100) {
            printf("FAIL: the tile-wide exact route (%s) taken only %llu times\n", exname[r],
                   (unsigned long long)ex[r]);
            bad++;
        }
    for (int r = 0; r < 3; r++)
        if (routes[r] < 100) {
            printf("FAIL: tile route %d taken only %llu times\n", r,
                   (unsigned long long)routes[r]);
            bad++;
        }
    printf("%lu elements compared (per-column routes %llu / %llu / %llu, tile-wide exact "
           "tiles %llu / %llu / %llu), %s\n", compared, (unsigned long long)routes[0],
           (unsigned long long)routes[1], (unsigned long long)routes[2],
           (unsigned long long)ex[0], (unsigned long long)ex[1], (unsigned long long)ex[2],
           bad ? "differences" : "all equal");
    return bad ? 1 : 0;
}
