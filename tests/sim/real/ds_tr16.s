// ds_tr16.s -- gfx950 ds_read_b64_tr_b16 feeding an MFMA: D = A * B (16x16x16 f16 -> f32) with
// B stored N-contiguous (row-major K x N) in LDS and read transposed into the K-contiguous
// operand layout of v_mfma_f32_16x16x16_f16 (lane l: n = l % 16, k = 4 * (l / 16) + j).  Lane t
// of group g = l / 16 addresses B[4g + t / 4][4 * (t % 4) .. +3] (Triton's ds_read_tr base
// unit); D matches the reference only if lane i receives B[4g + j][i], j = 0..3.
// Args: A (16x16 f16, row-major M x K), B (16x16 f16, row-major K x N), D (16x16 f32).
.amdhsa_code_object_version 5
.text
.globl ds_tr16
.p2align 8
.type ds_tr16,@function
ds_tr16:
    s_load_dwordx4 s[4:7], s[0:1], 0x0          // A, B
    s_load_dwordx2 s[8:9], s[0:1], 0x10         // D
    v_lshlrev_b32 v10, 3, v0                    // lane * 8: B's bytes into LDS as they are
    v_and_b32 v11, 15, v0                       // i = lane % 16 (m of A, n of B and D)
    v_lshrrev_b32 v12, 4, v0                    // g = lane / 16
    s_waitcnt lgkmcnt(0)
    global_load_dwordx2 v[14:15], v10, s[6:7]
    // A operand: A[m = i][k = 4g .. 4g+3] -> byte (16 i + 4 g) * 2
    v_lshlrev_b32 v13, 4, v11
    v_lshl_add_u32 v13, v12, 2, v13
    v_lshlrev_b32 v13, 1, v13
    global_load_dwordx2 v[0:1], v13, s[4:5]
    s_waitcnt vmcnt(1)
    ds_write_b64 v10, v[14:15]
    // transposed B: lane t of group g reads B[4g + t/4][4 (t%4)] -> byte ((4g + t/4) * 16 + 4 (t%4)) * 2
    v_lshrrev_b32 v16, 2, v11                   // t / 4
    v_lshl_add_u32 v16, v12, 2, v16             // 4g + t/4
    v_lshlrev_b32 v16, 4, v16                   // * 16
    v_and_b32 v17, 3, v11
    v_lshl_add_u32 v16, v17, 2, v16             // + 4 (t % 4)
    v_lshlrev_b32 v16, 1, v16                   // bytes
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b64_tr_b16 v[2:3], v16
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_mfma_f32_16x16x16_f16 v[4:7], v[0:1], v[2:3], 0
    // D[4g + r][i] at byte ((4g + r) * 16 + i) * 4
    v_lshlrev_b32 v18, 6, v12                   // 4g * 16
    v_add_u32 v18, v18, v11
    v_lshlrev_b32 v18, 2, v18
    s_nop 7
    s_nop 7
    s_nop 3
    global_store_dword v18, v4, s[8:9]
    global_store_dword v18, v5, s[8:9] offset:64
    global_store_dword v18, v6, s[8:9] offset:128
    global_store_dword v18, v7, s[8:9] offset:192
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel ds_tr16
  .amdhsa_group_segment_fixed_size 512
  .amdhsa_kernarg_size 24
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 20
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 20
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: ds_tr16
    .symbol: ds_tr16.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 512
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 20
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: D, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata
