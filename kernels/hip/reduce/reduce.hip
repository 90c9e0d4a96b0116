// reduce.hip -- f32 sum, one partial per workgroup, compiled by clang-22 for gfx942/gfx950.
// Each work-item adds in[g], in[g+stride], ... (stride = grid work-items) in that order; the
// wave sums with a shfl_xor butterfly (masks 32, 16, 8, 4, 2, 1) on ds_bpermute_b32; lane 0
// of each of the 4 waves puts its sum in LDS; after the barrier work-item 0 writes
// out[wg] = ((p0 + p1) + p2) + p3.  No fast-math: the compiler keeps this order.
#include "../hip_min.h"

extern "C" __global__ GCN_LAUNCH_BOUNDS_256 void hip_reduce(const float *in, float *out,
                                                           unsigned n, unsigned stride)
{
    __shared__ float part[4];
    unsigned tid = gcn_tid();
    float acc = 0.0f;
    for (unsigned i = gcn_wg_x() * 256 + tid; i < n; i += stride)
        acc = acc + in[i];
    for (unsigned m = 32; m >= 1; m >>= 1)
        acc = acc + gcn_shfl_xor(acc, m);
    if (gcn_lane() == 0)
        part[tid >> 6] = acc;
    gcn_syncthreads();
    if (tid == 0)
        out[gcn_wg_x()] = part[0] + part[1] + part[2] + part[3];
}
