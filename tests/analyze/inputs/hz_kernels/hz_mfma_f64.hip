// DGEMM (f64 MFMA) chains, results read by VALU and f64 FMA.
#include "hz_common.h"
__global__ void f64_chain(v4d *o4, double *o1, const double *a, const double *b, int n) {
  int t = TID();
  v4d c4 = o4[t];
  double c1 = o1[t];
  for (int i = 0; i < n; i++) {
    c4 = __builtin_amdgcn_mfma_f64_16x16x4f64(a[t + i], b[t + i], c4, 0, 0, 0);
    c1 = __builtin_amdgcn_mfma_f64_4x4x4f64(a[t], b[t + i], c1, 0, 0, 0);
  }
  c1 = __builtin_fma(c1, a[t], c4[0]);
  c4 = __builtin_amdgcn_mfma_f64_16x16x4f64(c1, c4[1], c4, 0, 0, 0);
  o4[t] = c4;
  o1[t] = __builtin_fma(c1, b[t], 2.0);
}
__global__ void f64_mixed(v4d *o4, v4f *of, const double *a, const v4h *h) {
  int t = TID();
  v4d c4 = __builtin_amdgcn_mfma_f64_16x16x4f64(a[t], a[t + 1], o4[t], 0, 0, 0);
  v4f f = __builtin_amdgcn_mfma_f32_16x16x16f16(h[t], h[t + 1], of[t], 0, 0, 0);
  double d = __builtin_amdgcn_mfma_f64_4x4x4f64(c4[2], (double)f[0], c4[3], 0, 0, 0);
  o4[t] = c4 * d;
  of[t] = f;
}
