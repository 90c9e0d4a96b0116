// mfma_gemm_bf16.s -- C = A * B on bf16 inputs with f32 results, one wave per 32x32 tile of C,
// v_mfma_f32_32x32x8_bf16 with the accumulator kept in AGPRs a[0:15] across the K loop.
// Hand-written for gfx942 and gfx950 (one source; the assembler takes the target from -mcpu).
//
//   A: M x K bf16, row-major;  B: K x N bf16 stored column-major (= N x K row-major, "B^T");
//   C: M x N f32, row-major.   K must be a multiple of 32; M and N are arbitrary.
// Grid: ceil(N/32) x ceil(M/32) workgroups of 64 work-items (one wave each).
// Kernel arguments (36 bytes): A, B, C (8 each), M, N, K (u32).
// Limits: byte offsets are 32-bit: M*K*2, N*K*2 and (M + 32)*N*4 < 2^31.
//
// Edge tiles need no EXEC changes: every buffer descriptor has num_records = the array's
// size, so rows of A (B^T) at or past M (N) load as 0 and rows of C past M are dropped; a
// column of C past N gets a per-lane store offset of 0x80000000 (past num_records).
//
// Per 32-wide K chunk: each lane loads 16 bytes of two rows of the A tile and of the B^T
// tile (coalesced: 4 lanes per 64-byte row; buffer_load_dwordx4), writes them to LDS
// (row stride 80 bytes), and reads back the MFMA fragments (ds_read_b64: lane l gets row
// l%32, k = 4*(l/32)..+3 of each 8-wide step), then issues four MFMAs in k order.
// Register layouts (AMD Matrix Instruction Calculator, CDNA3, v_mfma_f32_32x32x8_bf16):
//   A[i][k]: lane i + 32*(k/4), register (k%4)/2, half k%2   (B[k][j] alike with j)
//   D[i][j]: lane j + 32*((i/4)%2), register 4*(i/8) + i%4
// Hazards (LLVM 22 GCNHazardRecognizer; what llc inserts for this pattern): the MFMAs
// chain through SrcC = vdst of the same shape with no wait states; a VALU read
// (v_accvgpr_read) of an 8-pass XDL result needs 11 wait states on gfx942, 12 on gfx950:
// `s_nop 11` (12) before the first v_accvgpr_read.
//
// SGPRs: s[0:1] kernarg pointer, s2 workgroup id x (tile column), s3 id y (tile row),
//   s[4:9] A, B, C pointers, s10 M, s11 N, s12 K, s[16:19] / s[20:23] / s[24:27] buffer
//   descriptors of A / B^T / C, s28 m0 = 32*id_y, s29 n0 = 32*id_x, s30 chunks left,
//   s31 scratch, s32 K*2 (row bytes of A and B^T), s33 N*4 (row bytes of C), s34 16*K*2
// VGPRs: v0 lane, v1 row l/4 of a load, v2 byte column 16*(l%4), v3/v4 A offsets (rows
//   l/4, l/4+16), v5/v6 B^T offsets, v7 LDS write address, v8 LDS read address, v9 C store
//   base offset, v[10:13] .. v[22:25] loaded tile data, v[28:43] fragments, v[44:59] C,
//   v60 store offset

.amdhsa_code_object_version 5

.text
.globl mfma_gemm_bf16
.p2align 8
.type mfma_gemm_bf16,@function
mfma_gemm_bf16:
    s_load_dwordx8 s[4:11], s[0:1], 0x0           // A, B, C, M, N
    s_load_dword s12, s[0:1], 0x20                // K
    v_lshrrev_b32 v1, 2, v0                       // r = l/4
    v_and_b32 v2, 3, v0
    v_lshlrev_b32 v2, 4, v2                       // 16 * (l%4) bytes
    v_mul_u32_u24 v7, 0x50, v1                    // LDS write: r*80 + 16*(l%4)
    v_add_u32 v7, v7, v2
    v_and_b32 v8, 31, v0                          // LDS read: (l%32)*80 + 8*(l/32)
    v_mul_u32_u24 v8, 0x50, v8
    v_lshrrev_b32 v9, 5, v0
    v_lshl_add_u32 v8, v9, 3, v8
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
    s_lshl_b32 s33, s11, 2                        // N*4
    s_lshl_b32 s34, s32, 4                        // 16 rows of A / B^T in bytes
    s_mov_b32 s16, s4                             // descriptor of A: num_records = M*K*2
    s_and_b32 s17, s5, 0xffff
    s_mul_i32 s18, s10, s32
    s_mov_b32 s19, 0x20000
    s_mov_b32 s20, s6                             // descriptor of B^T: N*K*2
    s_and_b32 s21, s7, 0xffff
    s_mul_i32 s22, s11, s32
    s_mov_b32 s23, 0x20000
    s_mov_b32 s24, s8                             // descriptor of C: M*N*4
    s_and_b32 s25, s9, 0xffff
    s_mul_i32 s26, s10, s33
    s_mov_b32 s27, 0x20000
    v_add_u32 v3, s28, v1                         // A offset: ((m0 + r)*K)*2 + 16*(l%4)
    v_mul_lo_u32 v3, v3, s32
    v_add_u32 v3, v3, v2
    v_add_u32 v4, s34, v3                         //   rows r + 16
    v_add_u32 v5, s29, v1                         // B^T offset: ((n0 + r)*K)*2 + 16*(l%4)
    v_mul_lo_u32 v5, v5, s32
    v_add_u32 v5, v5, v2
    v_add_u32 v6, s34, v5
    s_lshr_b32 s30, s12, 5                        // K / 32 chunks
    s_cmp_eq_u32 s30, 0
    s_cbranch_scc1 .Lstore

.Lloop:
    buffer_load_dwordx4 v[10:13], v3, s[16:19], 0 offen
    buffer_load_dwordx4 v[14:17], v4, s[16:19], 0 offen
    buffer_load_dwordx4 v[18:21], v5, s[20:23], 0 offen
    buffer_load_dwordx4 v[22:25], v6, s[20:23], 0 offen
    v_add_u32 v3, 64, v3                          // next chunk: 32 bf16 further
    v_add_u32 v4, 64, v4
    v_add_u32 v5, 64, v5
    v_add_u32 v6, 64, v6
    s_waitcnt vmcnt(0)
    ds_write_b128 v7, v[10:13]                    // A rows r
    ds_write_b128 v7, v[14:17] offset:1280        // A rows r+16
    ds_write_b128 v7, v[18:21] offset:2560        // B^T rows r
    ds_write_b128 v7, v[22:25] offset:3840        // B^T rows r+16
    s_waitcnt lgkmcnt(0)
    ds_read_b64 v[28:29], v8                      // A fragments, k steps 0..3
    ds_read_b64 v[30:31], v8 offset:16
    ds_read_b64 v[32:33], v8 offset:32
    ds_read_b64 v[34:35], v8 offset:48
    ds_read_b64 v[36:37], v8 offset:2560          // B fragments
    ds_read_b64 v[38:39], v8 offset:2576
    ds_read_b64 v[40:41], v8 offset:2592
    ds_read_b64 v[42:43], v8 offset:2608
    s_waitcnt lgkmcnt(0)
    v_mfma_f32_32x32x8_bf16 a[0:15], v[28:29], v[36:37], a[0:15]
    v_mfma_f32_32x32x8_bf16 a[0:15], v[30:31], v[38:39], a[0:15]
    v_mfma_f32_32x32x8_bf16 a[0:15], v[32:33], v[40:41], a[0:15]
    v_mfma_f32_32x32x8_bf16 a[0:15], v[34:35], v[42:43], a[0:15]
    s_sub_u32 s30, s30, 1
    s_cmp_lg_u32 s30, 0
    s_cbranch_scc1 .Lloop

.Lstore:
    s_nop 11                                      // XDL 8-pass result -> VALU read: 11/12
    v_accvgpr_read_b32 v44, a0
    v_accvgpr_read_b32 v45, a1
    v_accvgpr_read_b32 v46, a2
    v_accvgpr_read_b32 v47, a3
    v_accvgpr_read_b32 v48, a4
    v_accvgpr_read_b32 v49, a5
    v_accvgpr_read_b32 v50, a6
    v_accvgpr_read_b32 v51, a7
    v_accvgpr_read_b32 v52, a8
    v_accvgpr_read_b32 v53, a9
    v_accvgpr_read_b32 v54, a10
    v_accvgpr_read_b32 v55, a11
    v_accvgpr_read_b32 v56, a12
    v_accvgpr_read_b32 v57, a13
    v_accvgpr_read_b32 v58, a14
    v_accvgpr_read_b32 v59, a15
    v_and_b32 v10, 31, v0                         // j = l%32
    v_add_u32 v11, s29, v10                       // n0 + j
    v_cmp_gt_u32 vcc, s11, v11                    // early: a VALU reading VCC needs 2 wait states after the VALU writing it (gfx940+)
    v_lshrrev_b32 v12, 5, v0                      // row m0 + 4*(l/32)
    v_lshl_add_u32 v12, v12, 2, s28
    v_mul_lo_u32 v9, v12, s11                     // ((m0 + 4*(l/32))*N + n0 + j)*4
    v_add_u32 v9, v9, v11
    v_lshlrev_b32 v9, 2, v9
    v_mov_b32 v13, 0x80000000                     // columns past N: an offset past the end
    v_cndmask_b32 v9, v13, v9, vcc
    s_mov_b32 s31, 0
    v_add_u32 v60, s31, v9
    buffer_store_dword v44, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 1                        // row 1 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v45, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 2                        // row 2 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v46, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 3                        // row 3 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v47, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 8                        // row 8 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v48, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 9                        // row 9 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v49, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 10                        // row 10 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v50, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 11                        // row 11 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v51, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 16                        // row 16 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v52, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 17                        // row 17 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v53, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 18                        // row 18 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v54, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 19                        // row 19 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v55, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 24                        // row 24 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v56, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 25                        // row 25 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v57, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 26                        // row 26 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v58, v60, s[24:27], 0 offen
    s_mul_i32 s31, s33, 27                        // row 27 of the lane group * N*4
    v_add_u32 v60, s31, v9
    buffer_store_dword v59, v60, s[24:27], 0 offen
    s_endpgm
.Lmfma_gemm_bf16_end:
.size mfma_gemm_bf16, .Lmfma_gemm_bf16_end - mfma_gemm_bf16

.rodata
.p2align 6
.amdhsa_kernel mfma_gemm_bf16
    .amdhsa_group_segment_fixed_size 5120
    .amdhsa_kernarg_size 36
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_sgpr_workgroup_id_y 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 80
    .amdhsa_next_free_sgpr 36
    .amdhsa_accum_offset 64
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: mfma_gemm_bf16
    .symbol: mfma_gemm_bf16.kd
    .kernarg_segment_size: 36
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 5120
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 42
    .vgpr_count: 80
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
