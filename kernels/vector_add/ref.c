/* ref.c -- C reference for kernels/vector_add (all variants): C[i] = A[i] + B[i] in f32,
 * one IEEE single-precision add per element (the kernel's v_add_f32, denormals kept). */
#include "ref_util.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long n;
    if (gcn_ref_param(&r, "N", &n) == 0) {
        float *a = gcn_ref_input(&r, "A", (size_t)n * 4, NULL);
        float *b = gcn_ref_input(&r, "B", (size_t)n * 4, NULL);
        float *c = malloc((size_t)n * 4 + 4);
        if (a && b && c) {
            for (long long i = 0; i < n; i++)
                c[i] = a[i] + b[i];
            gcn_ref_expect(&r, "C", GCN_REF_F32, c, (size_t)n);
            gcn_ref_unchanged(&r, "A");
            gcn_ref_unchanged(&r, "B");
        }
        free(a);
        free(b);
        free(c);
    }
    return gcn_ref_finish(&r);
}
