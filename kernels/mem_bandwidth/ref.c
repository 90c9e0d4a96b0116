/* ref.c -- C reference for kernels/mem_bandwidth: out[t] = wrapping u32 sum of all dwords of
 * the 16-byte vectors in[t], in[t+S], ... (< N), S = WG*256, for every grid work-item t. */
#include "ref_util.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long n, wg;
    if (gcn_ref_param(&r, "N", &n) == 0 && gcn_ref_param(&r, "WG", &wg) == 0) {
        size_t threads = (size_t)wg * 256;
        uint32_t *in = gcn_ref_input(&r, "in", (size_t)n * 16, NULL);
        uint32_t *out = calloc(threads + 1, 4);
        if (in && out) {
            for (size_t t = 0; t < threads; t++)
                for (size_t i = t; i < (size_t)n; i += threads)
                    out[t] += in[4 * i] + in[4 * i + 1] + in[4 * i + 2] + in[4 * i + 3];
            gcn_ref_expect(&r, "out", GCN_REF_U32, out, threads);
            gcn_ref_unchanged(&r, "in");
        }
        free(in);
        free(out);
    }
    return gcn_ref_finish(&r);
}
