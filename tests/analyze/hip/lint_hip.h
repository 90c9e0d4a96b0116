/* lint_hip.h -- HIP spellings for the linter's mutation-test kernels, on clang
 * builtins (compiled with clang-22 -x hip -nogpulib -nogpuinc). */
#ifndef LINT_HIP_H
#define LINT_HIP_H
#define KERNEL extern "C" __attribute__((global)) __attribute__((amdgpu_flat_work_group_size(1, 256)))
#define SHARED __attribute__((shared))
#define DEV static __attribute__((device)) inline
DEV unsigned tid_x(void) { return __builtin_amdgcn_workitem_id_x(); }
DEV unsigned tid_y(void) { return __builtin_amdgcn_workitem_id_y(); }
DEV unsigned wg_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
DEV unsigned wg_y(void) { return __builtin_amdgcn_workgroup_id_y(); }
DEV void barrier(void)
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
#endif
