// flat_mix.hip -- a generic pointer that may point to LDS or to global memory
// (FLAT loads counted in vmcnt and lgkmcnt), and a dwordx4 load.
#include "lint_hip.h"
typedef float f4 __attribute__((ext_vector_type(4)));
KERNEL void flat_mix(const float *g, float *out, const f4 *g4, unsigned sel)
{
    SHARED float lds[256];
    unsigned t = tid_x();
    lds[t] = g[t] * 3.0f;
    barrier();
    const float *p = (sel & 1) ? (const float *)lds : g;
    float a = p[(t + sel) & 255];
    f4 q = g4[t];
    out[t] = a + q.x + q.y * q.z - q.w;
}
