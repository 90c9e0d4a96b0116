// wave_shuffle.s -- an arbitrary in-wave shuffle with ds_bpermute_b32; gfx942, gfx950.
//
//   out[i] = v[(i & ~63) | (sel[i] & 63)],  v[j] = j < N ? in[j] : 0,  for i < N
//
// Every lane loads its value and its selector, then ds_bpermute_b32 ("backward permute",
// a gather through the LDS crossbar, no LDS memory used) fetches the value of lane
// sel & 63 of the same wave: the lane address operand is a byte address, lane*4.  The
// selectors are random, so some lanes are read by several lanes and some by none.
// Out-of-bounds control by num_records = N*4 (loads past N give 0, stores are dropped), EXEC
// full throughout, so every source lane is active.
//
// Kernel arguments (28 bytes): in (8), sel (8), out (8), N (u32).
// Grid ((N+255)/256) workgroups of 256 work-items.
//
// Registers: s[0:1] kernarg pointer, s2 workgroup id x, s[4:9] in, sel, out, s10 N, s11
//   scratch, s[12:15] / s[16:19] / s[20:23] descriptors of in / sel / out; v0 work-item id,
//   v1 byte offset of element gid, v2 value, v3 selector -> lane byte address, v4 result
//
// No .amdgcn_target line: one source serves both targets; the assembler takes the target
// from -mcpu.

.amdhsa_code_object_version 5

.text
.globl wave_shuffle
.p2align 8
.type wave_shuffle,@function
wave_shuffle:
    s_load_dwordx4 s[4:7], s[0:1], 0x0            // in, sel
    s_load_dwordx2 s[8:9], s[0:1], 0x10           // out
    s_load_dword s10, s[0:1], 0x18                // N
    s_lshl_b32 s11, s2, 8                         // wg * 256
    v_add_u32 v1, s11, v0                         // gid
    v_lshlrev_b32 v1, 2, v1                       // byte offset
    s_waitcnt lgkmcnt(0)
    s_lshl_b32 s14, s10, 2                        // num_records = N * 4
    s_mov_b32 s15, 0x20000
    s_mov_b32 s12, s4                             // descriptor of in
    s_and_b32 s13, s5, 0xffff
    s_mov_b32 s16, s6                             // descriptor of sel
    s_and_b32 s17, s7, 0xffff
    s_mov_b32 s18, s14
    s_mov_b32 s19, s15
    s_mov_b32 s20, s8                             // descriptor of out
    s_and_b32 s21, s9, 0xffff
    s_mov_b32 s22, s14
    s_mov_b32 s23, s15
    buffer_load_dword v2, v1, s[12:15], 0 offen   // value
    buffer_load_dword v3, v1, s[16:19], 0 offen   // selector
    s_waitcnt vmcnt(0)
    v_and_b32 v3, 63, v3                          // source lane
    v_lshlrev_b32 v3, 2, v3                       // as a byte address
    ds_bpermute_b32 v4, v3, v2                    // v4 = v2 of lane v3/4
    s_waitcnt lgkmcnt(0)
    buffer_store_dword v4, v1, s[20:23], 0 offen
    s_endpgm
.Lwave_shuffle_end:
.size wave_shuffle, .Lwave_shuffle_end - wave_shuffle

.rodata
.p2align 6
.amdhsa_kernel wave_shuffle
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_kernarg_size 28
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 8
    .amdhsa_next_free_sgpr 24
    .amdhsa_accum_offset 8
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: wave_shuffle
    .symbol: wave_shuffle.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 30
    .vgpr_count: 8
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - {.name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .actual_access: read_only}
      - {.name: sel, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global, .actual_access: read_only}
      - {.name: out, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: N, .size: 4, .offset: 24, .value_kind: by_value}
...
.end_amdgpu_metadata
