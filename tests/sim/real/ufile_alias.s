// ufile_alias.s -- v160 written, then read back as a0 (the same row): B = (((A + 3)^2) ^ A) + A, one vgpr-agpr-alias finding
// The kernel descriptor allocates 256 unified VGPRs with accum_offset 160, as AITER's attention
// kernels do; on gfx90a and later vN for N >= accum_offset is the physical row of
// a(N - accum_offset) (AMDGPUUsage compute_pgm_rsrc3 ACCUM_OFFSET; docs/gcnsim.md).
// B[i] = f(A[i]) for i < 64 lanes of one wave; reference: tests/sim/test_real_rules.sh.
.amdhsa_code_object_version 5
.text
.globl ufile_alias
.p2align 8
.type ufile_alias,@function
ufile_alias:
    s_load_dwordx4 s[4:7], s[0:1], 0x0
    v_lshlrev_b32 v1, 2, v0
    s_waitcnt lgkmcnt(0)
    global_load_dword v200, v1, s[4:5]
    s_waitcnt vmcnt(0)
    v_mov_b32 v160, v200                        // row 160 = a0
    v_add_u32 v235, 3, v160
    v_mul_lo_u32 v170, v235, v235
    v_xor_b32 v2, v170, v160
    v_accvgpr_read_b32 v3, a0                   // the same physical register as v160
    s_nop 1
    v_add_u32 v2, v2, v3
    global_store_dword v1, v2, s[6:7]
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel ufile_alias
  .amdhsa_group_segment_fixed_size 0
  .amdhsa_kernarg_size 16
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 256
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 160
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: ufile_alias
    .symbol: ufile_alias.kd
    .kernarg_segment_size: 16
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 256
    .agpr_count: 96
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata
