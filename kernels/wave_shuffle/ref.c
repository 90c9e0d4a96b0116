/* ref.c -- C reference for kernels/wave_shuffle: ds_bpermute_b32 gather within a wave,
 * out[i] = v[(i & ~63) | (sel[i] & 63)] with v[j] = in[j] for j < N, else 0 (i < N). */
#include "ref_util.h"

#include <stdlib.h>

static void check_shuffle(gcn_ref *r, long long n)
{
    uint32_t *in = gcn_ref_input(r, "in", (size_t)n * 4, NULL);
    uint32_t *sel = gcn_ref_input(r, "sel", (size_t)n * 4, NULL);
    uint32_t *out = malloc((size_t)n * 4 + 4);
    if (in && sel && out) {
        for (size_t i = 0; i < (size_t)n; i++) {
            size_t j = (i & ~(size_t)63) | (sel[i] & 63);
            out[i] = j < (size_t)n ? in[j] : 0;
        }
        gcn_ref_expect(r, "out", GCN_REF_U32, out, (size_t)n);
        gcn_ref_unchanged(r, "in");
        gcn_ref_unchanged(r, "sel");
    }
    free(in);
    free(sel);
    free(out);
}

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long n;
    if (gcn_ref_param(&r, "N", &n) == 0)
        check_shuffle(&r, n);
    return gcn_ref_finish(&r);
}
