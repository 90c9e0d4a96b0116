// lds_transpose.s -- out = transpose(in) for a ROWS x COLS matrix of 32-bit elements
// (row-major; out is COLS x ROWS), through an LDS tile with an XOR swizzle; gfx942, gfx950.
//
// One workgroup of 256 work-items moves one 32x32 tile: workgroup (tx, ty) reads input rows
// ty*32.. and columns tx*32.. .  Work-item t owns column c = t & 31 and rows r0 + 8k
// (r0 = t >> 5, k = 0..3).
//   1. masked global loads of in[ty*32 + r][tx*32 + c] (EXEC = column mask & row mask, made
//      with v_cmp and s_and_b64; lanes outside the matrix keep 0);
//   2. ds_write_b32 of element (r, c) to LDS word r*32 + (c ^ r): the XOR swizzle;
//   3. s_waitcnt lgkmcnt(0) + s_barrier: the whole tile is in LDS;
//   4. ds_read_b32 of tile element (j, i) = (c, r0 + 8k), at word j*32 + (i ^ j);
//   5. masked global stores to out[tx*32 + i][ty*32 + j].
// The loads are waited for with one vmcnt(0), not vmcnt(3)..vmcnt(0): a wave whose rows all
// lie outside the matrix issues a load with EXEC = 0, and a finer wait would depend on whether
// such a load is counted.  The LDS reads (EXEC full) are consumed with lgkmcnt(3)..lgkmcnt(0).
// Bank conflicts (32 banks of 4 bytes): a half-wave (32 lanes) writes one row r for c = 0..31
// and reads one column i for j = 0..31.  Without the swizzle the column read hits word
// j*32 + i, one bank for all 32 lanes (32-way conflict); with it the bank is (i ^ j) & 31, all
// different.  The row write stays conflict-free (bank c ^ r).
//
// Kernel arguments (24 bytes): in (8), out (8), ROWS (u32), COLS (u32).
// Grid ((COLS+31)/32, (ROWS+31)/32, 1) workgroups of (256, 1, 1); LDS 4 KiB.
// Limit: ROWS * COLS * 4 fits in 32 bits.
//
// Registers:
//   s[0:1] kernarg pointer, s2 workgroup id x (tx), s3 workgroup id y (ty)
//   s[4:7] in, out; s8 ROWS; s9 COLS
//   s10 rows left in this tile's input (ROWS - ty*32), s11 columns left (COLS - tx*32)
//   s[12:13] input base of the tile, s[14:15] output base of the tile
//   s16 8*COLS*4 (8 input rows in bytes), s17 8*ROWS*4 (8 output rows), s[18:19], s[20:21] masks
//   v0 work-item id, v1 c (= j), v2 r0 (= i0), v3 running row r / column i, v4 global offset,
//   v5 LDS address, v[6:9] the four elements, v10 scratch
//
// No .amdgcn_target line: one source serves both targets; the assembler takes the target
// from -mcpu.

.amdhsa_code_object_version 5

.text
.globl lds_transpose
.p2align 8
.type lds_transpose,@function
lds_transpose:
    s_load_dwordx4 s[4:7], s[0:1], 0x0            // in, out
    s_load_dwordx2 s[8:9], s[0:1], 0x10           // ROWS, COLS
    v_and_b32 v1, 31, v0                          // c
    v_lshrrev_b32 v2, 5, v0                       // r0
    v_mov_b32 v6, 0                               // elements outside the matrix stay 0
    v_mov_b32 v7, 0
    v_mov_b32 v8, 0
    v_mov_b32 v9, 0
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s12, s3, 5                         // ty*32
    s_lshl_b32 s13, s2, 5                         // tx*32
    s_sub_u32 s10, s8, s12                        // rows left
    s_sub_u32 s11, s9, s13                        // columns left
    s_mul_i32 s16, s12, s9                        // input tile base (elements): ty*32*COLS + tx*32
    s_add_u32 s16, s16, s13
    s_lshl_b32 s16, s16, 2
    s_add_u32 s12, s4, s16                        // s[12:13] = in + base*4
    s_addc_u32 s13, s5, 0
    s_lshl_b32 s17, s2, 5                         // output tile base: tx*32*ROWS + ty*32
    s_mul_i32 s17, s17, s8
    s_lshl_b32 s16, s3, 5
    s_add_u32 s17, s17, s16
    s_lshl_b32 s17, s17, 2
    s_add_u32 s14, s6, s17                        // s[14:15] = out + base*4
    s_addc_u32 s15, s7, 0
    s_lshl_b32 s16, s9, 5                         // 8 input rows: 8*COLS*4
    s_lshl_b32 s17, s8, 5                         // 8 output rows: 8*ROWS*4

    // 1. masked loads: lane (r, c) for r = r0, r0+8, r0+16, r0+24
    v_mul_lo_u32 v4, v2, s9                       // r0*COLS
    v_add_u32 v4, v4, v1                          // + c
    v_lshlrev_b32 v4, 2, v4                       // byte offset within the tile's rows
    v_cmp_gt_u32 s[18:19], s11, v1                // column mask: c < columns left
    v_mov_b32 v3, v2                              // r = r0
    v_cmp_gt_u32 vcc, s10, v3                     // row mask
    s_and_b64 exec, s[18:19], vcc
    global_load_dword v6, v4, s[12:13]
    s_mov_b64 exec, -1
    v_add_u32 v3, 8, v2                           // r = r0 + 8 in every lane
    v_add_u32 v4, s16, v4
    v_cmp_gt_u32 vcc, s10, v3
    s_and_b64 exec, s[18:19], vcc
    global_load_dword v7, v4, s[12:13]
    s_mov_b64 exec, -1
    v_add_u32 v3, 16, v2
    v_add_u32 v4, s16, v4
    v_cmp_gt_u32 vcc, s10, v3
    s_and_b64 exec, s[18:19], vcc
    global_load_dword v8, v4, s[12:13]
    s_mov_b64 exec, -1
    v_add_u32 v3, 24, v2
    v_add_u32 v4, s16, v4
    v_cmp_gt_u32 vcc, s10, v3
    s_and_b64 exec, s[18:19], vcc
    global_load_dword v9, v4, s[12:13]
    s_mov_b64 exec, -1

    // 2. swizzled LDS writes: element (r, c) -> word r*32 + (c ^ r)
    v_xor_b32 v10, v1, v2                         // c ^ r0
    v_lshl_add_u32 v5, v2, 5, v10                 // r0*32 + (c ^ r0)
    v_lshlrev_b32 v5, 2, v5
    s_waitcnt vmcnt(0)                            // one wait for all four loads (see below)
    ds_write_b32 v5, v6
    v_add_u32 v3, 8, v2
    v_xor_b32 v10, v1, v3
    v_lshl_add_u32 v5, v3, 5, v10
    v_lshlrev_b32 v5, 2, v5
    ds_write_b32 v5, v7
    v_add_u32 v3, 16, v2
    v_xor_b32 v10, v1, v3
    v_lshl_add_u32 v5, v3, 5, v10
    v_lshlrev_b32 v5, 2, v5
    ds_write_b32 v5, v8
    v_add_u32 v3, 24, v2
    v_xor_b32 v10, v1, v3
    v_lshl_add_u32 v5, v3, 5, v10
    v_lshlrev_b32 v5, 2, v5
    ds_write_b32 v5, v9

    // 3. the tile is complete once every wave's writes are done
    s_waitcnt lgkmcnt(0)
    s_barrier

    // 4. swizzled LDS reads: tile element (j, i) with j = c, i = r0 + 8k at word j*32 + (i ^ j)
    v_xor_b32 v10, v2, v1                         // i ^ j for i = r0
    v_lshl_add_u32 v5, v1, 5, v10
    v_lshlrev_b32 v5, 2, v5
    ds_read_b32 v6, v5
    v_add_u32 v3, 8, v2
    v_xor_b32 v10, v3, v1
    v_lshl_add_u32 v5, v1, 5, v10
    v_lshlrev_b32 v5, 2, v5
    ds_read_b32 v7, v5
    v_add_u32 v3, 16, v2
    v_xor_b32 v10, v3, v1
    v_lshl_add_u32 v5, v1, 5, v10
    v_lshlrev_b32 v5, 2, v5
    ds_read_b32 v8, v5
    v_add_u32 v3, 24, v2
    v_xor_b32 v10, v3, v1
    v_lshl_add_u32 v5, v1, 5, v10
    v_lshlrev_b32 v5, 2, v5
    ds_read_b32 v9, v5

    // 5. masked stores: out[tx*32 + i][ty*32 + j], valid iff i < columns left, j < rows left
    v_mul_lo_u32 v4, v2, s8                       // i0*ROWS
    v_add_u32 v4, v4, v1                          // + j
    v_lshlrev_b32 v4, 2, v4
    v_cmp_gt_u32 s[20:21], s10, v1                // row mask of the output: j < rows left
    v_cmp_gt_u32 vcc, s11, v2                     // i = i0 < columns left
    s_and_b64 exec, s[20:21], vcc
    s_waitcnt lgkmcnt(3)
    global_store_dword v4, v6, s[14:15]
    s_mov_b64 exec, -1
    v_add_u32 v3, 8, v2
    v_add_u32 v4, s17, v4
    v_cmp_gt_u32 vcc, s11, v3
    s_and_b64 exec, s[20:21], vcc
    s_waitcnt lgkmcnt(2)
    global_store_dword v4, v7, s[14:15]
    s_mov_b64 exec, -1
    v_add_u32 v3, 16, v2
    v_add_u32 v4, s17, v4
    v_cmp_gt_u32 vcc, s11, v3
    s_and_b64 exec, s[20:21], vcc
    s_waitcnt lgkmcnt(1)
    global_store_dword v4, v8, s[14:15]
    s_mov_b64 exec, -1
    v_add_u32 v3, 24, v2
    v_add_u32 v4, s17, v4
    v_cmp_gt_u32 vcc, s11, v3
    s_and_b64 exec, s[20:21], vcc
    s_waitcnt lgkmcnt(0)
    global_store_dword v4, v9, s[14:15]
    s_endpgm
.Llds_transpose_end:
.size lds_transpose, .Llds_transpose_end - lds_transpose

.rodata
.p2align 6
.amdhsa_kernel lds_transpose
    .amdhsa_group_segment_fixed_size 4096
    .amdhsa_kernarg_size 24
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_sgpr_workgroup_id_y 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 12
    .amdhsa_next_free_sgpr 22
    .amdhsa_accum_offset 12
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: lds_transpose
    .symbol: lds_transpose.kd
    .kernarg_segment_size: 24
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 4096
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 28
    .vgpr_count: 12
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - {.name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .actual_access: read_only}
      - {.name: out, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: ROWS, .size: 4, .offset: 16, .value_kind: by_value}
      - {.name: COLS, .size: 4, .offset: 20, .value_kind: by_value}
...
.end_amdgpu_metadata
