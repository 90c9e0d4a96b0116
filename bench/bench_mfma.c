/*
 * bench_mfma.c -- per-instruction time of the matrix-core implementation, for
 * bench/bench_mfma.sh: v_mfma_f32_16x16x16_f16 and v_mfma_f32_32x32x8_bf16 (gfx942)
 * executed by gcn_mfma_run (layout gather, numerics, scatter: what the simulator's MFMA
 * body costs) on random inputs of the bundled kernels' kind (multiples of 2^-7 / 2^-10
 * in [-1, 1), C of the same kind), and, for comparison, the general per-element path
 * alone (gcn_mfma_num_dot for every output of the tile: the numerics before the fast
 * tile path).  Times are thread CPU time, best of 5 runs of R instructions.
 * usage: bench_mfma [R [nodot]]   (prints one line per instruction: "MNEMONIC run_us dot_us")
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gcn_decode.h"
#include "sim/gcn_mfma.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t rng = 88172645463325252ull;
static uint32_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static volatile uint32_t sink;

static int bench(const char *mn, gcn_mfma_type t, unsigned reps, int dot)
{
    unsigned id = 0;
    for (unsigned i = 1; i < GCN_ID_COUNT; i++)
        if (!strcmp(gcn_isa_row_of(i)->mnem, mn))
            id = i;
    gcn_insn in;
    memset(&in, 0, sizeof in);
    in.id = (uint16_t)id;
    gcn_mfma_info I;
    if (!id || gcn_mfma_info_get(&in, GCN_TARGET_GFX942, &I, NULL, 0)) {
        fprintf(stderr, "bench_mfma: %s unknown\n", mn);
        return -1;
    }
    static uint32_t A[16 * 64], B[16 * 64], C[16 * 64], D[16 * 64];
    for (unsigned p = 0; p < I.regs_a * 64; p++) {   /* two 16-bit elements per word */
        uint32_t lo, hi;
        if (t == GCN_MT_BF16) {      /* (r * 2^-7) - 1, r < 256: as the manifests' bf16 */
            float f0 = (float)(rnd() & 255) / 128 - 1, f1 = (float)(rnd() & 255) / 128 - 1;
            memcpy(&lo, &f0, 4);
            memcpy(&hi, &f1, 4);
            A[p] = lo >> 16 | (hi & 0xffff0000u);
        } else {                     /* f16 (r * 2^-10) - 1 as halves */
            _Float16 h0 = (_Float16)((float)(rnd() & 2047) / 1024 - 1);
            _Float16 h1 = (_Float16)((float)(rnd() & 2047) / 1024 - 1);
            uint16_t u0, u1;
            memcpy(&u0, &h0, 2);
            memcpy(&u1, &h1, 2);
            A[p] = u0 | (uint32_t)u1 << 16;
        }
        B[p] = A[p] ^ (rnd() & 0x80008000u);
    }
    for (unsigned p = 0; p < I.regs_c * 64; p++) {
        float f = (float)(rnd() & 4095) / 64 - 32;
        memcpy(&C[p], &f, 4);
    }
    gcn_mfma_operands ops = {A, B, C, NULL, NULL, NULL, D};
    double best_run = 1e30, best_dot = 1e30;
    gcn_mfma_num nm;
    gcn_mfma_num_init(&nm, t, t, GCN_MT_F32, 0);
    uint32_t a[64 * 64], bt[64 * 64];
    for (unsigned i = 0; i < I.m; i++)
        for (unsigned k = 0; k < I.k; k++) {
            gcn_mfma_place pl;
            gcn_mfma_layout(&in, GCN_TARGET_GFX942, 'A', 0, i, k, &pl);
            a[i * I.k + k] = (A[pl.reg * 64 + pl.lane] >> pl.bit) & 0xffff;
        }
    for (unsigned j = 0; j < I.n; j++)
        for (unsigned k = 0; k < I.k; k++) {
            gcn_mfma_place pl;
            gcn_mfma_layout(&in, GCN_TARGET_GFX942, 'B', 0, k, j, &pl);
            bt[j * I.k + k] = (B[pl.reg * 64 + pl.lane] >> pl.bit) & 0xffff;
        }
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        for (unsigned q = 0; q < reps; q++) {
            if (gcn_mfma_run(&in, GCN_TARGET_GFX942, &ops, NULL, 0))
                return -1;
            C[q & 63] ^= D[(q * 7) & 255] & 1;   /* keep the inputs live */
        }
        double t1 = now();
        for (unsigned q = 0; dot && q < reps / 4 + 1; q++) {
            uint32_t acc = 0;
            for (unsigned i = 0; i < I.m; i++)
                for (unsigned j = 0; j < I.n; j++)
                    acc += gcn_mfma_num_dot(&nm, &a[i * I.k], &bt[j * I.k], I.k,
                                            C[(i * I.n + j) & 255], NULL);
            sink = acc;
        }
        double t2 = now();
        if (t1 - t0 < best_run)
            best_run = t1 - t0;
        if (t2 - t1 < best_dot)
            best_dot = t2 - t1;
    }
    printf("%s %.3f %.3f\n", mn, best_run / reps * 1e6, best_dot / (reps / 4 + 1) * 1e6);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned reps = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 4000;
    int dot = !(argc > 2 && !strcmp(argv[2], "nodot"));
    if (bench("v_mfma_f32_16x16x16_f16", GCN_MT_F16, reps, dot) ||
        bench("v_mfma_f32_32x32x8_bf16", GCN_MT_BF16, reps, dot))
        return 1;
    return 0;
}
