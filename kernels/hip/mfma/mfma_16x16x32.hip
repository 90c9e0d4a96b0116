// mfma_16x16x32.hip -- batched 16x16 products with K = 32 through the gfx950
// __builtin_amdgcn_mfma_f32_16x16x32_bf16 (v_mfma_f32_16x16x32_bf16), compiled by clang-22
// for gfx950 (on gfx942 the kernel is empty): for every item b, C_b = alpha * A_b * B_b with
// A_b 16 x 32 bf16 row-major, B_b 32 x 16 bf16 stored column-major (B_b^T 16 x 32
// row-major), C_b 16 x 16 f32 row-major.
// One item per wave, one MFMA (C = 0), four waves per workgroup; items past BATCH return.
// Fragments (docs/mfma.md, gfx950: 8 consecutive k per lane): lane l holds
// A[l%16][8*(l/16) + 0..7] and B^T alike; D register r of lane l is C[4*(l/16) + r][l%16].
#include "../hip_min.h"

typedef __bf16 v8bf __attribute__((ext_vector_type(8)));
typedef float v4f __attribute__((ext_vector_type(4)));

extern "C" __global__ GCN_LAUNCH_BOUNDS_256 void hip_mfma_16x16x32(const __bf16 *A,
                                                                  const __bf16 *B, float *C,
                                                                  unsigned batch, float alpha)
{
#if defined(__gfx950__)
    unsigned t = gcn_tid(), l = t & 63;
    unsigned item = gcn_wg_x() * 4 + (t >> 6);
    if (item >= batch)
        return;
    unsigned i = l & 15, g = l >> 4;
    v8bf a = *(const v8bf *)(A + item * 512 + i * 32 + 8 * g);
    v8bf b = *(const v8bf *)(B + item * 512 + i * 32 + 8 * g);
    v4f acc = __builtin_amdgcn_mfma_f32_16x16x32_bf16(a, b, (v4f){0, 0, 0, 0}, 0, 0, 0);
    acc *= alpha;
    for (unsigned r = 0; r < 4; r++)
        C[item * 256 + (4 * g + r) * 16 + i] = acc[r];
#else
    /* gfx942 has no v_mfma_f32_16x16x32_bf16: an empty kernel there, so that tools which
     * compile every kernels/hip source for gfx942 (tests/analyze) can; the manifest runs
     * it on gfx950 only */
    (void)A, (void)B, (void)C, (void)batch, (void)alpha;
#endif
}
