// ds_tr4.s -- gfx950 ds_read_b64_tr_b4 feeding an MFMA: D = A * B (16x16x128 fp4 -> f32,
// v_mfma_f32_16x16x128_f8f6f4 cbsz:4 blgp:4) with B stored N-contiguous in LDS (row-major
// K x N, 16 fp4 = 8 bytes a row, low nibble = even n) and read transposed into the K-contiguous
// B operand (lane l: n = l % 16, k = 32 * (l / 16) + j, j = 0..31, low nibble = lower k; four
// VGPRs).  Lane t of group g addresses row k = 32g + t (first read) and 32g + 16 + t (second):
// 64 bits, 16 values of n.  D matches the reference only if lane i receives nibble i of lanes
// 0..15 in order (the plain 16 x 16 transpose of Triton's chooseDotDsReadB64TrLayout and MLIR's
// amdgpu.transpose_load, src/sim/ops_mem.c ds_read_tr).
// Args: A (16x128 fp4, row-major M x K, 64 bytes a row), B (128x16 fp4, K x N), D (16x16 f32).
.amdhsa_code_object_version 5
.text
.globl ds_tr4
.p2align 8
.type ds_tr4,@function
ds_tr4:
    s_load_dwordx4 s[4:7], s[0:1], 0x0          // A, B
    s_load_dwordx2 s[8:9], s[0:1], 0x10         // D
    v_lshlrev_b32 v20, 4, v0                    // lane * 16: B's 1024 bytes into LDS as they are
    v_and_b32 v21, 15, v0                       // i = lane % 16 (m of A, n of B and D)
    v_lshrrev_b32 v22, 4, v0                    // g = lane / 16
    s_waitcnt lgkmcnt(0)
    global_load_dwordx4 v[12:15], v20, s[6:7]
    // A operand: A[m = i][k = 32g .. 32g+31] -> bytes 64 i + 16 g .. +15
    v_lshlrev_b32 v23, 6, v21
    v_lshl_add_u32 v23, v22, 4, v23
    global_load_dwordx4 v[0:3], v23, s[4:5]
    s_waitcnt vmcnt(1)
    ds_write_b128 v20, v[12:15]
    // transposed B: lane t of group g reads row 32g + t at byte (32g + t) * 8, then row + 16
    v_lshlrev_b32 v24, 5, v22                   // 32g
    v_add_u32 v24, v24, v21                     // + t
    v_lshlrev_b32 v24, 3, v24                   // * 8
    s_waitcnt lgkmcnt(0)
    s_barrier
    ds_read_b64_tr_b4 v[8:9], v24
    ds_read_b64_tr_b4 v[10:11], v24 offset:128
    s_waitcnt vmcnt(0) lgkmcnt(0)
    v_mfma_f32_16x16x128_f8f6f4 v[4:7], v[0:3], v[8:11], 0 cbsz:4 blgp:4
    // D[4g + r][i] at byte ((4g + r) * 16 + i) * 4
    v_lshlrev_b32 v25, 6, v22
    v_add_u32 v25, v25, v21
    v_lshlrev_b32 v25, 2, v25
    s_nop 7
    s_nop 7
    s_nop 3
    global_store_dword v25, v4, s[8:9]
    global_store_dword v25, v5, s[8:9] offset:64
    global_store_dword v25, v6, s[8:9] offset:128
    global_store_dword v25, v7, s[8:9] offset:192
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel ds_tr4
  .amdhsa_group_segment_fixed_size 1024
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
  - .name: ds_tr4
    .symbol: ds_tr4.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
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
