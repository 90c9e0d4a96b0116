// tail_rows.s -- tail handling the way AITER's bf16 GEMMs do it on MI300: a raw buffer
// (idxen=0, offen) with STRIDE 4 in the V#, its base moved to the workgroup's 32-row tile and
// num_records (bytes) shrunk to the rows left, so that the rows past M read 0 and their stores
// are dropped (CDNA3/CDNA4 ISA 9.1.5.1: raw = !idxen && !add_tid && !swizzle_en, checked
// on the byte offset whatever the stride).  One wave per tile, lane = column (K = 64 u32):
//   B[r][c] = 2 * A[r][c] + 1 for r < M (padding rows untouched),
//   S[tile][c] = sum over the tile's 32 rows of the loaded A (0 past M).
// Args: A, B, S (buffers), M (u32).  Reference: test_real_rules.sh.
.amdhsa_code_object_version 5
.text
.globl tail_rows
.p2align 8
.type tail_rows,@function
tail_rows:
    s_load_dwordx4 s[4:7], s[0:1], 0x0          // A, B
    s_load_dwordx2 s[8:9], s[0:1], 0x10         // S
    s_load_dword s10, s[0:1], 0x18              // M
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s11, s2, 13                      // tile byte offset: tile * 32 rows * 256
    s_lshl_b32 s12, s2, 5                       // first row of the tile
    s_sub_u32 s12, s10, s12                     // rows left (>= 1)
    s_lshl_b32 s12, s12, 8                      // num_records: bytes left
    s_add_u32 s16, s4, s11                      // V# of A at the tile
    s_addc_u32 s17, s5, 0
    s_or_b32 s17, s17, 0x40000                  // stride 4 (word1 [29:16])
    s_mov_b32 s18, s12
    s_mov_b32 s19, 0x20000                      // DATA_FORMAT 32, no add_tid
    s_add_u32 s20, s6, s11                      // V# of B at the tile
    s_addc_u32 s21, s7, 0
    s_or_b32 s21, s21, 0x40000
    s_mov_b32 s22, s12
    s_mov_b32 s23, 0x20000
    v_lshlrev_b32 v1, 2, v0                     // byte offset of (row 0, column lane)
    v_mov_b32 v3, 0                             // the column's sum
    s_mov_b32 s13, 32
.Lrow:
    buffer_load_dword v2, v1, s[16:19], 0 offen
    s_waitcnt vmcnt(0)
    v_add_u32 v3, v3, v2
    v_lshlrev_b32 v4, 1, v2
    v_add_u32 v4, 1, v4
    buffer_store_dword v4, v1, s[20:23], 0 offen
    v_add_u32 v1, 0x100, v1                     // next row
    s_sub_u32 s13, s13, 1
    s_cmp_lg_u32 s13, 0
    s_cbranch_scc1 .Lrow
    v_lshlrev_b32 v5, 2, v0
    s_lshl_b32 s14, s2, 8                       // S + tile * 64 * 4
    v_add_u32 v5, s14, v5
    global_store_dword v5, v3, s[8:9]
    s_endpgm
.rodata
.p2align 6
.amdhsa_kernel tail_rows
  .amdhsa_group_segment_fixed_size 0
  .amdhsa_kernarg_size 32
  .amdhsa_user_sgpr_kernarg_segment_ptr 1
  .amdhsa_system_sgpr_workgroup_id_x 1
  .amdhsa_next_free_vgpr 8
  .amdhsa_next_free_sgpr 32
  .amdhsa_accum_offset 8
.end_amdhsa_kernel
.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: tail_rows
    .symbol: tail_rows.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 32
    .vgpr_count: 8
    .max_flat_workgroup_size: 64
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: S, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: M, .size: 4, .offset: 24, .value_kind: by_value}
...
.end_amdgpu_metadata
