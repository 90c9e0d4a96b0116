/* ref.c -- C reference for kernels/mfma_bf16_16x16x32 (gfx950): C = A * B with A M x K bf16
 * row-major, B K x N bf16 column-major (N x K row-major), C M x N f32, computed exactly as the
 * kernel's chain of v_mfma_f32_16x16x32_bf16 does it: for each element, 32-wide k steps in
 * increasing k from C = 0, each MFMA four groups of 8 products (src/sim/mfma_num.c,
 * docs/mfma.md: the gfx950 16-bit MFMAs are modelled with CDNA3's groups of 8).  The
 * inputs are decoded once; one gcn_mfma_num_dot_vals over all of K per element is that
 * chain (its groups of 8 are chained through C). */
#include "ref_util.h"
#include "sim/gcn_mfma_num.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long M, N, K;
    if (gcn_ref_param(&r, "M", &M) == 0 && gcn_ref_param(&r, "N", &N) == 0 &&
        gcn_ref_param(&r, "K", &K) == 0) {
        size_t na = (size_t)(M * K), nb = (size_t)(N * K);
        uint16_t *a = gcn_ref_input(&r, "A", na * 2, NULL);
        uint16_t *b = gcn_ref_input(&r, "B", nb * 2, NULL);
        uint32_t *c = malloc((size_t)(M * N) * 4 + 4);
        uint32_t *bits = malloc((na > nb ? na : nb) * 4 + 4);
        gcn_mfma_val *av = malloc(na * sizeof *av + 1), *bv = malloc(nb * sizeof *bv + 1);
        if (a && b && c && bits && av && bv) {
            gcn_mfma_num nm;
            gcn_mfma_num_init(&nm, GCN_MT_BF16, GCN_MT_BF16, GCN_MT_F32, 1);
            for (size_t p = 0; p < na; p++)
                bits[p] = a[p];
            gcn_mfma_num_decode(&nm, 0, bits, na, av);
            for (size_t p = 0; p < nb; p++)
                bits[p] = b[p];
            gcn_mfma_num_decode(&nm, 1, bits, nb, bv);
            size_t kk = (size_t)(K / 32 * 32);
            for (long long i = 0; i < M; i++)
                for (long long j = 0; j < N; j++)
                    c[i * N + j] = gcn_mfma_num_dot_vals(&nm, &av[i * K], &bv[j * K], kk, 0,
                                                         NULL);
            gcn_ref_expect(&r, "C", GCN_REF_F32, c, (size_t)(M * N));
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
