// argkinds.hip -- a HIP kernel with one argument of each kind gcnsim's argument help must
// describe (tests/sim/test_args.sh): a const global pointer, a global pointer, int, float,
// 64-bit and by-value struct scalars; blockDim from the implicit arguments makes the
// hidden (v5) arguments appear in the metadata.
#include "hip_min.h"

struct params {
    int n;
    float scale;
    double bias;
};

extern "C" __global__ void argkinds(const float *__restrict__ x, float *y, int n, float a,
                                    unsigned long long count, struct params p)
{
    unsigned i = gcn_tid() + gcn_wg_x() * gcn_block_x();
    if ((int)i < n && i < count)
        y[i] = a * x[i] * p.scale + (float)p.bias + (float)p.n;
}
