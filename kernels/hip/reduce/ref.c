/* ref.c -- C reference for kernels/hip/reduce: out[wg] for every workgroup, in the kernel's
 * f32 order: per work-item acc = acc + in[i] over i = g, g+S, ... (< N, S = WG*256); per
 * wave a shfl_xor butterfly acc = acc + acc[lane ^ m] for m = 32, 16, ..., 1; then
 * out[wg] = ((p0 + p1) + p2) + p3 over the 4 wave sums (lane 0 of each wave). */
#include "ref_util.h"

#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long n, wg;
    if (gcn_ref_param(&r, "N", &n) == 0 && gcn_ref_param(&r, "WG", &wg) == 0) {
        size_t stride = (size_t)wg * 256;
        float *in = gcn_ref_input(&r, "in", (size_t)n * 4, NULL);
        float *out = malloc((size_t)wg * 4 + 4);
        if (in && out) {
            for (size_t g = 0; g < (size_t)wg; g++) {
                float part[4];
                for (int w = 0; w < 4; w++) {
                    float v[64], t[64];
                    for (int l = 0; l < 64; l++) {
                        float acc = 0.0f;
                        for (size_t i = g * 256 + (size_t)w * 64 + (size_t)l; i < (size_t)n; i += stride)
                            acc = acc + in[i];
                        v[l] = acc;
                    }
                    for (int m = 32; m >= 1; m >>= 1) {
                        for (int l = 0; l < 64; l++)
                            t[l] = v[l] + v[l ^ m];
                        memcpy(v, t, sizeof v);
                    }
                    part[w] = v[0];
                }
                out[g] = part[0] + part[1] + part[2] + part[3];
            }
            gcn_ref_expect(&r, "out", GCN_REF_F32, out, (size_t)wg);
            gcn_ref_unchanged(&r, "in");
        }
        free(in);
        free(out);
    }
    return gcn_ref_finish(&r);
}
