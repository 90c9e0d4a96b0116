/* ref.c -- C reference for kernels/wave_reduce: six-stage DPP sum of 64 f32 per wave,
 * out[w] = lane 63.  The DPP stages are emulated lane by lane with the kernel's operand
 * order (dst = src0[source lane] + src1[own lane]; lanes of rows outside row_mask keep their
 * value), so the f32 result is bit-exact. */
#include "ref_util.h"

#include <stdlib.h>
#include <string.h>

enum { LANES = 64 };

/* One v_add_f32_dpp v, v, v with source lane SRC[l] for the lanes of rows in ROW_MASK. */
static void dpp_add(float v[LANES], const int src[LANES], unsigned row_mask)
{
    float out[LANES];
    for (int l = 0; l < LANES; l++)
        out[l] = (row_mask >> (l / 16)) & 1 ? v[src[l]] + v[l] : v[l];
    memcpy(v, out, sizeof out);
}

static float reduce_wave(float v[LANES])
{
    int src[LANES];
    for (int l = 0; l < LANES; l++)            /* quad_perm:[1,0,3,2] */
        src[l] = l ^ 1;
    dpp_add(v, src, 0xf);
    for (int l = 0; l < LANES; l++)            /* quad_perm:[2,3,0,1] */
        src[l] = l ^ 2;
    dpp_add(v, src, 0xf);
    for (int l = 0; l < LANES; l++)            /* row_half_mirror */
        src[l] = (l & ~7) | (7 - (l & 7));
    dpp_add(v, src, 0xf);
    for (int l = 0; l < LANES; l++)            /* row_mirror */
        src[l] = (l & ~15) | (15 - (l & 15));
    dpp_add(v, src, 0xf);
    for (int l = 0; l < LANES; l++)            /* row_bcast:15: lane 15 of the row below */
        src[l] = l >= 16 ? (l & ~15) - 1 : l;
    dpp_add(v, src, 0xa);
    for (int l = 0; l < LANES; l++)            /* row_bcast:31 */
        src[l] = 31;
    dpp_add(v, src, 0xc);
    return v[63];
}

static void check_reduce(gcn_ref *r, long long n)
{
    size_t waves = (size_t)((n + 255) / 256) * 4;
    float *in = gcn_ref_input(r, "in", (size_t)n * 4, NULL);
    float *out = malloc(waves * 4 + 4);
    if (in && out) {
        for (size_t w = 0; w < waves; w++) {
            float v[LANES];
            for (size_t l = 0; l < LANES; l++)
                v[l] = w * LANES + l < (size_t)n ? in[w * LANES + l] : 0.0f;
            out[w] = reduce_wave(v);
        }
        gcn_ref_expect(r, "out", GCN_REF_F32, out, waves);
        gcn_ref_unchanged(r, "in");
    }
    free(in);
    free(out);
}

int main(int argc, char **argv)
{
    gcn_ref r;
    if (gcn_ref_open(&r, argc, argv))
        return gcn_ref_finish(&r);
    long long n;
    if (gcn_ref_param(&r, "N", &n) == 0)
        check_reduce(&r, n);
    return gcn_ref_finish(&r);
}
