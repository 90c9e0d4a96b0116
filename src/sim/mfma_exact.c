/*
 * mfma_exact.c -- the tile-wide exact route of the matrix-core numerics: one block of an
 * f16 / bf16 / xf32 MFMA whose every partial sum is exact, computed as a plain binary64
 * GEMM (register-blocked, AVX-512 / AVX2 clones), bit-identical to gcn_mfma_num_dot
 * (src/sim/mfma_num.c).  It reads A, B and C straight from register rows (or arrays)
 * and writes D; it declines (returns -1, nothing written) every tile it cannot prove,
 * which then takes the per-column tile path (mfma_tile.c) or the general one.
 *
 * Why it is exact.  The proof is mfma_tile.c's route (0), with bounds taken over the
 * whole tile instead of per column: with eA, eB the largest decoded exponents of all A
 * and all B elements (mfma_num.c's decode: E - bias, 1 - bias for a subnormal, -126 for
 * a zero) and zA, zB the smallest exponents of their lowest set bits (zeros excluded),
 * every group's largest product exponent E satisfies E <= eH = eA + eB, every product is
 * a multiple of 2^dz (dz = zA + zB) and, for an element whose C (the group's input) has
 * decoded exponent ec and lowest set bit 2^zc, mx = max(E, ec) <= X = max(eH, ec).
 * Accepted when eH <= 126 (no product reaches 2^128), no input is inf/NaN, and for
 * every element (tested over the tile by c_stats and c_ok, see there)
 *   (0) dz >= eH - 24   no product is truncated: S = sum(a*b) * 2^(24-E) exactly;
 *   (1) dz >= X - 31    sum(a*b) * 2^(31-mx) is an integer: Sp's floor is exact;
 *   (2) zc >= X - 24    C * 2^(24-mx) is an integer: Cp's floor is exact;
 * then R * 2^(mx-31) = C + sum(a*b) and D = f32(C + sum(a*b)) (RNE), where C + sum(a*b)
 * is a sum of multiples of 2^(X-31) below 2^(X+7) in magnitude: exact in binary64 in
 * any order (so a register-blocked FMA loop computes it exactly; products of two 11-bit
 * significands are exact in binary64 too).  A zero sum is made +0 (mfma_num.c's integer
 * R = 0 gives +0).  Groups run in k order; each group's results are the next one's C,
 * whose largest ec is taken again for (1); (2) needs no new test: with (0) and (2) for a
 * group, its exact value V = C + sum(a*b) is a multiple of 2^(eH-24), and so is its f32
 * rounding D (if |V| < 2^(eH-1), V has at most 23 significant bits and D = V, unless
 * 2^(eH-24) is below 2^-149, which divides every f32; otherwise |D| >= 2^(eH-1), whose
 * ulp is at least 2^(eH-24)), so zc >= eH - 24 holds again.  A result that is inf
 * declines the tile (mfma_num.c then has to handle an infinite C).  The only rounding
 * is the conversion to f32, in the host's default mode (RNE), as in mfma_num.c.
 * tests/sim/test_mfma_tile.c compares this route with gcn_mfma_num_dot too (its
 * generators 8 and 9 are built to be accepted by it).
 */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("tree-vectorize", "vect-cost-model=dynamic", "no-trapping-math", \
                     "fp-contract=fast")
#endif
#if defined(__clang__)
#pragma clang fp contract(fast)
#endif
#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wpsabi"    /* vector arguments of inlined helpers */
#endif

#include "gcn_mfma_num.h"

#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__) && !defined(GCN_NO_CLONES)
#define EX_HOT __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#define EX_BFDOT 1          /* the bf16 dot-product route (AVX512-BF16, chosen at run time) */
#include <immintrin.h>
#else
#define EX_HOT
#endif

enum { EX_MAX_MK = 2048, EX_MAX_MN = 1024, EX_BIG = 100000 };

/* Tiles this thread's gcn_mfma_num_tile_exact calls computed: [0] every group by the
 * binary32 route, [1] some by the binary64 route, [2] by the binary32 route's bf16
 * dot-product form (tests check all are used where the host has it). */
static _Thread_local uint64_t exact_count[3];

void gcn_mfma_num_tile_exact_count(uint64_t out[3])
{
    memcpy(out, exact_count, sizeof exact_count);
}

typedef double v8d __attribute__((vector_size(64)));
typedef float v8f __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));
typedef uint32_t v8u __attribute__((vector_size(32)));
typedef float v16f __attribute__((vector_size(64)));
typedef int32_t v16i __attribute__((vector_size(64)));
typedef uint32_t v16u __attribute__((vector_size(64)));

#define EX_INL static inline __attribute__((always_inline))
#if defined(__clang__)
#define EX_UNROLL _Pragma("clang loop unroll(full)")
#elif defined(__GNUC__)
#define EX_UNROLL _Pragma("GCC unroll 16")
#else
#define EX_UNROLL
#endif

/* Lane-wise select, max and min of vectors (comparisons give 0 / -1 lanes; macros, not
 * functions: a vector passed by value changes the ABI between the clones); the arguments
 * are evaluated more than once. */
#define VSEL(m, a, b) (((a) & (m)) | ((b) & ~(m)))
#define VMAX(a, b) VSEL((a) > (b), (a), (b))
#define VMIN(a, b) VSEL((a) < (b), (a), (b))
#define VMAXU(a, b) VSEL((__typeof__(a))((a) > (b)), (a), (b))

/* Decode 16 A or B elements (bits sh.. of the words x; t f16, bf16 or xf32): values as
 * floats (exact) into v[0..15]; fold into *emx the largest biased exponent field, made at
 * least 1 (the decoded exponent is that minus the bias, or for a zero less: an upper
 * bound; the field's all-ones value means inf / NaN), and into *zmn the smallest
 * E1 + 127 + ctz(m) (E1 the field made at least 1, m the significand with its implicit
 * bit; EX_BIG for a zero), from which the caller gets the lowest set bit's exponent. */
EX_INL void dec16(gcn_mfma_type t, const v16u *xp, unsigned sh, float *v, v16i *emx,
                  v16i *zmn)
{
    const v16u x = *xp;
    const v16i one = (v16i){0} + 1;
    v16i E, mz, bits, nz;
    if (t == GCN_MT_BF16 || t == GCN_MT_XF32) {
        v16i b = t == GCN_MT_BF16 ? (v16i)((x >> sh) << 16) : (v16i)(x & 0xffffe000u);
        E = (v16i)((v16u)(b << 1) >> 24);
        /* ctz of the significand: bit 23 stands for the implicit bit, and for a
         * subnormal is above every set bit */
        mz = (b & 0x7fffff) | 0x800000;
        nz = (b & 0x7fffffff) != 0;
        bits = b;
    } else {
        v16i h = (v16i)((x >> sh) & 0xffffu);
        E = (h >> 10) & 31;
        v16i M = h & 0x3ff, m = M | ((E != 0) & 0x400);
        mz = M | 0x400;
        nz = (h & 0x7fff) != 0;
        /* m * 2^(E1 - 25): exact in a float (11 bits, exponent -24..5), sign or'ed in */
        v16i p2 = (VMAX(E, one) - 25 + 127) << 23;
        v16f pf, f = __builtin_convertvector(m, v16f);
        memcpy(&pf, &p2, sizeof pf);
        f *= pf;
        memcpy(&bits, &f, sizeof bits);
        bits |= (h >> 15) << 31;
    }
    v16i E1 = VMAX(E, one);
    v16f c = __builtin_convertvector(mz & -mz, v16f);
    v16i cb;
    memcpy(&cb, &c, sizeof cb);
    v16i z = E1 + (cb >> 23), em = *emx, zm = *zmn;
    z = (z & nz) | (~nz & EX_BIG);
    *emx = VMAX(em, E1);
    *zmn = VMIN(zm, z);
    memcpy(v, &bits, sizeof bits);
}

/* Fold 16 f32 values x (bits) into *mx, the largest |bits| (>= 0x7f800000 for inf /
 * NaN), and into *bad the significand bits below 2^L (nonzero when a value is not a
 * multiple of 2^L; zeros are multiples of everything). */
EX_INL void cstat16(const v16u *xp, int32_t L, v16u *mx, v16u *bad)
{
    const v16i zero = {0}, one = zero + 1, k31 = zero + 31;
    v16u a = *xp & 0x7fffffffu, E = a >> 23;
    v16u m = (a & 0x7fffffu) | ((v16u)(E != 0) & 0x800000u);
    /* the value is m * 2^(E1 - 150): a multiple of 2^L when the low L - E1 + 150 bits
     * of m are zero (the count clamped to 0..31: m < 2^24) */
    v16i Ei = (v16i)E, sh = L + 150 - VMAX(Ei, one);
    sh = VMAX(sh, zero);
    sh = VMIN(sh, k31);
    *bad |= m & ((((v16u){0} + 1u) << (v16u)sh) - 1u);
    v16u gt = (v16u)(a > *mx);
    *mx = (a & gt) | (*mx & ~gt);
}

/* cstat16's test in floating point, valid for |x| < 2^(L+22) (the caller tests that from
 * the largest |bits|), -149 <= L <= 104, in the host's default rounding (to nearest even,
 * no flushing): with c = 1.5 * 2^(L+23), x + c lies in (2^(L+23), 2^(L+24)), where the
 * floats are the multiples of 2^L, so (x + c) - c (exact: both multiples of 2^L, the
 * difference at most 2^(L+22)) is x rounded to a multiple of 2^L, which is x exactly when
 * x is one (a zero of either sign is; NaN never; inf is caught by the largest |bits|). */
EX_INL void cstat16m(const v16u *xp, float c, v16u *mx, v16u *bad)
{
    v16f x, r;
    memcpy(&x, xp, sizeof x);
    r = (x + c) - c;
    *bad |= (v16u)(r != x);
    v16u a = *xp & 0x7fffffffu, gt = (v16u)(a > *mx);
    *mx = (a & gt) | (*mx & ~gt);
}

/* The C rows of a group into acc (as floats): with CST 1 tested by cstat16, with CST 3 by
 * cstat16m (see group_f). */
#define EX_CLOAD(CST, x, L, cm, am)                                                       \
    do {                                                                                   \
        if ((CST) == 1)                                                                    \
            cstat16(&(x), (L), &(am)[1], &(am)[2]);                                        \
        else if ((CST) == 3)                                                               \
            cstat16m(&(x), (cm), &(am)[1], &(am)[2]);                                      \
    } while (0)

/* A result vector f to out: -0 made +0 (mfma_num.c's integer R = 0 gives +0); with AM
 * its largest |bits| folded into am[0]. */
#define EX_STORE(AM, f, out, am)                                                          \
    do {                                                                                   \
        v16f f_ = (f) + 0.0f;                                                              \
        v16u ob_;                                                                          \
        memcpy(&ob_, &f_, sizeof ob_);                                                     \
        if (AM) {                                                                          \
            v16u a_ = ob_ & 0x7fffffffu, gt_ = (v16u)(a_ > (am)[0]);                       \
            (am)[0] = (a_ & gt_) | ((am)[0] & ~gt_);                                       \
        }                                                                                  \
        memcpy((out), &ob_, sizeof ob_);                                                   \
    } while (0)

/* The C of the first group, for the binary64 route: the largest |bits| into r[0], and
 * whether one is not a multiple of 2^L into r[1]; row i at c + cw[i] (c + i*N when cw is
 * NULL), rows of N (a multiple of 16). */
EX_HOT static void c_stats(const uint32_t *c, const uint16_t *cw, unsigned M, unsigned N,
                           int32_t L, uint32_t r[2])
{
    v16u mx = {0}, bad = {0};
    for (unsigned i = 0; i < M; i++) {
        const uint32_t *row = c + (cw ? cw[i] : (size_t)i * N);
        for (unsigned j = 0; j < N; j += 16) {
            v16u x;
            memcpy(&x, row + j, sizeof x);
            cstat16(&x, L, &mx, &bad);
        }
    }
    r[0] = r[1] = 0;
    for (unsigned l = 0; l < 16; l++) {
        r[0] = mx[l] > r[0] ? mx[l] : r[0];
        r[1] |= bad[l];
    }
}

/* The largest decoded exponent of an f32 whose |bits| are cam (below inf). */
static int32_t f32_exp(uint32_t cam)
{
    return (cam >> 23) ? (int32_t)(cam >> 23) - 127 : -126;
}

/* Binary64 route, one group (k0 .. k0+g-1) over rows i0 .. i0+3 of all N (= 8 * NV)
 * columns: out[r][j] = f32(cin[r][j] + sum_k At[k][i] * Bd[k][j]), the sum exact
 * (header); the largest |bits| of the results folded into *am. */
EX_INL void rows4d(unsigned NV, unsigned M, unsigned N, unsigned k0, unsigned g, unsigned i0,
                   const double *At, const double *Bd, const uint32_t *const cin[4],
                   uint32_t *const out[4], v8u *am)
{
    v8d acc[4][4];
    EX_UNROLL
    for (unsigned r = 0; r < 4; r++)
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++) {
            v8f c;
            memcpy(&c, cin[r] + 8 * v, sizeof c);
            acc[r][v] = __builtin_convertvector(c, v8d);
        }
    for (unsigned k = k0; k < k0 + g; k++) {
        v8d b[4];
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++)
            memcpy(&b[v], &Bd[(size_t)k * N + 8 * v], sizeof b[v]);
        EX_UNROLL
        for (unsigned r = 0; r < 4; r++) {
            double a = At[(size_t)k * M + i0 + r];
            EX_UNROLL
            for (unsigned v = 0; v < NV; v++)
                acc[r][v] += a * b[v];
        }
    }
    EX_UNROLL
    for (unsigned r = 0; r < 4; r++)
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++) {
            v8f f = __builtin_convertvector(acc[r][v] + 0.0, v8f);
            v8u ob;
            memcpy(&ob, &f, sizeof ob);
            v8u a = ob & 0x7fffffffu, m = *am;
            *am = VMAXU(m, a);
            memcpy(out[r] + 8 * v, &ob, sizeof ob);
        }
}

/* Binary32 route (every partial sum exact in an f32, see gcn_mfma_num_tile_exact), one
 * group over rows i0 .. i0+7 of all N (= 16 * NV) columns, as rows4d. */
EX_INL void rows8f(unsigned NV, int CST, int AM, int32_t L, float cm, unsigned M, unsigned N,
                   unsigned k0, unsigned g, unsigned i0, const float *At, const float *Bf,
                   const uint32_t *const cin[8], uint32_t *const out[8], v16u am[3])
{
    v16f acc[8][2];
    EX_UNROLL
    for (unsigned r = 0; r < 8; r++)
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++) {
            v16u x;
            memcpy(&x, cin[r] + 16 * v, sizeof x);
            EX_CLOAD(CST, x, L, cm, am);
            memcpy(&acc[r][v], &x, sizeof x);
        }
    for (unsigned k = k0; k < k0 + g; k++) {
        v16f b[2];
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++)
            memcpy(&b[v], &Bf[(size_t)k * N + 16 * v], sizeof b[v]);
        EX_UNROLL
        for (unsigned r = 0; r < 8; r++) {
            float a = At[(size_t)k * M + i0 + r];
            EX_UNROLL
            for (unsigned v = 0; v < NV; v++)
                acc[r][v] += a * b[v];
        }
    }
    EX_UNROLL
    for (unsigned r = 0; r < 8; r++)
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++)
            EX_STORE(AM, acc[r][v], out[r] + 16 * v, am);
}

/* The loops of a binary32 group over rows of 8 and columns of 32 (16 at the end), ROWS
 * the row function (NV, CST, AM, then its own arguments: i0, j0, cj, oj); cst, am and L
 * as in group_f.  Leaves the largest |bits| of the results, of C, and C's test in r. */
#define EX_GROUP_BODY(ROWS)                                                               \
    v16u am[3] = {{0}, {0}, {0}};                                                          \
    /* cst: C's test, precise (1) or in floating point (3, for |C| < 2^(L+22)) */          \
    if (cst)                                                                               \
        cst = L >= -149 && L <= 104 ? 3 : 1;                                               \
    union { int32_t i; float f; } cm_ = {.i = ((L + 23 + 127) & 0xff) << 23 | 0x400000};  \
    float cm = cm_.f;                      /* 1.5 * 2^(L+23), used for cst 3 only */      \
    for (unsigned i0 = 0; i0 < M; i0 += 8) {                                               \
        const uint32_t *cj[8];                                                             \
        uint32_t *oj[8];                                                                   \
        for (unsigned j0 = 0; j0 < N; j0 += 32) {                                          \
            for (unsigned q = 0; q < 8; q++) {                                             \
                cj[q] = cin + (cw ? cw[i0 + q] : (size_t)(i0 + q) * N) + j0;               \
                oj[q] = out + (size_t)(i0 + q) * N + j0;                                   \
            }                                                                              \
            unsigned nv = N - j0 >= 32 ? 2 : 1;                                            \
            if (nv == 2 && cst == 3 && !want_am) ROWS(2, 3, 0);                            \
            else if (nv == 2 && cst == 3) ROWS(2, 3, 1);                                   \
            else if (nv == 2 && cst == 1) ROWS(2, 1, 1);                                   \
            else if (nv == 2 && !want_am) ROWS(2, 0, 0);                                   \
            else if (nv == 2) ROWS(2, 0, 1);                                               \
            else if (cst == 3) ROWS(1, 3, 1);                                              \
            else if (cst == 1) ROWS(1, 1, 1);                                              \
            else ROWS(1, 0, 1);                                                            \
        }                                                                                  \
    }                                                                                      \
    r[0] = r[1] = r[2] = 0;                                                                \
    for (unsigned l = 0; l < 16; l++) {                                                    \
        r[0] = am[0][l] > r[0] ? am[0][l] : r[0];                                          \
        r[1] = am[1][l] > r[1] ? am[1][l] : r[1];                                          \
        r[2] |= am[2][l];                                                                  \
    }                                                                                      \
    return r[0]

/* All rows of one group by the binary64 route (f32 values as their bits); C row i at
 * cin + cw[i] (cw NULL: + i*N), result row i at out + i*N.  Returns the largest |bits|
 * of the results. */
EX_HOT static uint32_t group_d(unsigned M, unsigned N, unsigned k0, unsigned g,
                               const double *At, const double *Bd, const uint32_t *cin,
                               const uint16_t *cw, uint32_t *out)
{
    v8u am = {0};
    for (unsigned i0 = 0; i0 < M; i0 += 4) {
        const uint32_t *ci[4];
        uint32_t *oi[4];
        for (unsigned r = 0; r < 4; r++) {
            ci[r] = cin + (cw ? cw[i0 + r] : (size_t)(i0 + r) * N);
            oi[r] = out + (size_t)(i0 + r) * N;
        }
        for (unsigned j0 = 0; j0 < N; j0 += 32) {
            const uint32_t *cj[4] = {ci[0] + j0, ci[1] + j0, ci[2] + j0, ci[3] + j0};
            uint32_t *oj[4] = {oi[0] + j0, oi[1] + j0, oi[2] + j0, oi[3] + j0};
            if (N - j0 >= 32)
                rows4d(4, M, N, k0, g, i0, At, Bd + j0, cj, oj, &am);
            else                                /* N - j0 == 16 */
                rows4d(2, M, N, k0, g, i0, At, Bd + j0, cj, oj, &am);
        }
    }
    uint32_t m = 0;
    for (unsigned l = 0; l < 8; l++)
        m = am[l] > m ? am[l] : m;
    return m;
}

/* The same by the binary32 route.  With cst (the first group) r[1] gets the largest |bits|
 * of C and r[2] whether a C is not a multiple of 2^L: for -149 <= L <= 104 tested by
 * cstat16m, which holds only for |C| < 2^(L+22) (the caller takes r[2] only then), else by
 * cstat16.  Without want_am the results' largest |bits| are not needed (r[0] 0; the
 * caller's last group when no result can overflow) -- taken when all N columns are in
 * full rows of 32 only. */
EX_HOT static uint32_t group_f(unsigned M, unsigned N, unsigned k0, unsigned g, int cst,
                               int want_am, int32_t L, const float *At, const float *Bf,
                               const uint32_t *cin, const uint16_t *cw, uint32_t *out,
                               uint32_t r[3])
{
#define ROWS(NV, CST, AM) rows8f(NV, CST, AM, L, cm, M, N, k0, g, i0, At, Bf + j0, cj, oj, am)
    EX_GROUP_BODY(ROWS);
#undef ROWS
}

#ifdef EX_BFDOT
/* The binary32 route for bf16 with the host's bf16 dot-product instruction (AVX512-BF16
 * VDPBF16PS: acc += a[2k+1] * b[2k+1], then acc += a[2k] * b[2k], per f32 lane, the bf16
 * pairs as they lie in the registers: no decode).  The instruction rounds to nearest
 * even whatever MXCSR says, and treats subnormal inputs and results as zeros (DAZ, FTZ;
 * Intel SDM, VDPBF16PS).  Its sums are the binary32 route's exact sums whenever that
 * route's conditions hold (every partial sum exact in an f32 in any order: the order and
 * any wider intermediate do not matter) and nothing it meets is subnormal: the caller
 * asks for no subnormal A or B element (their lowest set bits zA, zB >= -126; a
 * subnormal's is below 2^-126) and dz >= -126, so every nonzero product, C (a multiple
 * of 2^dz, tested as in the binary32 route) and partial sum (sums of such) is at least
 * 2^-126 in magnitude.  Pairs: elements k0+2q and k0+2q+1 of A row i in one word
 * (s->a + aw[k] + i * astr), and of B column j (s->b + bw[k] + j), at the same halves;
 * the caller checks that layout.  Rows i0 .. i0+7, columns j0 .. j0 + 16 NV - 1. */
#define EX_BFT __attribute__((target("avx512f,avx512dq,avx512bf16")))
#define VMAXU_INTO(acc, a) do { v16u g_ = (v16u)((a) > (acc)); (acc) = ((a) & g_) | ((acc) & ~g_); } while (0)
static inline __attribute__((always_inline)) EX_BFT void
rows8b(unsigned NV, int CST, int AM, int32_t L, float cm, unsigned k0, unsigned g, unsigned i0,
       unsigned j0, const gcn_mfma_tile_src *s, const uint32_t *const cin[8],
       uint32_t *const out[8], v16u am[3])
{
    __m512 acc[8][2];
    /* cstat16m's test and maximum in mask and unsigned-max instructions (CST 3) */
    const __m512 cmv = _mm512_set1_ps(cm);
    __m512i mx = _mm512_setzero_si512();
    __mmask16 bad = 0;
    EX_UNROLL
    for (unsigned r = 0; r < 8; r++)
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++) {
            if (CST == 3) {
                __m512 x = _mm512_loadu_ps(cin[r] + 16 * v);
                __m512 t = _mm512_sub_ps(_mm512_add_ps(x, cmv), cmv);
                bad |= _mm512_cmp_ps_mask(t, x, _CMP_NEQ_UQ);
                mx = _mm512_max_epu32(mx, _mm512_and_si512(_mm512_castps_si512(x),
                                                           _mm512_set1_epi32(0x7fffffff)));
                acc[r][v] = x;
                continue;
            }
            v16u x;
            memcpy(&x, cin[r] + 16 * v, sizeof x);
            EX_CLOAD(CST, x, L, cm, am);
            memcpy(&acc[r][v], &x, sizeof x);
        }
    if (CST == 3) {
        v16u m, b;
        memcpy(&m, &mx, sizeof m);
        b = (v16u)(_mm512_movm_epi32(bad));
        VMAXU_INTO(am[1], m);
        am[2] |= b;
    }
    for (unsigned k = k0; k < k0 + g; k += 2) {
        __m512i b[2];
        const uint32_t *bw = s->b + s->bw[k] + j0, *aw = s->a + s->aw[k];
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++)
            b[v] = _mm512_loadu_si512(bw + 16 * v);
        EX_UNROLL
        for (unsigned r = 0; r < 8; r++) {
            __m512i a = _mm512_set1_epi32((int)aw[(size_t)(i0 + r) * s->astr]);
            EX_UNROLL
            for (unsigned v = 0; v < NV; v++)
                acc[r][v] = _mm512_dpbf16_ps(acc[r][v], (__m512bh)a, (__m512bh)b[v]);
        }
    }
    EX_UNROLL
    for (unsigned r = 0; r < 8; r++)
        EX_UNROLL
        for (unsigned v = 0; v < NV; v++) {
            v16f f;
            memcpy(&f, &acc[r][v], sizeof f);
            EX_STORE(AM, f, out[r] + 16 * v, am);
        }
}

/* group_f by rows8b (arguments as there, A and B from s). */
EX_BFT static uint32_t group_bf(unsigned M, unsigned N, unsigned k0, unsigned g, int cst,
                                int want_am, int32_t L, const gcn_mfma_tile_src *s,
                                const uint32_t *cin, const uint16_t *cw, uint32_t *out,
                                uint32_t r[3])
{
#define ROWS(NV, CST, AM) rows8b(NV, CST, AM, L, cm, k0, g, i0, j0, s, cj, oj, am)
    EX_GROUP_BODY(ROWS);
#undef ROWS
}

/* Whether the bf16 dot-product form can read the tile: the host has the instructions
 * (AVX512-BF16, -DQ and, for bf_stats, -BW and VBMI), A and B are bf16 with every pair
 * (k, k+1 from an even k) in one word, at the same halves for A and B.  (The route also
 * needs the group even and nothing subnormal, see rows8b: the caller's test.) */
static int bf_pairs(const gcn_mfma_num *nm, unsigned K, const gcn_mfma_tile_src *s)
{
    if (nm->ta != GCN_MT_BF16 || (K & 1) || !__builtin_cpu_supports("avx512f") ||
        !__builtin_cpu_supports("avx512bw") || !__builtin_cpu_supports("avx512dq") ||
        !__builtin_cpu_supports("avx512vbmi") ||
        !__builtin_cpu_supports("avx512bf16"))
        return 0;
    for (unsigned k = 0; k < K; k += 2)
        if (s->aw[k] != s->aw[k + 1] || s->bw[k] != s->bw[k + 1] || s->ab[k] != s->bb[k] ||
            s->ab[k + 1] != s->bb[k + 1] || (s->ab[k] ^ s->ab[k + 1]) != 16 ||
            (s->ab[k] & 15))
            return 0;
    return 1;
}

/* dec_lines' statistics of n lines of bf16 pairs (words line[w[k]] + i * str, i < n, k
 * even < K), without the values: st[0] the largest exponent field made at least 1, minus
 * the bias; st[1] the smallest exponent of a nonzero element's lowest set bit (E1 - 134 +
 * ctz of the significand with its bit 7 set, as dec16 computes it; EX_BIG for none);
 * st[2] whether an exponent field is all ones.  32 elements per vector, in 16-bit lanes;
 * the ctz of the lowest set bit (1 .. 128) by a table (VPERMI2B, 7 index bits: 128 is
 * index 0). */
__attribute__((target("avx512f,avx512bw,avx512vbmi")))
static void bf_stats(unsigned n, unsigned K, const uint32_t *line, const uint16_t *w,
                     unsigned str, int32_t st[3])
{
    static const uint8_t ctz_tab[128] = {
        [0] = 7, [1] = 0, [2] = 1, [4] = 2, [8] = 3, [16] = 4, [32] = 5, [64] = 6,
    };
    const __m512i tlo = _mm512_loadu_si512(ctz_tab), thi = _mm512_loadu_si512(ctz_tab + 64);
    const __m512i one = _mm512_set1_epi16(1), ff = _mm512_set1_epi16(0xff),
                  m7f = _mm512_set1_epi16(0x7f), b80 = _mm512_set1_epi16(0x80),
                  abs = _mm512_set1_epi16(0x7fff), zero = _mm512_setzero_si512();
    __m512i emx = one, zmn = _mm512_set1_epi16(0x7fff);
    for (unsigned k = 0; k < K; k += 2) {
        const uint32_t *x = line + w[k];
        for (unsigned i = 0; i < n; i += 16) {
            __m512i v;
            if (str == 1) {
                v = _mm512_loadu_si512(x + i);
            } else {
                uint32_t t[16];
                for (unsigned l = 0; l < 16; l++)
                    t[l] = x[(size_t)(i + l) * str];
                v = _mm512_loadu_si512(t);
            }
            __m512i E1 = _mm512_max_epu16(_mm512_and_si512(_mm512_srli_epi16(v, 7), ff), one);
            emx = _mm512_max_epu16(emx, E1);
            __m512i mz = _mm512_or_si512(_mm512_and_si512(v, m7f), b80);
            __m512i lb = _mm512_and_si512(mz, _mm512_sub_epi16(zero, mz));
            __m512i c = _mm512_and_si512(_mm512_permutex2var_epi8(tlo, lb, thi), ff);
            __mmask32 nz = _mm512_test_epi16_mask(v, abs);
            zmn = _mm512_mask_min_epu16(zmn, nz, zmn, _mm512_add_epi16(E1, c));
        }
    }
    uint16_t e[32], z[32];
    _mm512_storeu_si512(e, emx);
    _mm512_storeu_si512(z, zmn);
    int32_t em = 0, zm = 0x7fff;
    for (unsigned l = 0; l < 32; l++) {
        em = e[l] > em ? e[l] : em;
        zm = z[l] < zm ? z[l] : zm;
    }
    st[0] = em - 127;
    st[1] = zm == 0x7fff ? EX_BIG : zm - 134;
    st[2] = em == 255;
}
#endif

/* Decode A into At[k][i] and B into Bf[k][j] (floats); st: largest exponent, smallest
 * lowest set bit, inf / NaN seen, of A (st[0..2]) and B (st[3..5]). */
EX_INL void dec_lines(gcn_mfma_type t, unsigned M, unsigned N, unsigned K,
                      const gcn_mfma_tile_src *s, float *At, float *Bf, int32_t st[6])
{
    /* field bias, all-ones field, and E1 + 127 + ctz(m) minus the lowest set bit's
     * exponent (E1 - 25 + ctz(m) for f16, E1 - 150 + ctz(m) for the f32 bits) */
    int32_t bias = t == GCN_MT_F16 ? 15 : 127, ones = t == GCN_MT_F16 ? 31 : 255;
    int32_t zoff = t == GCN_MT_F16 ? 127 + 25 : 127 + 150;
    for (int w = 0; w < 2; w++) {
        v16i emx = {0}, zmn = (v16i){0} + EX_BIG;
        unsigned n = w ? N : M;
        for (unsigned k = 0; k < K; k++) {
            const uint32_t *x = w ? s->b + s->bw[k] : s->a + s->aw[k];
            unsigned sh = w ? s->bb[k] : s->ab[k];
            float *v = w ? &Bf[(size_t)k * N] : &At[(size_t)k * M];
            for (unsigned i = 0; i < n; i += 16) {
                v16u xv;
                if (w || s->astr == 1) {
                    memcpy(&xv, x + i, sizeof xv);
                } else {
                    for (unsigned l = 0; l < 16; l++)
                        xv[l] = x[(size_t)(i + l) * s->astr];
                }
                dec16(t, &xv, sh, v + i, &emx, &zmn);
            }
        }
        int32_t e = 0, z = EX_BIG;
        for (unsigned l = 0; l < 16; l++) {
            e = emx[l] > e ? emx[l] : e;
            z = zmn[l] < z ? zmn[l] : z;
        }
        st[3 * w] = e - bias;
        st[3 * w + 1] = z == EX_BIG ? EX_BIG : z - zoff;
        st[3 * w + 2] = e == ones;
    }
}

EX_HOT static void dec_tile(gcn_mfma_type t, unsigned M, unsigned N, unsigned K,
                            const gcn_mfma_tile_src *s, float *At, float *Bf, int32_t st[6])
{
    if (t == GCN_MT_BF16)
        dec_lines(GCN_MT_BF16, M, N, K, s, At, Bf, st);
    else if (t == GCN_MT_F16)
        dec_lines(GCN_MT_F16, M, N, K, s, At, Bf, st);
    else
        dec_lines(GCN_MT_XF32, M, N, K, s, At, Bf, st);
}

/* n floats to doubles. */
EX_HOT static void widen(const float *f, size_t n, double *d)
{
    for (size_t p = 0; p < n; p++)
        d[p] = f[p];
}

/* Routes, by group: the binary32 route (16 lanes) when every partial sum, in any order,
 * is exact in an f32: the C of the group a multiple of 2^dz (as every product; the
 * first group's C tested, later ones are sums of such, see below) with dz >= -149, and
 * |C| + g * max|a*b| <= 2^(dz+24) (a multiple of 2^dz below that has at most 24
 * significant bits; products of two 11-bit significands never round unless they leave
 * the f32 range, which dz >= -149 and eH <= 126 exclude), taken as ec <= dz + 22 and
 * eH + lg <= dz + 21 (|C| < 2^(ec+1), |a*b| < 2^(eH+2), g <= 2^lg).  These imply the
 * header's (0)-(2), so f32(C + sum(a*b)) is the answer, and here it is that sum itself,
 * an f32: later groups' C are multiples of 2^dz again.  Otherwise the binary64 route
 * when (0)-(2) hold: (0) dz >= eH - 24, (1) over the tile dz >= max ec - 31, (2) the
 * first group's C a multiple of 2^(eH-24) (later ones by the header's argument). */
int gcn_mfma_num_tile_exact(const gcn_mfma_num *nm, unsigned M, unsigned N, unsigned K,
                            const gcn_mfma_tile_src *s)
{
    if (nm->alg != GCN_MA_FUSED || nm->ta != nm->tb || nm->tc != GCN_MT_F32 ||
        (nm->ta != GCN_MT_F16 && nm->ta != GCN_MT_BF16 && nm->ta != GCN_MT_XF32))
        return -1;
    unsigned g = nm->group < K ? nm->group : K;
    if (!g || K % g || g > 16 || M % 16 || N % 16 || (size_t)M * K > EX_MAX_MK ||
        (size_t)N * K > EX_MAX_MK || (size_t)M * N > EX_MAX_MN)
        return -1;
    /* the scratch of this thread (48 KiB: on the stack, every call paid its page probes) */
    static _Thread_local struct {
        _Alignas(64) float Af[EX_MAX_MK], Bf[EX_MAX_MK];
        _Alignas(64) double Ad[EX_MAX_MK], Bd[EX_MAX_MK];
    } sc;
    float *Af = sc.Af, *Bf = sc.Bf;
    double *Ad = sc.Ad, *Bd = sc.Bd;
    _Alignas(64) uint32_t tmp[EX_MAX_MN];
    int32_t st[6], st2[6];
    /* A and B as floats (Af, Bf) only for group_f and group_d: the bf16 dot-product form
     * reads the pairs themselves and needs their statistics only */
    int pairs = 0, dec = 0;
#ifdef EX_BFDOT
    pairs = bf_pairs(nm, K, s);
    if (pairs) {
        bf_stats(M, K, s->a, s->aw, s->astr, st);
        bf_stats(N, K, s->b, s->bw, 1, st + 3);
    }
#endif
    if (!pairs) {
        dec_tile(nm->ta, M, N, K, s, Af, Bf, st);
        dec = 1;
    }
#define EX_DECODE() do { if (!dec) { dec_tile(nm->ta, M, N, K, s, Af, Bf, st2); dec = 1; } } while (0)
    if (st[2] | st[5])
        return -1;
    int32_t eH = st[0] + st[3], dz = st[1] + st[4];
    if (eH > 126 || dz < eH - 24)
        return -1;
    int32_t lg = 0;
    while ((1u << lg) < g)
        lg++;
    int f32ok = dz >= -149 && eH + lg <= dz + 21, wide = 0, bfdot = 0;
    bfdot = f32ok && pairs && !(g & 1) && dz >= -126 && st[1] >= -126 && st[4] >= -126;
    uint32_t cam = 0, r[3];
    for (unsigned k0 = 0; k0 < K; k0 += g) {
        const uint32_t *cin = k0 ? tmp : s->c;
        const uint16_t *cw = k0 ? NULL : s->cw;
        if (f32ok && (!k0 || (cam < 0x7f800000u && f32_exp(cam) <= dz + 22))) {
            /* the results' largest |bits| are needed for the next group's test, or for
             * the last one's inf test, unless no sum can reach 2^128: every one is a
             * multiple of 2^dz below 2^(dz+24) (see above), a finite f32 for dz <= 104 */
            int want_am = k0 + g < K || dz > 104;
#ifdef EX_BFDOT
            if (bfdot)
                cam = group_bf(M, N, k0, g, !k0, want_am, dz, s, cin, cw, tmp, r);
            else
#endif
            {
                EX_DECODE();
                cam = group_f(M, N, k0, g, !k0, want_am, dz, Af, Bf, cin, cw, tmp, r);
            }
            if (k0)
                continue;
            /* the first group's C checked afterwards (its results are dropped if not):
             * |C| < 2^(dz+23), and a multiple of 2^dz; group_f's floating-point test of
             * that holds for |C| < 2^(dz+22) (below that, r[2] says it), the precise one
             * of c_stats is made for the rest */
            if (r[1] < 0x7f800000u && f32_exp(r[1]) <= dz + 21 && !r[2])
                continue;
            if (r[1] < 0x7f800000u && f32_exp(r[1]) == dz + 22) {
                uint32_t cs[2];
                c_stats(s->c, s->cw, M, N, dz, cs);
                if (!cs[1])
                    continue;
            }
        }
        if (!k0) {
            uint32_t cs[2];
            c_stats(s->c, s->cw, M, N, eH - 24, cs);
            if (cs[1])
                return -1;
            cam = cs[0];
        }
        if (cam >= 0x7f800000u || dz < f32_exp(cam) - 31)
            return -1;
        f32ok = 0;      /* this group's results are rounded: not multiples of 2^dz */
        if (!wide) {
            EX_DECODE();
            widen(Af, (size_t)M * K, Ad);
            widen(Bf, (size_t)N * K, Bd);
            wide = 1;
        }
        cam = group_d(M, N, k0, g, Ad, Bd, cin, cw, tmp);
    }
    if (cam >= 0x7f800000u)
        return -1;
    /* (tmp is this frame's: the rows copy, of a constant size for the common widths, which
     * the compiler inlines -- a library call per row was about 6% of the route) */
#define EX_ROWS(n)                                                                      \
    for (unsigned i = 0; i < M; i++)                                                    \
        memcpy(s->d + (s->cw ? s->cw[i] : (size_t)i * (n)), &tmp[(size_t)i * (n)], (n) * 4)
    if (N == 32)
        EX_ROWS(32);
    else if (N == 16)
        EX_ROWS(16);
    else
        EX_ROWS((size_t)N);
#undef EX_ROWS
    exact_count[wide ? 1 : bfdot ? 2 : 0]++;
    return 0;
#undef EX_DECODE
}
