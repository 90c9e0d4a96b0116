// Sparse SMFMAC: accumulation, index registers, results used.
#include "hz_common.h"
__global__ void smfmac_f16(v4f *o4, v16f *o16, const v4h *a, const v8h *b, const int *idx, int n) {
  int t = TID();
  v4f c4 = o4[t];
  v16f c16 = o16[t];
  for (int i = 0; i < n; i++) {
    c4 = __builtin_amdgcn_smfmac_f32_16x16x32_f16(a[t + i], b[t + i], c4, idx[t + i], 0, 0);
    c16 = __builtin_amdgcn_smfmac_f32_32x32x16_f16(a[t], b[t + i], c16, idx[t], 0, 0);
  }
  o4[t] = c4 + c16[1];
  o16[t] = c16;
}
__global__ void smfmac_i8(v4i *o4, const v2i *a, const v4i *b, int n) {
  int t = TID();
  v4i c4 = o4[t];
  for (int i = 0; i < n; i++)
    c4 = __builtin_amdgcn_smfmac_i32_16x16x64_i8(a[t + i], b[t + i], c4, c4[0] & 3, 0, 0);
  o4[t] = c4;
}
__global__ void smfmac_bf16(v4f *o4, const v4s *a, const v8s *b, const int *idx) {
  int t = TID();
  v4f c4 = __builtin_amdgcn_smfmac_f32_16x16x32_bf16(a[t], b[t], o4[t], idx[t], 0, 0);
  c4 = __builtin_amdgcn_smfmac_f32_16x16x32_bf16(a[t + 1], b[t + 1], c4, (int)c4[2], 0, 0);
  o4[t] = c4;
}
