// mfma_tile.hip -- one 32x32x8 f16 MFMA per k step from global memory,
// accumulators in AGPRs/VGPRs, results stored.
#include "lint_hip.h"
typedef _Float16 half4 __attribute__((ext_vector_type(4)));
typedef float float16 __attribute__((ext_vector_type(16)));
KERNEL void mfma_tile(const half4 *a, const half4 *b, float16 *c, unsigned ksteps)
{
    unsigned t = tid_x();
    float16 acc = {};
    for (unsigned k = 0; k < ksteps; k++)
        acc = __builtin_amdgcn_mfma_f32_32x32x8f16(a[k * 64 + t], b[k * 64 + t], acc, 0, 0, 0);
    c[wg_x() * 64 + t] = acc;
}
