// mfma_32x32x8.hip -- C = alpha * A * B on bf16 inputs with f32 results through
// __builtin_amdgcn_mfma_f32_32x32x8bf16_1k (v_mfma_f32_32x32x8_bf16), compiled by clang-22 for
// gfx942 and gfx950.  A: M x K bf16 row-major; B: K x N bf16 stored column-major (N x K
// row-major); C: M x N f32 row-major.  One wave (workgroup of 64) per 32x32 tile of C at
// rows 32*wg_y, columns 32*wg_x; K must be a multiple of 8, M and N are arbitrary.
// Fragments (AMD Matrix Instruction Calculator): lane l holds A[l%32][k0 + 4*(l/32) + 0..3]
// and B^T[l%32][...] alike; D register r of lane l is C[8*(r/4) + 4*(l/32) + r%4][l%32].
#include "../hip_min.h"

typedef short v4s __attribute__((ext_vector_type(4)));
typedef float v16f __attribute__((ext_vector_type(16)));

extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(64, 64))) void
hip_mfma_32x32x8(const unsigned short *A, const unsigned short *B, float *C, unsigned M,
                 unsigned N, unsigned K, float alpha)
{
    unsigned l = gcn_tid(), i = l & 31, h = l >> 5;
    unsigned m0 = gcn_wg_y() * 32, n0 = gcn_wg_x() * 32;
    v16f acc = {};
    for (unsigned k0 = 0; k0 < K; k0 += 8) {
        v4s a = {}, b = {};
        if (m0 + i < M)
            a = *(const v4s *)(A + (unsigned long)(m0 + i) * K + k0 + 4 * h);
        if (n0 + i < N)
            b = *(const v4s *)(B + (unsigned long)(n0 + i) * K + k0 + 4 * h);
        acc = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a, b, acc, 0, 0, 0);
    }
    acc *= alpha;                 // read right after the last MFMA: LLVM pads with s_nop
    for (unsigned r = 0; r < 16; r++) {
        unsigned row = m0 + 8 * (r / 4) + 4 * h + r % 4, col = n0 + i;
        if (row < M && col < N)
            C[(unsigned long)row * N + col] = acc[r];
    }
}
