// transpose.hip -- out = transpose(in), ROWS x COLS row-major f32, through a 32x32 LDS tile
// padded to 33 columns (the padding, not an XOR swizzle as in kernels/lds_transpose, keeps
// the column reads free of bank conflicts); compiled by clang-22 for gfx942/gfx950.
// Workgroup (x, y) of 256 work-items moves the tile at input rows y*32.., columns x*32..;
// work-item t handles column t & 31 and rows (t >> 5) + 8k.
#include "../hip_min.h"

extern "C" __global__ GCN_LAUNCH_BOUNDS_256 void hip_transpose(const float *in, float *out,
                                                              unsigned rows, unsigned cols)
{
    __shared__ float tile[32][33];
    unsigned tid = gcn_tid();
    unsigned c = tid & 31, r0 = tid >> 5;
    unsigned bx = gcn_wg_x() * 32, by = gcn_wg_y() * 32;
    for (unsigned r = r0; r < 32; r += 8)
        if (by + r < rows && bx + c < cols)
            tile[r][c] = in[(by + r) * cols + bx + c];
    gcn_syncthreads();
    for (unsigned i = r0; i < 32; i += 8)
        if (bx + i < cols && by + c < rows)
            out[(bx + i) * rows + by + c] = tile[c][i];
}
