// vector_add.hip -- c[i] = a[i] + b[i] (f32) compiled by clang-22 for gfx942/gfx950: the
// compiler-generated counterpart of kernels/vector_add (bounds check by EXEC masking, global
// loads, compiler-chosen waits; blockDim.x read from the code object v5 implicit arguments).
#include "../hip_min.h"

extern "C" __global__ GCN_LAUNCH_BOUNDS_256 void hip_vector_add(const float *a, const float *b,
                                                               float *c, unsigned n)
{
    unsigned i = gcn_wg_x() * gcn_block_x() + gcn_tid();
    if (i < n)
        c[i] = a[i] + b[i];
}
