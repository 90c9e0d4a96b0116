// i8 XDL MFMAs, fp8 MFMAs and integer post-processing of the results.
#include "hz_common.h"
__global__ void i8_chain(v4i *o4, v16i *o16, const long *a, const long *b, const int *c, int n) {
  int t = TID();
  v4i c4 = o4[t];
  v16i c16 = o16[t];
  for (int i = 0; i < n; i++) {
    c4 = __builtin_amdgcn_mfma_i32_16x16x32_i8(a[t + i], b[t + i], c4, 0, 0, 0);
    c16 = __builtin_amdgcn_mfma_i32_32x32x16_i8(a[t], b[t + i], c16, 0, 0, 0);
  }
  c4 = __builtin_amdgcn_mfma_i32_4x4x4i8(c[t], c4[1], c4, 0, 0, 0);
  o4[t] = c4 >> 3;
  o16[t] = c16 + c4[0];
}
__global__ void fp8_chain(v4f *o4, v16f *o16, const long *a, const long *b, int n) {
  int t = TID();
  v4f c4 = {0};
  v16f c16 = o16[t];
  for (int i = 0; i < n; i++) {
    c4 = __builtin_amdgcn_mfma_f32_16x16x32_fp8_fp8(a[t + i], b[t + i], c4, 0, 0, 0);
    c4 = __builtin_amdgcn_mfma_f32_16x16x32_bf8_fp8(a[t], b[t + i], c4, 0, 0, 0);
    c16 = __builtin_amdgcn_mfma_f32_32x32x16_fp8_bf8(a[t], b[t], c16, 0, 0, 0);
  }
  int p = __builtin_amdgcn_cvt_pk_fp8_f32(c4[0], c4[1], 0, false);
  p = __builtin_amdgcn_cvt_pk_fp8_f32(c4[2], c4[3], p, true);
  o4[t] = c4 + (float)p;
  o16[t] = c16;
}
