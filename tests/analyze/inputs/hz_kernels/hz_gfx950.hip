// gfx950-only MFMAs: f16/bf16 double-rate, scaled f8f6f4, and permlane swaps.
#include "hz_common.h"
__global__ void f16_950(v4f *o4, v16f *o16, const v8h *a, const v8bf *b, int n) {
  int t = TID();
  v4f c4 = o4[t];
  v16f c16 = o16[t];
  for (int i = 0; i < n; i++) {
    c4 = __builtin_amdgcn_mfma_f32_16x16x32_f16(a[t + i], a[t], c4, 0, 0, 0);
    c16 = __builtin_amdgcn_mfma_f32_32x32x16_bf16(b[t], b[t + i], c16, 0, 0, 0);
  }
  o4[t] = c4 + c16[0];
  o16[t] = c16;
}
__global__ void scale_950(v4f *o4, const v8i *a, const v8i *b, const int *s, int n) {
  int t = TID();
  v4f c4 = o4[t];
  for (int i = 0; i < n; i++)
    c4 = __builtin_amdgcn_mfma_scale_f32_16x16x128_f8f6f4(a[t + i], b[t], c4, 0, 0, 0, s[t], 0, s[t + i]);
  o4[t] = c4;
}
__global__ void perm_950(int *out, const int *in) {
  int t = TID();
  int x = in[t] + 1, y = in[t + 64] * 2;
  __attribute__((ext_vector_type(2))) unsigned r = __builtin_amdgcn_permlane16_swap(x, y, false, false);
  __attribute__((ext_vector_type(2))) unsigned q = __builtin_amdgcn_permlane32_swap(r.x + 1, r.y, false, false);
  out[t] = q.x + q.y;
}
// gfx950 scaled conversions that write part of their destination (fp8 byte,
// fp4 pair): a VALU using the result right away needs a wait state.
__global__ void cvt_950(unsigned *out, const float *in, const unsigned *seed, float scale) {
  int t = TID();
  float x = in[t], y = in[t + 64];
  unsigned s = seed[t];
  unsigned a = __builtin_amdgcn_cvt_scalef32_sr_fp8_f32(0, x, s, scale, 2);
  a = __builtin_amdgcn_cvt_scalef32_sr_bf8_f32(a, y, s, scale, 1) + 1;
  __attribute__((ext_vector_type(2))) float v = {x, y};
  unsigned b = __builtin_amdgcn_cvt_scalef32_sr_pk_fp4_f32(0, v, s, scale, 1);
  b = __builtin_amdgcn_cvt_scalef32_pk_fp4_f32(b, x, y, scale, 0) ^ b;
  out[t] = a + b;
}
