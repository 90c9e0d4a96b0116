// A small tiled GEMM: f16 A/B tiles through LDS, four 32x32x8 accumulators
// per wave (enough register pressure to put accumulators in AGPRs), MFMA
// results scaled and converted in VALU, and fed back as the next A operand.
#include "hz_common.h"
__global__ void gemm_f16(v16f *c, const v4h *a, const v4h *b, int ktiles) {
  __shared__ v4h sa[256], sb[256];
  int t = TID();
  v16f acc0 = {0}, acc1 = {0}, acc2 = {0}, acc3 = {0};
  for (int k = 0; k < ktiles; k++) {
    sa[t] = a[k * 256 + t];
    sb[t] = b[k * 256 + t];
    __builtin_amdgcn_s_barrier();
    v4h a0 = sa[t], a1 = sa[(t + 64) & 255], b0 = sb[t], b1 = sb[(t + 128) & 255];
    acc0 = __builtin_amdgcn_mfma_f32_32x32x8f16(a0, b0, acc0, 0, 0, 0);
    acc1 = __builtin_amdgcn_mfma_f32_32x32x8f16(a0, b1, acc1, 0, 0, 0);
    acc2 = __builtin_amdgcn_mfma_f32_32x32x8f16(a1, b0, acc2, 0, 0, 0);
    acc3 = __builtin_amdgcn_mfma_f32_32x32x8f16(a1, b1, acc3, 0, 0, 0);
    __builtin_amdgcn_s_barrier();
  }
  c[4 * t + 0] = acc0;
  c[4 * t + 1] = acc1 * acc0[0];
  c[4 * t + 2] = acc2;
  c[4 * t + 3] = acc3 + acc1[15];
}
// MFMA -> VALU (scale, exp) -> convert -> next MFMA operand, as in attention.
__global__ void attn_like(v4f *o, const v4h *q, const v4h *k, const v4h *v, int n) {
  int t = TID();
  v4f s = {0}, acc = {0};
  for (int i = 0; i < n; i++) {
    s = __builtin_amdgcn_mfma_f32_16x16x16f16(q[t], k[t + i], (v4f){0}, 0, 0, 0);
    v4h p;
    for (int j = 0; j < 4; j++)
      p[j] = (_Float16)__builtin_amdgcn_exp2f(s[j] * 0.125f);
    acc = __builtin_amdgcn_mfma_f32_16x16x16f16(p, v[t + i], acc, 0, 0, 0);
  }
  o[t] = acc;
}
