// ds_tr6.s -- gfx950 ds_read_b96_tr_b6 feeding an MFMA: D = A * B (16x16x128 fp6 e2m3 -> f32,
// v_mfma_f32_16x16x128_f8f6f4 cbsz:2 blgp:2) with B stored N-contiguous in LDS (row-major
// K x N, 16 fp6 = 96 bits a row, value n at bits 6n .. 6n+5, rows 16 bytes apart) and read
// transposed into the K-contiguous B operand (lane l: n = l % 16, k = 32 * (l / 16) + j at bits
// 6j .. 6j+5 of six VGPRs).  Lane t of group g addresses row k = 32g + t (first read, three
// VGPRs) and 32g + 16 + t (second).  D matches the reference only if lane i receives value i of
// lanes 0..15 in order, packed contiguously across the dwords (src/sim/ops_mem.c ds_read_tr).
// Args: A (16x128 fp6, row-major M x K, 96 bytes a row), B (128x16 fp6, K x N, 12 bytes a
// row), D (16x16 f32).
.amdhsa_code_object_version 5
.text
.globl ds_tr6
.p2align 8
.type ds_tr6,@function
ds_tr6:
    s_load_dwordx4 s[4:7], s[0:1], 0x0          // A, B
    s_load_dwordx2 s[8:9], s[0:1], 0x10         // D
    v_mul_u32_u24 v20, 24, v0                   // lane l copies rows 2l, 2l+1 of B: bytes 24 l
    v_lshlrev_b32 v26, 5, v0                    // to LDS 32 l and 32 l + 16
    v_and_b32 v21, 15, v0                       // i = lane % 16 (m of A, n of B and D)
    v_lshrrev_b32 v22, 4, v0                    // g = lane / 16
    s_waitcnt lgkmcnt(0)
    global_load_dwordx2 v[12:13], v20, s[6:7]   // (gfx90a+ register tuples start even)
    global_load_dwordx2 v[14:15], v20, s[6:7] offset:8
    global_load_dwordx2 v[16:17], v20, s[6:7] offset:16
    // A operand: A[m = i][k = 32g .. 32g+31] -> bytes 96 i + 24 g .. +23
    v_mul_u32_u24 v23, 96, v21
    v_mad_u32_u24 v23, v22, 24, v23
    global_load_dwordx2 v[0:1], v23, s[4:5]
    global_load_dwordx2 v[2:3], v23, s[4:5] offset:8
    global_load_dwordx2 v[4:5], v23, s[4:5] offset:16
    s_waitcnt vmcnt(3)
    ds_write_b96 v26, v[12:14]                  // row 2l: dwords 0-2
    ds_write_b32 v26, v15 offset:16             // row 2l+1: dwords 3-5
    ds_write_b64 v26, v[16:17] offset:20
    // transposed B: lane t of group g reads row 32g + t at byte (32g + t) * 16, then row + 16
    v_lshlrev_b32 v24, 5, v22                   // 32g
    v_add_u32 v24, v24, v21                     // + t
    v_lshlrev_b32 v24, 4, v24                   // * 16
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b96_tr_b6 v[8:10], v24
    ds_read_b96_tr_b6 v[11:13], v24 offset:256
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_mfma_f32_16x16x128_f8f6f4 v[28:31], v[0:5], v[8:13], 0 cbsz:2 blgp:2
    // D[4g + r][i] at byte ((4g + r) * 16 + i) * 4
    v_lshlrev_b32 v25, 6, v22
    v_add_u32 v25, v25, v21
    v_lshlrev_b32 v25, 2, v25
    s_nop 7
    s_nop 7
    s_nop 3
    global_store_dword v25, v28, s[8:9]
    global_store_dword v25, v29, s[8:9] offset:64
    global_store_dword v25, v30, s[8:9] offset:128
    global_store_dword v25, v31, s[8:9] offset:192
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel ds_tr6
  .amdhsa_group_segment_fixed_size 2048
  .amdhsa_kernarg_size 24
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_next_free_vgpr 32
  .amdhsa_next_free_sgpr 16
  .amdhsa_accum_offset 32
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: ds_tr6
    .symbol: ds_tr6.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 2048
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 16
    .vgpr_count: 32
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: D, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
...
.end_amdgpu_metadata
