/*
 * gcn_mfma_num.h -- the arithmetic of the matrix cores, independent of registers:
 * how one output element D[i][j] = C[i][j] + sum_k A[i][k] * B[k][j] is computed by
 * the hardware (docs/mfma.md has the model and where each fact comes from; in short,
 * gfx942 follows microsoft/MMA-Sim's bit-accurate CDNA3 model, gfx950 extends it).
 *
 * Used by the simulator (src/sim/mfma.c) and by the C references of the bundled MFMA
 * kernels (kernels/mfma_*), so a GEMM reference is bit-exact with the simulator.
 * Plain C, no state: safe from any thread.
 */
#ifndef GCN_MFMA_NUM_H
#define GCN_MFMA_NUM_H

#include <stddef.h>
#include <stdint.h>

/* Element types of MAI operands. */
typedef enum gcn_mfma_type {
    GCN_MT_NONE = 0,
    GCN_MT_F32,     /* IEEE binary32 */
    GCN_MT_XF32,    /* f32 read as tf32 (low 13 mantissa bits dropped), gfx942 only */
    GCN_MT_F64,
    GCN_MT_F16,
    GCN_MT_BF16,
    GCN_MT_I8,      /* signed 8-bit integer */
    GCN_MT_I32,     /* accumulator of the i8 instructions */
    GCN_MT_FP8,     /* E4M3: gfx942 FNUZ (bias 8), gfx950 OCP E4M3FN (bias 7) */
    GCN_MT_BF8,     /* E5M2: gfx942 FNUZ (bias 16), gfx950 OCP E5M2 (bias 15) */
    GCN_MT_FP6,     /* E2M3 (gfx950 f8f6f4), bias 1 */
    GCN_MT_BF6,     /* E3M2 (gfx950 f8f6f4), bias 3 */
    GCN_MT_FP4,     /* E2M1 (gfx950 f8f6f4), bias 1 */
} gcn_mfma_type;

/* Bits of one element of a type (4..64). */
unsigned gcn_mfma_type_bits(gcn_mfma_type t);
const char *gcn_mfma_type_name(gcn_mfma_type t);

/* How the products of one output element are summed. */
typedef enum gcn_mfma_alg {
    GCN_MA_FMA,      /* f32/f64: one fused multiply-add per k, in k order, RNE */
    GCN_MA_FUSED,    /* f16/bf16/xf32: groups of `group` products summed exactly after
                        alignment/truncation to the group's largest exponent, then added
                        to the accumulator (round down), rounded once (RNE) */
    GCN_MA_FUSED8,   /* 8/6/4-bit floats: as FUSED, but each group of 16 is summed as
                        two interleaved halves (even / odd products) first */
    GCN_MA_INT,      /* i8: exact, 32-bit two's complement wrap */
} gcn_mfma_alg;

typedef struct gcn_mfma_num {
    gcn_mfma_type ta, tb, tc;
    int ocp;             /* 8-bit formats are OCP (gfx950), else FNUZ (gfx942) */
    gcn_mfma_alg alg;
    unsigned group;      /* products per group (FUSED/FUSED8) */
} gcn_mfma_num;

/* The arithmetic of an instruction with these element types on a target
 * (gfx950 = 1 selects OCP 8-bit formats and the gfx950 rules). */
void gcn_mfma_num_init(gcn_mfma_num *nm, gcn_mfma_type ta, gcn_mfma_type tb,
                       gcn_mfma_type tc, int gfx950);

/* One output element: returns the bits of D = C + sum_{p<n} a[p]*b[p], the products in
 * the order the instruction takes them (k order; SMFMAC: the stored nonzeros).
 * a[], b[] hold raw element bits (low bits of each uint32_t); c and the result are f32
 * or i32 bits (for f64 use gcn_mfma_num_dot64).  scale_exp, when not NULL, adds
 * scale_exp[p] to the exponent of product p (gfx950 block scales: e8m0 - 127 of A and
 * of B summed; GCN_MFMA_SCALE_NAN makes the result NaN). */
#define GCN_MFMA_SCALE_NAN 0x7fffffff
uint32_t gcn_mfma_num_dot(const gcn_mfma_num *nm, const uint32_t *a, const uint32_t *b,
                          size_t n, uint32_t c, const int32_t *scale_exp);
uint64_t gcn_mfma_num_dot64(const uint64_t *a, const uint64_t *b, size_t n, uint64_t c);

/* Pre-decoded elements (for callers that reuse operands across many dot products):
 * value = (neg ? -1 : 1) * m * 2^(e - fb); cls 0 finite, 1 inf, 2 NaN. */
typedef struct gcn_mfma_val {
    int32_t m;
    int16_t e;
    uint8_t fb, neg, cls;
} gcn_mfma_val;
/* Decode n elements of A (which = 0) or B (which = 1) for FUSED/FUSED8 arithmetic. */
void gcn_mfma_num_decode(const gcn_mfma_num *nm, int which, const uint32_t *bits, size_t n,
                         gcn_mfma_val *out);
/* gcn_mfma_num_dot on pre-decoded FUSED/FUSED8 operands. */
uint32_t gcn_mfma_num_dot_vals(const gcn_mfma_num *nm, const gcn_mfma_val *a,
                               const gcn_mfma_val *b, size_t n, uint32_t c,
                               const int32_t *scale_exp);

/* A whole tile at once (the fast path, src/sim/mfma_tile.c): D[i][j] = gcn_mfma_num_dot
 * of row i of a[M][K] and column j of b[K][N] with C c[i][j], for every i < M, j < N,
 * bit-identical to it.  Takes FUSED f16/bf16/xf32 with finite inputs whose products
 * stay below 2^128; returns 0 when done, -1 (d partly written) when the inputs need the
 * general path.  N, K <= 64, M*K and N*K <= 2048. */
int gcn_mfma_num_tile(const gcn_mfma_num *nm, unsigned M, unsigned N, unsigned K,
                      const uint32_t *a, const uint32_t *b, const uint32_t *c, uint32_t *d);
/* Column-chunk groups the calling thread's gcn_mfma_num_tile calls computed by each
 * route: [0] the exact double sum, [1] exact products with rounding of the sum or C,
 * [2] truncated products (the full model). */
void gcn_mfma_num_tile_routes(uint64_t out[3]);

/* The tile-wide exact route (src/sim/mfma_exact.c): one block of FUSED f16/bf16/xf32
 * arithmetic whose every partial sum is provably exact, read straight from register rows
 * (or arrays) and computed as a binary64 GEMM, bit-identical to gcn_mfma_num_dot.
 * Element A[i][k] is bits ab[k].. of a[aw[k] + i * astr], B[k][j] bits bb[k].. of
 * b[bw[k] + j]; C[i][j] is c[cw[i] + j] and D[i][j] goes to d[cw[i] + j] (cw NULL:
 * i * N).  D may alias A, B or C only as a whole: it is written after everything is
 * read.  Returns 0 when done, -1 (nothing written) when the tile needs another path.
 * M a multiple of 4, N of 8, M*N <= 1024, M*K and N*K <= 2048. */
typedef struct gcn_mfma_tile_src {
    const uint32_t *a, *b, *c;
    uint32_t *d;
    const uint16_t *aw, *bw, *cw;
    const uint8_t *ab, *bb;
    unsigned astr;
} gcn_mfma_tile_src;
int gcn_mfma_num_tile_exact(const gcn_mfma_num *nm, unsigned M, unsigned N, unsigned K,
                            const gcn_mfma_tile_src *s);
/* Tiles the calling thread's gcn_mfma_num_tile_exact calls computed: [0] entirely in
 * binary32 (every partial sum exact in an f32), [1] with binary64 groups, [2] entirely in
 * binary32 by the host's bf16 dot-product instruction (AVX512-BF16; 0 without it). */
void gcn_mfma_num_tile_exact_count(uint64_t out[3]);

/* Value of one element as a double (NaN / inf as such), for tests and references. */
double gcn_mfma_num_value(gcn_mfma_type t, int ocp, uint32_t bits);

/* Whole-tile references for the kernels' C programs: row-major A[m][k], B[k][n] of raw
 * element bits, C/D[m][n] (f32 or i32 bits; D may alias C), one block.  The tile is
 * computed exactly as one instruction with shape m x n x k on the target. */
void gcn_mfma_ref_tile(const gcn_mfma_num *nm, unsigned m, unsigned n, unsigned k,
                       const uint32_t *A, const uint32_t *B, const uint32_t *C, uint32_t *D);

/* v_mfma_f32_32x32x8_bf16 (gfx942 and gfx950): A[32][8], B[8][32] bf16 bits,
 * C/D[32][32] f32 (D may alias C). */
void gcn_mfma_ref_bf16_32x32x8(const uint16_t *A, const uint16_t *B, const float *C,
                               float *D);
/* v_mfma_f32_32x32x8_f16 (gfx942 and gfx950). */
void gcn_mfma_ref_f16_32x32x8(const uint16_t *A, const uint16_t *B, const float *C,
                              float *D);
/* v_mfma_f32_16x16x32_bf16 / _f16 (gfx950). */
void gcn_mfma_ref_bf16_16x16x32(const uint16_t *A, const uint16_t *B, const float *C,
                                float *D);
void gcn_mfma_ref_f16_16x16x32(const uint16_t *A, const uint16_t *B, const float *C,
                               float *D);

#endif
