// bench_valu.s -- a VALU-heavy loop for bench/bench_sim.sh: every lane runs ITERS iterations of
// 16 dependent-free v_fma_f32 (four accumulator chains over 16 VGPRs), then stores the sum of its
// accumulators to out[global id].  Args: out (buffer), iters (u32).  gfx942 and gfx950.
.amdhsa_code_object_version 5
.text
.globl bench_valu
.p2align 8
.type bench_valu,@function
bench_valu:
    s_load_dwordx2 s[4:5], s[0:1], 0x0          // out
    s_load_dword s6, s[0:1], 0x8                // iters
    v_cvt_f32_u32 v1, v0                        // x = lane id
    v_mov_b32 v2, 0x3f800000                    // accumulators = 1.0
    v_mov_b32 v3, 0x3f800000
    v_mov_b32 v4, 0x3f800000
    v_mov_b32 v5, 0x3f800000
    v_mov_b32 v6, 0x3c23d70a                    // a = 0.01
    s_waitcnt lgkmcnt(0)
    s_mov_b32 s7, s6
.Lloop:
    v_fma_f32 v2, v2, v6, v1
    v_fma_f32 v3, v3, v6, v1
    v_fma_f32 v4, v4, v6, v1
    v_fma_f32 v5, v5, v6, v1
    v_fma_f32 v2, v2, v6, v1
    v_fma_f32 v3, v3, v6, v1
    v_fma_f32 v4, v4, v6, v1
    v_fma_f32 v5, v5, v6, v1
    v_fma_f32 v2, v2, v6, v1
    v_fma_f32 v3, v3, v6, v1
    v_fma_f32 v4, v4, v6, v1
    v_fma_f32 v5, v5, v6, v1
    v_fma_f32 v2, v2, v6, v1
    v_fma_f32 v3, v3, v6, v1
    v_fma_f32 v4, v4, v6, v1
    v_fma_f32 v5, v5, v6, v1
    s_sub_u32 s7, s7, 1
    s_cmp_lg_u32 s7, 0
    s_cbranch_scc1 .Lloop
    v_add_f32 v2, v2, v3
    v_add_f32 v4, v4, v5
    v_add_f32 v2, v2, v4
    s_lshl_b32 s8, s2, 8                        // workgroup * 256
    v_add_u32 v7, s8, v0
    v_lshlrev_b32 v7, 2, v7
    global_store_dword v7, v2, s[4:5]
    s_endpgm
.Lbench_valu_end:
.size bench_valu, .Lbench_valu_end - bench_valu

.rodata
.p2align 6
.amdhsa_kernel bench_valu
    .amdhsa_kernarg_size 12
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 8
    .amdhsa_float_denorm_mode_32 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: bench_valu
    .symbol: bench_valu.kd
    .kernarg_segment_size: 12
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 8
    .max_flat_workgroup_size: 256
    .args:
      - {.name: out, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: iters, .size: 4, .offset: 8, .value_kind: by_value}
...
.end_amdgpu_metadata
