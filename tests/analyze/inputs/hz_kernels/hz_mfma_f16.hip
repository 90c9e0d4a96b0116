// f16 / bf16 XDL MFMAs: accumulation chains, partial reuse, results as A/B.
#include "hz_common.h"
__global__ void f16_chain(v4f *o4, v16f *o16, const v4h *a, const v4h *b, int n) {
  int t = TID();
  v4f c4 = {0};
  v16f c16 = {0};
  for (int i = 0; i < n; i++) {
    c4 = __builtin_amdgcn_mfma_f32_16x16x16f16(a[t + i], b[t + i], c4, 0, 0, 0);
    c16 = __builtin_amdgcn_mfma_f32_32x32x8f16(a[t + i], b[t], c16, 0, 0, 0);
  }
  v4h h = {(_Float16)c4[0], (_Float16)c4[1], (_Float16)c16[2], (_Float16)c16[3]};
  c4 = __builtin_amdgcn_mfma_f32_4x4x4f16(h, h, c4, 0, 0, 0);
  o4[t] = c4;
  o16[t] = c16 * c4[0];
}
__global__ void f16_blocks(v32f *o32, v16f *o16, const v4h *a) {
  int t = TID();
  v32f c32 = __builtin_amdgcn_mfma_f32_32x32x4f16(a[t], a[t + 1], o32[t], 0, 0, 0);
  v16f c16 = __builtin_amdgcn_mfma_f32_16x16x4f16(a[t + 2], a[t], o16[t], 0, 0, 0);
  c32 = __builtin_amdgcn_mfma_f32_32x32x4f16(a[t], a[t + 3], c32, 1, 0, 0);
  o32[t] = c32 + c16[4];
  o16[t] = c16;
}
__global__ void bf16_chain(v4f *o4, v16f *o16, const v4s *a, const v4s *b, int n) {
  int t = TID();
  v4f c4 = o4[t];
  v16f c16 = o16[t];
  for (int i = 0; i < n; i++) {
    c4 = __builtin_amdgcn_mfma_f32_16x16x16bf16_1k(a[t + i], b[t + i], c4, 0, 0, 0);
    c16 = __builtin_amdgcn_mfma_f32_32x32x8bf16_1k(a[t], b[t + i], c16, 0, 0, 0);
    c4 = __builtin_amdgcn_mfma_f32_4x4x4bf16_1k(a[t], b[t], c4, 0, 0, 0);
  }
  o4[t] = c4;
  o16[t] = c16;
}
