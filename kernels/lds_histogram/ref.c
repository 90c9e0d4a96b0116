/* ref.c -- C reference for kernels/lds_histogram: hist[b] = #{ i < N : (in[i] & MASK) == b }
 * for b = 0..MASK (hist starts at zero), counted the plain sequential way. */
#include "ref_util.h"

#include <stdlib.h>

static void check_histogram(gcn_ref *r, long long n, long long mask)
{
    if (mask < 0 || mask > 255) {
        r->status = GCN_REF_BAD;
        return;
    }
    size_t bins = (size_t)mask + 1;
    uint32_t *in = gcn_ref_input(r, "in", (size_t)n * 4, NULL);
    uint32_t *hist = calloc(bins, 4);
    if (in && hist) {
        for (size_t i = 0; i < (size_t)n; i++)
            hist[in[i] & (uint32_t)mask]++;
        gcn_ref_expect(r, "hist", GCN_REF_U32, hist, bins);
        gcn_ref_unchanged(r, "in");
    }
    free(in);
    free(hist);
}

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long n, mask;
    if (gcn_ref_param(&r, "N", &n) == 0 && gcn_ref_param(&r, "MASK", &mask) == 0)
        check_histogram(&r, n, mask);
    return gcn_ref_finish(&r);
}
