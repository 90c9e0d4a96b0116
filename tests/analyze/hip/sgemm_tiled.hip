// sgemm_tiled.hip -- C = A*B with 16x16 LDS tiles (two tiles per step, barriers
// around the LDS use): global loads, LDS writes and reads, a loop.
#include "lint_hip.h"
KERNEL void sgemm_tiled(const float *A, const float *B, float *C, unsigned n)
{
    SHARED float ta[16][17], tb[16][17];
    unsigned tx = tid_x() & 15, ty = tid_x() >> 4;
    unsigned row = wg_y() * 16 + ty, col = wg_x() * 16 + tx;
    float acc = 0.0f;
    for (unsigned k = 0; k < n; k += 16) {
        ta[ty][tx] = A[row * n + k + tx];
        tb[ty][tx] = B[(k + ty) * n + col];
        barrier();
        for (unsigned j = 0; j < 16; j++)
            acc += ta[ty][j] * tb[j][tx];
        barrier();
    }
    C[row * n + col] = acc;
}
