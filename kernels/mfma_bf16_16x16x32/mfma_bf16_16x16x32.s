// mfma_bf16_16x16x32.s -- C = A * B on bf16 inputs with f32 results on gfx950's
// v_mfma_f32_16x16x32_bf16 (CDNA4: twice the K of gfx942's 16x16x16, 8 bf16 per lane).
// Hand-written for gfx950 only (the instruction does not exist on gfx942).
//
//   A: M x K bf16, row-major;  B: K x N bf16 stored column-major (= N x K row-major, "B^T");
//   C: M x N f32, row-major.   K must be a multiple of 32, N of 4; M is arbitrary.
//   Limits: byte offsets are 32-bit: M*K*2, N*K*2 and (M + 32)*N*4 < 2^31.
// Grid: ceil(N/32) x ceil(M/32) workgroups of 64 work-items (one wave each).
// Kernel arguments (36 bytes): A, B, C (8 each), M, N, K (u32).
//
// One wave per 32x32 tile of C as 2 x 2 MFMA tiles of 16x16: per 32-wide k step each lane
// loads four 16-byte fragments (buffer_load_dwordx4: 8 bf16 of one row of A rows
// m0 + 16s + l%16, s = 0, 1, and of B^T rows n0 + 16t + l%16), and four MFMAs reuse each
// fragment twice, accumulating in AGPRs a[4*(2s+t) : 4*(2s+t)+3] over the whole K loop.
// The B^T fragment is src0 and the A fragment src1 ("A/B swapped", see
// kernels/mfma_f16_layouts): the MFMA computes the transposed tile, so a lane ends with
// 4 consecutive columns of one row of C and stores them with one buffer_store_dwordx4.
//
// Register layouts (docs/mfma.md; gfx950: 8 consecutive k per lane, the natural extension
// of the CDNA3 16x16x16 layout, as in Triton's gfx950 MFMA layouts):
//   src0 X[i][k]: lane i + 16*(k/8), bits 16*(k%8) of the lane's 4 registers; src1 alike
//   D[i][j]:      lane j + 16*(i/4), register i%4
// With src0 = B^T rows (D row i = C column n0 + 16t + i) and src1 = A rows (D column
// j = C row m0 + 16s + j): lane l holds C[m0 + 16s + l%16][n0 + 16t + 4*(l/16) + r], r = 0..3.
//
// Edge tiles: every buffer descriptor has num_records = the array's size, so rows of A
// (B^T) at or past M (N) load as 0 and rows of C past M are dropped; a store whose columns
// lie past N gets the per-lane offset 0x80000000 (past num_records).
// Hazards (LLVM 22 GCNHazardRecognizer, gfx950): v_accvgpr_write -> MFMA SrcC 2 wait
// states (loads and the wait between); chained MFMAs on the same accumulator none; a
// 4-pass XDL result -> v_accvgpr_read (VALU): 4 + 3 + 1 = 8 (what llc inserts: s_nop 7);
// v_cmp writing VCC -> v_cndmask reading it: 2; a VALU write of the data registers of a
// buffer_store_dwordx4 right after it: 1 (none here).
//
// SGPRs: s[0:1] kernarg pointer, s2 workgroup id x (tile column), s3 id y (tile row),
//   s[4:9] A, B, C pointers, s10 M, s11 N, s12 K, s[16:19] / s[20:23] / s[24:27] buffer
//   descriptors of A / B^T / C, s28 m0 = 32*id_y, s29 n0 = 32*id_x, s30 k steps left,
//   s31 N - 16, s32 K*2 (row bytes of A and B^T), s33 N*4 (row bytes of C), s34 16 rows
//   of A / B^T in bytes, s35 16 rows of C in bytes
// VGPRs: v0 lane, v1 l%16, v2 g = l/16, v3/v4 A offsets (s = 0, 1), v5/v6 B^T offsets
//   (t = 0, 1), v[8:11] v[12:15] A fragments, v[16:19] v[20:23] B^T fragments, v[24:39]
//   the tile, v40 row offset, v41 column, v42..v45 store offsets, v46 the sentinel

.amdhsa_code_object_version 5

.text
.globl mfma_bf16_16x16x32
.p2align 8
.type mfma_bf16_16x16x32,@function
mfma_bf16_16x16x32:
    s_load_dwordx8 s[4:11], s[0:1], 0x0           // A, B, C, M, N
    s_load_dword s12, s[0:1], 0x20                // K
    v_and_b32 v1, 15, v0                          // l % 16
    v_lshrrev_b32 v2, 4, v0                       // g = l / 16
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
    s_lshl_b32 s34, s32, 4                        // 16 rows of A / B^T
    s_lshl_b32 s35, s33, 4                        // 16 rows of C
    s_sub_i32 s31, s11, 16                        // N - 16
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
    v_add_u32 v3, s28, v1                         // A: (m0 + l%16)*K*2 + 16*g
    v_mul_lo_u32 v3, v3, s32
    v_lshl_add_u32 v3, v2, 4, v3
    v_add_u32 v4, s34, v3                         //   rows + 16
    v_add_u32 v5, s29, v1                         // B^T: (n0 + l%16)*K*2 + 16*g
    v_mul_lo_u32 v5, v5, s32
    v_lshl_add_u32 v5, v2, 4, v5
    v_add_u32 v6, s34, v5
    s_lshr_b32 s30, s12, 5                        // K / 32 steps
    s_cmp_eq_u32 s30, 0
    s_cbranch_scc1 .Lread

.Lloop:
    buffer_load_dwordx4 v[8:11], v3, s[16:19], 0 offen    // A rows l%16
    buffer_load_dwordx4 v[12:15], v4, s[16:19], 0 offen   // A rows 16 + l%16
    buffer_load_dwordx4 v[16:19], v5, s[20:23], 0 offen   // B^T rows l%16
    buffer_load_dwordx4 v[20:23], v6, s[20:23], 0 offen   // B^T rows 16 + l%16
    v_add_u32 v3, 64, v3                          // next k step: 32 bf16 further
    v_add_u32 v4, 64, v4
    v_add_u32 v5, 64, v5
    v_add_u32 v6, 64, v6
    s_waitcnt vmcnt(0)
    v_mfma_f32_16x16x32_bf16 a[0:3], v[16:19], v[8:11], a[0:3]        // s = 0, t = 0
    v_mfma_f32_16x16x32_bf16 a[4:7], v[20:23], v[8:11], a[4:7]        // s = 0, t = 1
    v_mfma_f32_16x16x32_bf16 a[8:11], v[16:19], v[12:15], a[8:11]     // s = 1, t = 0
    v_mfma_f32_16x16x32_bf16 a[12:15], v[20:23], v[12:15], a[12:15]   // s = 1, t = 1
    s_sub_u32 s30, s30, 1
    s_cmp_lg_u32 s30, 0
    s_cbranch_scc1 .Lloop

.Lread:
    s_nop 7                                       // XDL 4-pass result -> VALU read: 8
    v_accvgpr_read_b32 v24, a0
    v_accvgpr_read_b32 v25, a1
    v_accvgpr_read_b32 v26, a2
    v_accvgpr_read_b32 v27, a3
    v_accvgpr_read_b32 v28, a4
    v_accvgpr_read_b32 v29, a5
    v_accvgpr_read_b32 v30, a6
    v_accvgpr_read_b32 v31, a7
    v_accvgpr_read_b32 v32, a8
    v_accvgpr_read_b32 v33, a9
    v_accvgpr_read_b32 v34, a10
    v_accvgpr_read_b32 v35, a11
    v_accvgpr_read_b32 v36, a12
    v_accvgpr_read_b32 v37, a13
    v_accvgpr_read_b32 v38, a14
    v_accvgpr_read_b32 v39, a15
    v_lshl_add_u32 v41, v2, 2, s29                // column n0 + 4g
    v_cmp_gt_u32 vcc, s11, v41                    // t = 0 columns inside C (N % 4 = 0)
    v_add_u32 v40, s28, v1                        // row m0 + l%16
    v_mul_lo_u32 v40, v40, s11
    v_add_u32 v40, v40, v41
    v_lshlrev_b32 v40, 2, v40                     // (row*N + column)*4
    v_mov_b32 v46, 0x80000000                     // columns past N: an offset past the end
    v_cndmask_b32 v42, v46, v40, vcc              // s = 0, t = 0
    v_cmp_gt_i32 vcc, s31, v41                    // t = 1: column + 16 < N
    v_add_u32 v43, 64, v40
    v_add_u32 v44, s35, v42                       // s = 1, t = 0
    v_cndmask_b32 v43, v46, v43, vcc              // s = 0, t = 1
    v_add_u32 v45, s35, v43                       // s = 1, t = 1
    buffer_store_dwordx4 v[24:27], v42, s[24:27], 0 offen
    buffer_store_dwordx4 v[28:31], v43, s[24:27], 0 offen
    buffer_store_dwordx4 v[32:35], v44, s[24:27], 0 offen
    buffer_store_dwordx4 v[36:39], v45, s[24:27], 0 offen
    s_endpgm
.Lmfma_bf16_16x16x32_end:
.size mfma_bf16_16x16x32, .Lmfma_bf16_16x16x32_end - mfma_bf16_16x16x32

.rodata
.p2align 6
.amdhsa_kernel mfma_bf16_16x16x32
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

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: mfma_bf16_16x16x32
    .symbol: mfma_bf16_16x16x32.kd
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
