// saxpy.hip -- the clang -O3 saxpy of bench/bench_peer.sh and bench/bench_ab.sh
// (manifest bench/saxpy.json): y = a * x + y, one element per work-item.  Compiled
// by those scripts with clang-22 -x hip --cuda-device-only -nogpulib -nogpuinc.
extern "C" __global__ __attribute__((amdgpu_flat_work_group_size(1, 256))) void
saxpy(float a, const float *x, float *y, unsigned n)
{
    unsigned i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
    if (i < n)
        y[i] = a * x[i] + y[i];
}
