// mfma_16x16x16.hip -- batched 16x16 products through __builtin_amdgcn_mfma_f32_16x16x16f16
// (v_mfma_f32_16x16x16_f16), compiled by clang-22 for gfx942 and gfx950: for every item b,
// C_b = alpha * A_b * B_b with A_b 16 x 16 f16 row-major, B_b 16 x 16 f16 stored
// column-major (B_b^T row-major), C_b 16 x 16 f32 row-major, the items one after another.
// One item per wave, one MFMA (C = 0), four waves per workgroup; items past BATCH return.
// The seeds' "one MFMA per wave" lesson: the result is read right after the MFMA, so LLVM
// pads with an s_nop (7 wait states on gfx942, 8 on gfx950, minus what the scheduler fills).
// Fragments (AMD Matrix Instruction Calculator): lane l holds A[l%16][4*(l/16) + 0..3] and
// B^T alike; D register r of lane l is C[4*(l/16) + r][l%16].
#include "../hip_min.h"

typedef _Float16 v4h __attribute__((ext_vector_type(4)));
typedef float v4f __attribute__((ext_vector_type(4)));

extern "C" __global__ GCN_LAUNCH_BOUNDS_256 void hip_mfma_16x16x16(const _Float16 *A,
                                                                  const _Float16 *B, float *C,
                                                                  unsigned batch, float alpha)
{
    unsigned t = gcn_tid(), l = t & 63;
    unsigned item = gcn_wg_x() * 4 + (t >> 6);
    if (item >= batch)
        return;
    unsigned i = l & 15, g = l >> 4;
    v4h a = *(const v4h *)(A + item * 256 + i * 16 + 4 * g);
    v4h b = *(const v4h *)(B + item * 256 + i * 16 + 4 * g);
    v4f acc = __builtin_amdgcn_mfma_f32_16x16x16f16(a, b, (v4f){0, 0, 0, 0}, 0, 0, 0);
    acc *= alpha;
    for (unsigned r = 0; r < 4; r++)
        C[item * 256 + (4 * g + r) * 16 + i] = acc[r];
}
