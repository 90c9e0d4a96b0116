/* ref.c -- C reference for kernels/mfma_f16_layouts (mfma_f16_std, _swap, _swizzle: the three
 * layouts compute the same C): C = A * B with A M x K f16 row-major, B K x N f16 stored
 * column-major (N x K row-major), C M x N f16 row-major, each element the f32 result of the
 * kernel's chain of v_mfma_f32_32x32x8_f16 (8-wide k steps in increasing k from C = 0, each
 * one MFMA group: src/sim/mfma_num.c, docs/mfma.md; with A and B swapped the products and
 * their order are the same) rounded to f16 by v_cvt_f16_f32 (round to nearest even, f16
 * denormals kept: the kernels' MODE).  C is compared as 32-bit words; when M*N is odd the
 * last half-word is not the kernel's and must keep its initial bytes. */
#include "ref_util.h"
#include "sim/gcn_mfma_num.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long M, N, K;
    if (gcn_ref_param(&r, "M", &M) == 0 && gcn_ref_param(&r, "N", &N) == 0 &&
        gcn_ref_param(&r, "K", &K) == 0) {
        size_t na = (size_t)(M * K), nb = (size_t)(N * K), nc = (size_t)(M * N);
        size_t words = (nc + 1) / 2;
        uint16_t *a = gcn_ref_input(&r, "A", na * 2, NULL);
        uint16_t *b = gcn_ref_input(&r, "B", nb * 2, NULL);
        uint16_t *c = gcn_ref_input(&r, "C", words * 4, NULL);   /* initial bytes */
        uint32_t *bits = malloc((na > nb ? na : nb) * 4 + 4);
        gcn_mfma_val *av = malloc(na * sizeof *av + 1), *bv = malloc(nb * sizeof *bv + 1);
        if (a && b && c && bits && av && bv) {
            gcn_mfma_num nm;
            gcn_mfma_num_init(&nm, GCN_MT_F16, GCN_MT_F16, GCN_MT_F32, 0);
            for (size_t p = 0; p < na; p++)
                bits[p] = a[p];
            gcn_mfma_num_decode(&nm, 0, bits, na, av);
            for (size_t p = 0; p < nb; p++)
                bits[p] = b[p];
            gcn_mfma_num_decode(&nm, 1, bits, nb, bv);
            size_t kk = (size_t)(K / 8 * 8);
            for (long long i = 0; i < M; i++)
                for (long long j = 0; j < N; j++) {
                    uint32_t d = gcn_mfma_num_dot_vals(&nm, &av[i * K], &bv[j * K], kk, 0, NULL);
                    _Float16 h = (_Float16)gcn_ref_f32(d);
                    memcpy(&c[i * N + j], &h, 2);
                }
            gcn_ref_expect(&r, "C", GCN_REF_U32, c, words);
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
