/* ref.c -- C reference for the HIP MFMA kernels of kernels/hip/mfma: a batch of BATCH
 * products C_b = ALPHA * A_b * B_b, A_b M x K row-major, B_b K x N stored column-major
 * (N x K row-major), C_b M x N f32 row-major, the items one after another; elements f16
 * (BF16 = 0) or bf16 (BF16 = 1).  hip_mfma_32x32x8 is one GEMM (BATCH = 1, any M, N, K),
 * hip_mfma_16x16x16 / _16x16x32 are batches of single MFMAs (M = N = 16, K = 16 / 32).
 * Each element is the kernel's chain of MFMAs in increasing k from C = 0 (groups of 8
 * products: src/sim/mfma_num.c, docs/mfma.md; one gcn_mfma_num_dot_vals over K is that
 * chain), then one f32 multiply by ALPHA (round to nearest even), as the kernels do. */
#include "ref_util.h"
#include "sim/gcn_mfma_num.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long M, N, K, bf, alpha;
    if (gcn_ref_param(&r, "M", &M) == 0 && gcn_ref_param(&r, "N", &N) == 0 &&
        gcn_ref_param(&r, "K", &K) == 0 && gcn_ref_param(&r, "BF16", &bf) == 0 &&
        gcn_ref_param(&r, "ALPHA", &alpha) == 0) {
        long long nb = gcn_ref_param_or(&r, "BATCH", 1);
        size_t na = (size_t)(nb * M * K), nbb = (size_t)(nb * N * K), nc = (size_t)(nb * M * N);
        uint16_t *a = gcn_ref_input(&r, "A", na * 2, NULL);
        uint16_t *b = gcn_ref_input(&r, "B", nbb * 2, NULL);
        float *c = malloc(nc * 4 + 4);
        uint32_t *bits = malloc((na > nbb ? na : nbb) * 4 + 4);
        gcn_mfma_val *av = malloc(na * sizeof *av + 1), *bv = malloc(nbb * sizeof *bv + 1);
        if (a && b && c && bits && av && bv) {
            gcn_mfma_type t = bf ? GCN_MT_BF16 : GCN_MT_F16;
            gcn_mfma_num nm;
            gcn_mfma_num_init(&nm, t, t, GCN_MT_F32, 0);
            for (size_t p = 0; p < na; p++)
                bits[p] = a[p];
            gcn_mfma_num_decode(&nm, 0, bits, na, av);
            for (size_t p = 0; p < nbb; p++)
                bits[p] = b[p];
            gcn_mfma_num_decode(&nm, 1, bits, nbb, bv);
            float al = (float)alpha;
            for (long long q = 0; q < nb; q++)
                for (long long i = 0; i < M; i++)
                    for (long long j = 0; j < N; j++) {
                        uint32_t d = gcn_mfma_num_dot_vals(&nm, &av[(q * M + i) * K],
                                                           &bv[(q * N + j) * K], (size_t)K, 0,
                                                           NULL);
                        c[(q * M + i) * N + j] = gcn_ref_f32(d) * al;
                    }
            gcn_ref_expect(&r, "C", GCN_REF_F32, c, nc);
            gcn_ref_unchanged(&r, "A");
            gcn_ref_unchanged(&r, "B");
        }
        free(a);
        free(b);
        free(c);
        free(bits);
        free(av);
        free(bv);
    }
    return gcn_ref_finish(&r);
}
