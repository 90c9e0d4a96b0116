// co_asm.s -- test input for the code-object reader (tests/decode/test_codeobj.sh):
// two hand-written kernels with deliberately varied kernel-descriptor settings
// and metadata, assembled by the test for gfx942 and gfx950 as code object v4,
// v5 and v6 (with -g for the line table).  No .amdgcn_target: the -mcpu decides.
.text
.globl copy_lds
.p2align 8
.type copy_lds,@function
copy_lds:
  s_load_dwordx4 s[8:11], s[6:7], 0x0
  v_lshlrev_b32 v1, 2, v0
  s_waitcnt lgkmcnt(0)
  global_load_dword v2, v1, s[8:9]
  s_mov_b32 s0, 0
loop_top:
  s_add_u32 s0, s0, 1
  s_cmp_lt_u32 s0, 4
  s_cbranch_scc1 loop_top
  s_waitcnt vmcnt(0)
  v_accvgpr_write_b32 a0, v2
  v_accvgpr_read_b32 v3, a0
  ds_write_b32 v1, v3
  s_waitcnt lgkmcnt(0)
  s_barrier
  ds_read_b32 v4, v1 offset:4
  s_waitcnt lgkmcnt(0)
  v_add_f32 v4, 1.0, v4
  v_mov_b32 v5, 0x12345678
  global_store_dword v1, v4, s[10:11]
  s_endpgm
.Lcopy_lds_end:
.size copy_lds, .Lcopy_lds_end-copy_lds

.globl tiny
.p2align 8
.type tiny,@function
tiny:
  s_nop 0
  s_endpgm
.Ltiny_end:
.size tiny, .Ltiny_end-tiny

.rodata
.p2align 6
.amdhsa_kernel copy_lds
  .amdhsa_group_segment_fixed_size 1024
  .amdhsa_private_segment_fixed_size 16
  .amdhsa_kernarg_size 24
  .amdhsa_user_sgpr_dispatch_ptr 1
  .amdhsa_user_sgpr_queue_ptr 1
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_user_sgpr_dispatch_id 1
  .amdhsa_user_sgpr_kernarg_preload_length 2
  .amdhsa_user_sgpr_kernarg_preload_offset 0
  .amdhsa_enable_private_segment 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_system_sgpr_workgroup_id_y 1
  .amdhsa_system_sgpr_workgroup_id_z 0
  .amdhsa_system_sgpr_workgroup_info 1
  .amdhsa_system_vgpr_workitem_id 1
  .amdhsa_next_free_vgpr 17
  .amdhsa_next_free_sgpr 20
  .amdhsa_accum_offset 8
  .amdhsa_tg_split 1
  .amdhsa_float_round_mode_32 1
  .amdhsa_float_round_mode_16_64 2
  .amdhsa_float_denorm_mode_32 2
  .amdhsa_float_denorm_mode_16_64 1
  .amdhsa_dx10_clamp 0
  .amdhsa_ieee_mode 0
  .amdhsa_fp16_overflow 1
  .amdhsa_exception_fp_ieee_div_zero 1
  .amdhsa_exception_int_div_zero 1
.end_amdhsa_kernel

.p2align 6
.amdhsa_kernel tiny
  .amdhsa_next_free_vgpr 1
  .amdhsa_next_free_sgpr 1
  .amdhsa_accum_offset 4
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: copy_lds
    .symbol: copy_lds.kd
    .kernarg_segment_size: 24
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 16
    .kernarg_segment_align: 8
    .wavefront_size: 64
    .sgpr_count: 20
    .vgpr_count: 6
    .agpr_count: 1
    .max_flat_workgroup_size: 512
    .args:
      - .name: in
        .offset: 0
        .size: 8
        .value_kind: global_buffer
        .address_space: global
      - .name: out
        .offset: 8
        .size: 8
        .value_kind: global_buffer
        .address_space: global
      - .name: n
        .offset: 16
        .size: 4
        .value_kind: by_value
  - .name: tiny
    .symbol: tiny.kd
    .kernarg_segment_size: 0
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .kernarg_segment_align: 4
    .wavefront_size: 64
    .sgpr_count: 0
    .vgpr_count: 0
    .max_flat_workgroup_size: 64
...
.end_amdgpu_metadata
