/* hip_min.h -- the few HIP spellings the kernels in kernels/hip/ need, defined on clang's
 * builtins so they compile with clang-22 -x hip -nogpulib -nogpuinc (no ROCm headers, no
 * device libraries): function/variable attributes, work-item ids, a workgroup barrier with
 * LDS fences (what __syncthreads() does) and a wave shuffle on ds_bpermute. */
#ifndef GCN_HIP_MIN_H
#define GCN_HIP_MIN_H

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __shared__ __attribute__((shared))
#define GCN_LAUNCH_BOUNDS_256 __attribute__((amdgpu_flat_work_group_size(1, 256)))

static __device__ inline unsigned gcn_tid(void) { return __builtin_amdgcn_workitem_id_x(); }
static __device__ inline unsigned gcn_wg_x(void) { return __builtin_amdgcn_workgroup_id_x(); }
static __device__ inline unsigned gcn_wg_y(void) { return __builtin_amdgcn_workgroup_id_y(); }
/* blockDim.x: read from the implicit kernel arguments (hidden_group_size_x, code object v5). */
static __device__ inline unsigned gcn_block_x(void) { return __builtin_amdgcn_workgroup_size_x(); }

/* Lane id within the wave (0..63) from v_mbcnt_lo/hi over a full mask. */
static __device__ inline unsigned gcn_lane(void)
{
    return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

/* __shfl_xor for f32: the value of lane (lane ^ mask), fetched with ds_bpermute_b32. */
static __device__ inline float gcn_shfl_xor(float v, unsigned mask)
{
    int src = (int)((gcn_lane() ^ mask) << 2);
    return __builtin_bit_cast(float, __builtin_amdgcn_ds_bpermute(src, __builtin_bit_cast(int, v)));
}

/* __syncthreads(): release LDS writes, wait at the barrier, acquire. */
static __device__ inline void gcn_syncthreads(void)
{
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}

#endif
