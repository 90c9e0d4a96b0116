// VALU hazards: readlane/readfirstlane lane selects, DPP, trans
// results, v_div_fmas, setreg/getreg, divergent EXEC changes, wide stores.
#include "hz_common.h"
__global__ void lanes(int *out, const int *in, unsigned m) {
  int t = TID();
  int x = in[t] * 3 + 1;
  int s = __builtin_amdgcn_readfirstlane(x);
  int r = __builtin_amdgcn_readlane(x + s, s & 63);
  int w = r ^ x;
  int d = __builtin_amdgcn_update_dpp(0, w + t, 0x111, 0xf, 0xf, false);
  int e = __builtin_amdgcn_mov_dpp(d * 5, 0x121, 0xf, 0xf, false);
  if (t & 1)
    e = __builtin_amdgcn_update_dpp(e, e + x, 0x4e, 0xf, 0xf, true);
  out[t] = __builtin_amdgcn_readlane(e, (unsigned)e & 63) + e;
}
__global__ void trans(float *out, const float *in) {
  int t = TID();
  float x = in[t];
  float a = __builtin_amdgcn_exp2f(x);
  float b = __builtin_amdgcn_logf(a + 1.0f) * a;
  float c = __builtin_amdgcn_rcpf(b) + __builtin_amdgcn_sqrtf(x);
  float q = in[t + 1] / c;
  out[t] = q + __builtin_amdgcn_rsqf(q);
}
__global__ void mode(float *out, const float *in, int k) {
  int t = TID();
  __builtin_amdgcn_s_setreg(0x1801, k);
  __builtin_amdgcn_s_setreg(0x1801, k + 1);
  unsigned g = __builtin_amdgcn_s_getreg(0x1801);
  out[t] = in[t] * (float)g;
}
__global__ void wide(v4i *out, const v4i *in, int n) {
  int t = TID();
  v4i v = in[t];
  for (int i = 0; i < n; i++) {
    out[t + i] = v;
    v = v * 3 + i;
  }
}
