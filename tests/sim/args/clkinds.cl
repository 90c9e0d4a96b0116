// clkinds.cl -- OpenCL C kernels for tests/sim/test_args.sh: compiled with
// -cl-kernel-arg-info, so the metadata has every argument's .name and .type_name,
// and .is_const, .address_space and .access of pointers; a local (LDS) pointer; two
// kernels in one object.  Work-item ids from clang builtins (no device library).
typedef struct { int n; float scale; double bias; } params;

kernel void clkinds(global const float *restrict x, global float *y, local float *tmp, int n,
                    float a, ulong count, params p)
{
    uint l = __builtin_amdgcn_workitem_id_x();
    ulong i = l + __builtin_amdgcn_workgroup_id_x() * 64u;
    tmp[l] = i < (ulong)n ? x[i] : 0.0f;
    if (i < (ulong)n && i < count)
        y[i] = a * tmp[l] * p.scale + (float)p.bias + (float)p.n;
}

kernel void clsecond(global int *out)
{
    out[__builtin_amdgcn_workitem_id_x()] = 1;
}
