// f32 (non-XDL) MFMA chains and their results read by VALU and stores.
#include "hz_common.h"
__global__ void f32_chain(v4f *o4, v16f *o16, v32f *o32, const float *a, const float *b, int n) {
  int t = TID();
  v4f c4 = o4[t];
  v16f c16 = o16[t];
  for (int i = 0; i < n; i++) {
    float x = a[t + i], y = b[t + i];
    c4 = __builtin_amdgcn_mfma_f32_4x4x1f32(x, y, c4, 0, 0, 0);
    c4 = __builtin_amdgcn_mfma_f32_16x16x4f32(c4[0], y, c4, 0, 0, 0);
    c16 = __builtin_amdgcn_mfma_f32_32x32x2f32(x, c4[1], c16, 0, 0, 0);
  }
  o4[t] = c4 * c4[2];
  o16[t] = c16 + c16[5];
}
__global__ void f32_blocks(v16f *o16, v32f *o32, const float *a) {
  int t = TID();
  v16f c16 = __builtin_amdgcn_mfma_f32_16x16x1f32(a[t], a[t + 1], o16[t], 0, 0, 0);
  v32f c32 = __builtin_amdgcn_mfma_f32_32x32x1f32(c16[3], a[t + 2], o32[t], 0, 0, 0);
  c16 = __builtin_amdgcn_mfma_f32_16x16x1f32(c32[7], c16[0], c16, 0, 0, 0);
  o16[t] = c16;
  o32[t] = c32;
}
