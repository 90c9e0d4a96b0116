// mfma_f16_layouts.s -- the three C layouts of v_mfma_f32_32x32x8_f16 (the seeds'
// "matrix_core" lesson), as three kernels that compute the same C = A * B^T and differ only
// in how the tile reaches the MFMA and how the result is stored:
//   mfma_f16_std      standard: A is src0, B src1; a lane holds 4 consecutive rows of one
//                     column of C: element-wise buffer_store_short
//   mfma_f16_swap     A/B swapped (B is src0, A src1): the MFMA computes C^T, so a lane
//                     holds 4 consecutive columns of one row: buffer_store_dwordx2 of 4 f16
//   mfma_f16_swizzle  swapped, and the lanes load the rows of B in the order pi(r) (bits 2
//                     and 3 of r exchanged): a lane holds 8 consecutive columns of a row
//                     twice: buffer_store_dwordx4 of 8 f16
// Hand-written for gfx942 and gfx950 (one source; the assembler takes the target from -mcpu).
//
//   A: M x K f16, row-major;  B: K x N f16 stored column-major (= N x K row-major, "B^T");
//   C: M x N f16, row-major (each element the f32 MFMA result rounded to f16, RNE).
//   K must be a multiple of 8; M is arbitrary; N is arbitrary for std, a multiple of 4 for
//   swap, of 8 for swizzle.  Limits: byte offsets are 32-bit: M*K*2, N*K*2, (M+32)*N*2 < 2^31.
// Grid: ceil(N/32) x ceil(M/32) workgroups of 64 work-items (one wave, one 32x32 tile of C).
// Kernel arguments (36 bytes): A, B, C (8 each), M, N, K (u32).
//
// Per 8-wide k step the wave loads its MFMA fragments straight from memory (lane l:
// 8 bytes = 4 f16 of row l%32 of the A tile, k = 4*(l/32)..+3; the same of B^T) and
// issues one MFMA accumulating in AGPRs a[0:15].  Edge tiles: every buffer descriptor has
// num_records = the array's size, so rows of A (B^T) at or past M (N) load as 0 and rows
// of C past M are dropped; a store whose columns lie past N gets the per-lane offset
// 0x80000000 (past num_records), so it is dropped too.
//
// Register layouts (AMD Matrix Instruction Calculator, CDNA3, v_mfma_f32_32x32x8_f16):
//   A[i][k] (src0): lane i + 32*(k/4), register (k%4)/2, half k%2  (src1 B[k][j] alike, j)
//   D[i][j]: lane j + 32*((i/4)%2), register r = 4*(i/8) + i%4
// So lane l, register r = 4q + t holds D[8q + 4h + t][l%32], h = l/32.
//   std:      D = C: column l%32 of the tile, rows 8q + 4h + t.
//   swap:     D = C^T: row l%32, columns 8q + 4h + t: for each q, 4 consecutive columns.
//   swizzle:  the src0 lane i holds row pi(i) of B^T, so D[i][j] = C[j][pi(i)]: row l%32,
//             columns pi(8q + 4h + t) = 16*(q/2) + 8h + 4*(q%2) + t: registers 0..7 are
//             columns 8h..8h+7, registers 8..15 columns 16+8h..16+8h+7.
//
// Hazards (LLVM 22 GCNHazardRecognizer): v_accvgpr_write -> MFMA SrcC: 2 wait states (the
// loads and the wait in between); MFMA -> MFMA with SrcC = the same vdst: none; the 8-pass
// XDL result -> v_accvgpr_read (VALU): 11 on gfx942, 12 on gfx950: `s_nop 11`; VALU write
// of VCC -> v_cndmask reading it: 2 (hasVDecCoExecHazard): two VALU instructions between.
//
// SGPRs: s[0:1] kernarg pointer, s2 workgroup id x (tile column), s3 id y (tile row),
//   s[4:9] A, B, C pointers, s10 M, s11 N, s12 K, s[16:19] / s[20:23] / s[24:27] buffer
//   descriptors of A / B^T / C, s28 m0 = 32*id_y, s29 n0 = 32*id_x, s30 k steps left,
//   s31 scratch, s32 K*2 (row bytes of A and B^T), s33 N*2 (row bytes of C)
// VGPRs: v0 lane, v1 l%32, v2 h = l/32, v3 A fragment offset, v4 B^T fragment offset,
//   v5 row of B^T a lane loads, v[6:9] store offsets, v[10:11] / v[12:13] fragments,
//   v[20:35] the tile (f32, then f16), v[36:43] packed f16 pairs

.amdhsa_code_object_version 5

// The part every kernel shares: fragments, K loop, the tile read back and rounded to f16.
// swizzle: lanes load B^T row pi(l%32); swap: B^T fragment is src0.
.macro MFMA_F16_TILE name, swizzle, swap
    s_load_dwordx8 s[4:11], s[0:1], 0x0           // A, B, C, M, N
    s_load_dword s12, s[0:1], 0x20                // K
    v_and_b32 v1, 31, v0                          // l % 32
    v_lshrrev_b32 v2, 5, v0                       // h = l / 32
.if \swizzle
    v_and_b32 v5, 0x13, v1                        // pi(r): r with bits 2 and 3 exchanged
    v_bfe_u32 v6, v1, 2, 1
    v_lshl_or_b32 v5, v6, 3, v5
    v_bfe_u32 v6, v1, 3, 1
    v_lshl_or_b32 v5, v6, 2, v5
.else
    v_mov_b32 v5, v1
.endif
    s_lshl_b32 s28, s3, 5                         // m0
    s_lshl_b32 s29, s2, 5                         // n0
    v_accvgpr_write_b32 a0, 0
    v_accvgpr_write_b32 a1, 0
    v_accvgpr_write_b32 a2, 0
    v_accvgpr_write_b32 a3, 0
    v_accvgpr_write_b32 a4, 0
    v_accvgpr_write_b32 a5, 0
    v_accvgpr_write_b32 a6, 0
    v_accvgpr_write_b32 a7, 0
    v_accvgpr_write_b32 a8, 0
    v_accvgpr_write_b32 a9, 0
    v_accvgpr_write_b32 a10, 0
    v_accvgpr_write_b32 a11, 0
    v_accvgpr_write_b32 a12, 0
    v_accvgpr_write_b32 a13, 0
    v_accvgpr_write_b32 a14, 0
    v_accvgpr_write_b32 a15, 0
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s32, s12, 1                        // K*2
    s_lshl_b32 s33, s11, 1                        // N*2
    s_mov_b32 s16, s4                             // descriptor of A: num_records = M*K*2
    s_and_b32 s17, s5, 0xffff
    s_mul_i32 s18, s10, s32
    s_mov_b32 s19, 0x20000
    s_mov_b32 s20, s6                             // descriptor of B^T: N*K*2
    s_and_b32 s21, s7, 0xffff
    s_mul_i32 s22, s11, s32
    s_mov_b32 s23, 0x20000
    s_mov_b32 s24, s8                             // descriptor of C: M*N*2
    s_and_b32 s25, s9, 0xffff
    s_mul_i32 s26, s10, s33
    s_mov_b32 s27, 0x20000
    v_add_u32 v3, s28, v1                         // A: (m0 + l%32)*K*2 + 8*h
    v_mul_lo_u32 v3, v3, s32
    v_lshl_add_u32 v3, v2, 3, v3
    v_add_u32 v4, s29, v5                         // B^T: (n0 + row)*K*2 + 8*h
    v_mul_lo_u32 v4, v4, s32
    v_lshl_add_u32 v4, v2, 3, v4
    s_lshr_b32 s30, s12, 3                        // K / 8 steps
    s_cmp_eq_u32 s30, 0
    s_cbranch_scc1 .Lread_\name
.Lloop_\name:
    buffer_load_dwordx2 v[10:11], v3, s[16:19], 0 offen   // A fragment
    buffer_load_dwordx2 v[12:13], v4, s[20:23], 0 offen   // B^T fragment
    v_add_u32 v3, 16, v3                          // next k step: 8 f16 further
    v_add_u32 v4, 16, v4
    s_waitcnt vmcnt(0)
.if \swap
    v_mfma_f32_32x32x8_f16 a[0:15], v[12:13], v[10:11], a[0:15]
.else
    v_mfma_f32_32x32x8_f16 a[0:15], v[10:11], v[12:13], a[0:15]
.endif
    s_sub_u32 s30, s30, 1
    s_cmp_lg_u32 s30, 0
    s_cbranch_scc1 .Lloop_\name
.Lread_\name:
    s_nop 11                                      // XDL 8-pass result -> VALU read: 11/12
    v_accvgpr_read_b32 v20, a0
    v_accvgpr_read_b32 v21, a1
    v_accvgpr_read_b32 v22, a2
    v_accvgpr_read_b32 v23, a3
    v_accvgpr_read_b32 v24, a4
    v_accvgpr_read_b32 v25, a5
    v_accvgpr_read_b32 v26, a6
    v_accvgpr_read_b32 v27, a7
    v_accvgpr_read_b32 v28, a8
    v_accvgpr_read_b32 v29, a9
    v_accvgpr_read_b32 v30, a10
    v_accvgpr_read_b32 v31, a11
    v_accvgpr_read_b32 v32, a12
    v_accvgpr_read_b32 v33, a13
    v_accvgpr_read_b32 v34, a14
    v_accvgpr_read_b32 v35, a15
    v_cvt_f16_f32 v20, v20
    v_cvt_f16_f32 v21, v21
    v_cvt_f16_f32 v22, v22
    v_cvt_f16_f32 v23, v23
    v_cvt_f16_f32 v24, v24
    v_cvt_f16_f32 v25, v25
    v_cvt_f16_f32 v26, v26
    v_cvt_f16_f32 v27, v27
    v_cvt_f16_f32 v28, v28
    v_cvt_f16_f32 v29, v29
    v_cvt_f16_f32 v30, v30
    v_cvt_f16_f32 v31, v31
    v_cvt_f16_f32 v32, v32
    v_cvt_f16_f32 v33, v33
    v_cvt_f16_f32 v34, v34
    v_cvt_f16_f32 v35, v35
.endm

// One element-wise store of the standard layout: register \v holds row \row of the lane's
// group (rows m0 + 4h + \row), v6 = the lane's base offset.
.macro STORE_SHORT v, row
    s_mul_i32 s31, s33, \row
    v_add_u32 v7, s31, v6
    buffer_store_short \v, v7, s[24:27], 0 offen
.endm

// Offset of 4 (swap) or 8 (swizzle) columns of row m0 + l%32 starting at column v5:
// v6 = column < N ? (row*N + column)*2 : 0x80000000.  Uses v7, v8, vcc.
.macro ROW_OFFSET
    v_cmp_gt_u32 vcc, s11, v5                     // the columns are inside C (N % 4 or 8 = 0)
    v_add_u32 v6, s28, v1                         // row m0 + l%32
    v_mul_lo_u32 v6, v6, s11
    v_add_u32 v6, v6, v5
    v_lshlrev_b32 v6, 1, v6
    v_mov_b32 v8, 0x80000000
    v_cndmask_b32 v6, v8, v6, vcc
.endm

.text
.globl mfma_f16_std
.p2align 8
.type mfma_f16_std,@function
mfma_f16_std:
    MFMA_F16_TILE std, 0, 0
    v_add_u32 v5, s29, v1                         // column n0 + l%32
    v_cmp_gt_u32 vcc, s11, v5                     // column < N
    v_lshl_add_u32 v6, v2, 2, s28                 // row m0 + 4h
    v_mul_lo_u32 v6, v6, s11
    v_add_u32 v6, v6, v5
    v_lshlrev_b32 v6, 1, v6                       // (row*N + column)*2
    v_mov_b32 v8, 0x80000000                      // columns past N: an offset past the end
    v_cndmask_b32 v6, v8, v6, vcc
    STORE_SHORT v20, 0
    STORE_SHORT v21, 1
    STORE_SHORT v22, 2
    STORE_SHORT v23, 3
    STORE_SHORT v24, 8
    STORE_SHORT v25, 9
    STORE_SHORT v26, 10
    STORE_SHORT v27, 11
    STORE_SHORT v28, 16
    STORE_SHORT v29, 17
    STORE_SHORT v30, 18
    STORE_SHORT v31, 19
    STORE_SHORT v32, 24
    STORE_SHORT v33, 25
    STORE_SHORT v34, 26
    STORE_SHORT v35, 27
    s_endpgm
.Lmfma_f16_std_end:
.size mfma_f16_std, .Lmfma_f16_std_end - mfma_f16_std

.globl mfma_f16_swap
.p2align 8
.type mfma_f16_swap,@function
mfma_f16_swap:
    MFMA_F16_TILE swap, 0, 1
    v_pack_b32_f16 v36, v20, v21                  // columns 4h + 0..3 (q = 0)
    v_pack_b32_f16 v37, v22, v23
    v_pack_b32_f16 v38, v24, v25                  // 8 + 4h + 0..3 (q = 1)
    v_pack_b32_f16 v39, v26, v27
    v_pack_b32_f16 v40, v28, v29                  // 16 + 4h + 0..3 (q = 2)
    v_pack_b32_f16 v41, v30, v31
    v_pack_b32_f16 v42, v32, v33                  // 24 + 4h + 0..3 (q = 3)
    v_pack_b32_f16 v43, v34, v35
    v_lshl_add_u32 v5, v2, 2, s29                 // column n0 + 4h
    ROW_OFFSET
    buffer_store_dwordx2 v[36:37], v6, s[24:27], 0 offen
    v_add_u32 v5, 8, v5
    ROW_OFFSET
    buffer_store_dwordx2 v[38:39], v6, s[24:27], 0 offen
    v_add_u32 v5, 8, v5
    ROW_OFFSET
    buffer_store_dwordx2 v[40:41], v6, s[24:27], 0 offen
    v_add_u32 v5, 8, v5
    ROW_OFFSET
    buffer_store_dwordx2 v[42:43], v6, s[24:27], 0 offen
    s_endpgm
.Lmfma_f16_swap_end:
.size mfma_f16_swap, .Lmfma_f16_swap_end - mfma_f16_swap

.globl mfma_f16_swizzle
.p2align 8
.type mfma_f16_swizzle,@function
mfma_f16_swizzle:
    MFMA_F16_TILE swizzle, 1, 1
    v_pack_b32_f16 v36, v20, v21                  // columns 8h + 0..7
    v_pack_b32_f16 v37, v22, v23
    v_pack_b32_f16 v38, v24, v25
    v_pack_b32_f16 v39, v26, v27
    v_pack_b32_f16 v40, v28, v29                  // columns 16 + 8h + 0..7
    v_pack_b32_f16 v41, v30, v31
    v_pack_b32_f16 v42, v32, v33
    v_pack_b32_f16 v43, v34, v35
    v_lshl_add_u32 v5, v2, 3, s29                 // column n0 + 8h
    ROW_OFFSET
    buffer_store_dwordx4 v[36:39], v6, s[24:27], 0 offen
    v_add_u32 v5, 16, v5
    ROW_OFFSET
    buffer_store_dwordx4 v[40:43], v6, s[24:27], 0 offen
    s_endpgm
.Lmfma_f16_swizzle_end:
.size mfma_f16_swizzle, .Lmfma_f16_swizzle_end - mfma_f16_swizzle

.rodata
.macro KD name
.p2align 6
.amdhsa_kernel \name
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_kernarg_size 36
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_sgpr_workgroup_id_y 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 64
    .amdhsa_next_free_sgpr 36
    .amdhsa_accum_offset 48
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel
.endm
KD mfma_f16_std
KD mfma_f16_swap
KD mfma_f16_swizzle

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: mfma_f16_std
    .symbol: mfma_f16_std.kd
    .kernarg_segment_size: 36
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 42
    .vgpr_count: 64
    .agpr_count: 16
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: C, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: M, .size: 4, .offset: 24, .value_kind: by_value}
      - {.name: N, .size: 4, .offset: 28, .value_kind: by_value}
      - {.name: K, .size: 4, .offset: 32, .value_kind: by_value}
  - .name: mfma_f16_swap
    .symbol: mfma_f16_swap.kd
    .kernarg_segment_size: 36
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 42
    .vgpr_count: 64
    .agpr_count: 16
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: C, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: M, .size: 4, .offset: 24, .value_kind: by_value}
      - {.name: N, .size: 4, .offset: 28, .value_kind: by_value}
      - {.name: K, .size: 4, .offset: 32, .value_kind: by_value}
  - .name: mfma_f16_swizzle
    .symbol: mfma_f16_swizzle.kd
    .kernarg_segment_size: 36
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 42
    .vgpr_count: 64
    .agpr_count: 16
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: C, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: M, .size: 4, .offset: 24, .value_kind: by_value}
      - {.name: N, .size: 4, .offset: 28, .value_kind: by_value}
      - {.name: K, .size: 4, .offset: 32, .value_kind: by_value}
...
.end_amdgpu_metadata
