// bench_lint_real.hip -- a realistic large input for bench/bench_lint.sh: four ordinary HIP
// kernels (LDS-tiled SGEMM with a 2x2 register block, grid-stride sum with an unrolled body
// and a shfl_xor butterfly, LDS 1-D stencil, LDS-tile transpose), each a template on V that
// changes unroll factors, strides and constants.  bench_lint.sh appends explicit
// instantiations for V = 0..M-1 and compiles with clang-22 -O3 (about 490 instructions per V
// on gfx942), so the code object is real compiler output with the compiler's own waits:
// gcnlint reports nothing on it.
#include "hip_min.h"
template <int V>
__global__ GCN_LAUNCH_BOUNDS_256 void sgemm_t(const float *A, const float *B, float *C, unsigned n)
{
    __shared__ float ta[32][33], tb[32][33];
    unsigned tx = gcn_tid() & 15, ty = gcn_tid() >> 4;
    unsigned row = gcn_wg_y() * 32 + ty * 2, col = gcn_wg_x() * 32 + tx * 2;
    float acc[2][2] = {{0.0f, 0.0f}, {0.0f, (float)V}};
    for (unsigned k = 0; k < n; k += 32) {
#pragma unroll
        for (int r = 0; r < 2; r++)
#pragma unroll
            for (int c = 0; c < 2; c++) {
                ta[ty * 2 + r][tx * 2 + c] = A[(row + r) * n + k + tx * 2 + c];
                tb[ty * 2 + r][tx * 2 + c] = B[(k + ty * 2 + r) * n + col + c + V];
            }
        gcn_syncthreads();
#pragma unroll
        for (unsigned j = 0; j < 32; j += 1 + V % 2)
#pragma unroll
            for (int r = 0; r < 2; r++)
#pragma unroll
                for (int c = 0; c < 2; c++)
                    acc[r][c] += ta[ty * 2 + r][j] * tb[j][tx * 2 + c];
        gcn_syncthreads();
    }
#pragma unroll
    for (int r = 0; r < 2; r++)
#pragma unroll
        for (int c = 0; c < 2; c++)
            C[(row + r) * n + col + c] = acc[r][c];
}
template <int V>
__global__ GCN_LAUNCH_BOUNDS_256 void reduce_t(const float *in, float *out, unsigned n, unsigned stride)
{
    __shared__ float part[4];
    unsigned tid = gcn_tid();
    float acc = 0.0f;
    unsigned i = gcn_wg_x() * 256 + tid;
    for (; i + (V % 8 + 3) * stride < n; i += (V % 8 + 4) * stride) {
#pragma unroll
        for (int u = 0; u < V % 8 + 4; u++)
            acc = acc + in[i + u * stride] * (float)(u + V);
    }
    for (; i < n; i += stride)
        acc = acc + in[i];
    for (unsigned m = 32; m >= 1; m >>= 1)
        acc = acc + gcn_shfl_xor(acc, m);
    if (gcn_lane() == 0)
        part[tid >> 6] = acc;
    gcn_syncthreads();
    if (tid == 0)
        out[gcn_wg_x()] = part[0] + part[1] + part[2] + part[3];
}
template <int V>
__global__ GCN_LAUNCH_BOUNDS_256 void stencil_t(const float *in, float *out, unsigned n)
{
    __shared__ float buf[256], halo[16];
    unsigned tid = gcn_tid(), g = gcn_wg_x() * 256 + tid;
    buf[tid] = g < n ? in[g] : 0.0f;
    if (tid < 16)
        halo[tid] = in[gcn_wg_x() * 256 + 256 + tid];
    gcn_syncthreads();
    float s = 0.0f;
#pragma unroll
    for (int r = 0; r <= V % 16 + 2; r++)
        s += (tid + r < 256 ? buf[tid + r] : halo[tid + r - 256]) * (float)(r * r + V);
    if (g < n)
        out[g] = s;
}
template <int V>
__global__ GCN_LAUNCH_BOUNDS_256 void transpose_t(const float *in, float *out, unsigned w, unsigned h)
{
    __shared__ float t[16][17];
    unsigned tx = gcn_tid() & 15, ty = gcn_tid() >> 4;
    unsigned x = gcn_wg_x() * 16 + tx, y = gcn_wg_y() * 16 + ty;
    if (x < w && y < h)
        t[ty][tx] = in[y * w + x] + (float)V;
    gcn_syncthreads();
    x = gcn_wg_y() * 16 + tx;
    y = gcn_wg_x() * 16 + ty;
    if (x < h && y < w)
        out[y * h + x] = t[tx][ty];
}
