// co_hip.hip -- test input for the code-object reader (tests/decode/test_codeobj.sh):
// compiler-generated kernels (clang-22 -x hip, device only, no ROCm headers).
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
typedef float v4f __attribute__((ext_vector_type(4)));

extern "C" __global__ void saxpy(float a, const float *x, float *y, int n)
{
    int i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        y[i] = a * x[i] + y[i];
}

extern "C" __global__ void mfma_lds(const float *a, const float *b, v4f *c)
{
    static __shared__ float lds[256];
    int t = __builtin_amdgcn_workitem_id_x();
    lds[t] = a[t];
    __builtin_amdgcn_s_barrier();
    v4f acc = c[t];
    acc = __builtin_amdgcn_mfma_f32_16x16x4f32(lds[t ^ 1], b[t], acc, 0, 0, 0);
    c[t] = acc;
}

extern "C" __global__ void grid3(int *out, int w, int h)
{
    int x = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
    int y = __builtin_amdgcn_workgroup_id_y() * 4 + __builtin_amdgcn_workitem_id_y();
    int z = __builtin_amdgcn_workgroup_id_z() + __builtin_amdgcn_workitem_id_z();
    if (x < w && y < h)
        out[(z * h + y) * w + x] = x ^ y ^ z;
}
