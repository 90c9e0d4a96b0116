// lds_histogram.s -- a 32-bit histogram through shared LDS bins; gfx942, gfx950.
//
//   hist[b] += #{ i < N : (in[i] & MASK) == b },  b = 0..MASK  (MASK + 1 <= 256 bins)
//
// One workgroup of 256 work-items (4 waves) keeps 256 bins of 4 bytes in LDS:
//   1. work-item t zeroes bin t (ds_write_b32), then s_waitcnt lgkmcnt(0) + s_barrier: no
//      wave counts into a bin before it is zero;
//   2. grid-stride loop over the elements (i = wg*256 + t, i += NWG*256 while i < N, EXEC
//      masked for the tail): bin = in[i] & MASK, then `ds_add_u32 bin*4, 1`.  Every wave adds
//      into the same shared bins at the same time: LDS atomics of different waves are not a
//      race with each other (each add is one indivisible read-modify-write in the LDS);
//   3. s_waitcnt lgkmcnt(0) + s_barrier: every wave's adds are done;
//   4. work-item t reads bin t and, when it is not zero, adds it to hist[t] in global memory
//      with `global_atomic_add` (no return): the workgroups meet in global memory, again with
//      atomics only.
// With MASK = 3 all 256 work-items of all workgroups count into 4 bins (heavy contention).
//
// Kernel arguments (28 bytes): in (8), hist (8), N (u32), MASK (u32), NWG (u32, the grid's
// workgroup count).  Grid (NWG) workgroups of 256 work-items; LDS 1 KiB.  hist must start at
// zero (the manifest's init) and holds MASK + 1 counters.
//
// Registers: s[0:1] kernarg pointer, s2 workgroup id x, s[4:7] in, hist, s8 N, s9 MASK,
//   s10 NWG, s11 wg*256, s12 stride (elements), s13 stride (bytes), s[14:15] saved EXEC;
//   v0 work-item id, v1 LDS address of bin t, v2 zero, v3 i, v4 byte offset of element i,
//   v5 one, v6 element -> bin address, v7 bin t's count, v8 byte offset of hist[t]
//
// No .amdgcn_target line: one source serves both targets; the assembler takes the target
// from -mcpu.

.amdhsa_code_object_version 5

.text
.globl lds_histogram
.p2align 8
.type lds_histogram,@function
lds_histogram:
    s_load_dwordx4 s[4:7], s[0:1], 0x0            // in, hist
    s_load_dwordx2 s[8:9], s[0:1], 0x10           // N, MASK
    s_load_dword s10, s[0:1], 0x18                // NWG
    v_lshlrev_b32 v1, 2, v0                       // bin t: LDS byte address t*4
    v_mov_b32 v2, 0
    ds_write_b32 v1, v2                           // 1. bin[t] = 0
    s_lshl_b32 s11, s2, 8                         // wg * 256
    v_add_u32 v3, s11, v0                         // i = wg*256 + t
    v_lshlrev_b32 v4, 2, v3                       // its byte offset
    v_mov_b32 v5, 1
    s_waitcnt lgkmcnt(0)                          // the kernargs and this wave's zeroing
    s_lshl_b32 s12, s10, 8                        // stride NWG*256 elements
    s_lshl_b32 s13, s12, 2                        // ... in bytes
    s_barrier                                     // every bin is zero
    v_cmp_gt_u32 vcc, s8, v3                      // i < N
    s_and_saveexec_b64 s[14:15], vcc
    s_cbranch_execz .Lcounted
.Lloop:                                           // 2. count (EXEC: the lanes with i < N)
    global_load_dword v6, v4, s[4:5]
    v_add_u32 v3, s12, v3                         // i += stride
    v_add_u32 v4, s13, v4
    s_waitcnt vmcnt(0)
    v_and_b32 v6, s9, v6                          // bin = x & MASK
    v_lshlrev_b32 v6, 2, v6
    ds_add_u32 v6, v5                             // bin += 1, atomically
    v_cmp_gt_u32 vcc, s8, v3
    s_and_b64 exec, exec, vcc                     // lanes still inside
    s_cbranch_execnz .Lloop
.Lcounted:
    s_mov_b64 exec, s[14:15]                      // every lane again
    s_waitcnt lgkmcnt(0)                          // 3. this wave's adds are done ...
    s_barrier                                     // ... and every other wave's
    ds_read_b32 v7, v1                            // 4. bin[t]
    v_lshlrev_b32 v8, 2, v0                       // hist[t] byte offset
    s_waitcnt lgkmcnt(0)
    v_cmp_ne_u32 vcc, 0, v7
    s_and_b64 exec, exec, vcc                     // only bins that counted something
    s_cbranch_execz .Lend
    global_atomic_add v8, v7, s[6:7]              // hist[t] += bin[t]
.Lend:
    s_endpgm
.Llds_histogram_end:
.size lds_histogram, .Llds_histogram_end - lds_histogram

.rodata
.p2align 6
.amdhsa_kernel lds_histogram
    .amdhsa_group_segment_fixed_size 1024
    .amdhsa_kernarg_size 28
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 12
    .amdhsa_next_free_sgpr 16
    .amdhsa_accum_offset 12
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: lds_histogram
    .symbol: lds_histogram.kd
    .kernarg_segment_size: 28
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 1024
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 22
    .vgpr_count: 12
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - {.name: in, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global, .actual_access: read_only}
      - {.name: hist, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: N, .size: 4, .offset: 16, .value_kind: by_value}
      - {.name: MASK, .size: 4, .offset: 20, .value_kind: by_value}
      - {.name: NWG, .size: 4, .offset: 24, .value_kind: by_value}
...
.end_amdgpu_metadata
