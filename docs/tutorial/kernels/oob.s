// oob.s -- tutorial chapter 2, pattern 2: out-of-bounds control by num_records.  Every array
// gets a buffer descriptor (V#) whose num_records is N*4 bytes; a buffer load of an element
// past the end returns 0 and a store past the end is dropped, so no lane ever needs to be
// switched off: EXEC is never written, and the loop ends when no lane is inside the array.
// Grid-stride loop of pattern 1, vmcnt(0) as before.
//
// Arguments: A, B, C, N, stride.  Workgroups of 256.  Registers: s[4:11] arguments,
// s[12:15] V# of A, s[16:19] of B, s[20:23] of C, s28 stride in bytes, v1 byte offset of the
// element, v2 A (and the sum), v3 B.  Limit: (N + stride) * 4 < 2^32.
.amdhsa_code_object_version 5
.text
.globl oob
.p2align 8
.type oob,@function
oob:
    s_load_dwordx8 s[4:11], s[0:1], 0x0        // A, B, C, N, stride
    s_lshl_b32 s24, s2, 8                      // first element of the workgroup: wg * 256
    v_add_u32 v1, s24, v0                      // idx = wg*256 + tid
    v_lshlrev_b32 v1, 2, v1                    // byte offset of idx
    s_waitcnt lgkmcnt(0)                       // the arguments have arrived
    s_lshl_b32 s28, s11, 2                     // stride in bytes
    s_lshl_b32 s14, s10, 2                     // num_records = N * 4 bytes
    s_mov_b32 s12, s4                          // V# of A: base[31:0]
    s_and_b32 s13, s5, 0xffff                  //   base[47:32]; stride 0, no swizzle
    s_mov_b32 s15, 0x20000                     //   word 3: raw buffer, 32-bit data format
    s_mov_b32 s16, s6                          // V# of B
    s_and_b32 s17, s7, 0xffff
    s_mov_b32 s18, s14
    s_mov_b32 s19, s15
    s_mov_b32 s20, s8                          // V# of C
    s_and_b32 s21, s9, 0xffff
    s_mov_b32 s22, s14
    s_mov_b32 s23, s15
.Lloop:
    buffer_load_dword v2, v1, s[12:15], 0 offen    // A[idx], 0 past the end
    buffer_load_dword v3, v1, s[16:19], 0 offen    // B[idx]
    s_waitcnt vmcnt(0)
    v_add_f32 v2, v2, v3
    buffer_store_dword v2, v1, s[20:23], 0 offen   // C[idx], dropped past the end
    v_add_u32 v1, s28, v1                      // idx += stride
    v_cmp_gt_u32 vcc, s14, v1                  // any lane still inside?
    s_cbranch_vccnz .Lloop
    s_endpgm
.Loob_end:
.size oob, .Loob_end - oob

.rodata
.p2align 6
.amdhsa_kernel oob
    .amdhsa_group_segment_fixed_size 0
    .amdhsa_kernarg_size 32
    .amdhsa_user_sgpr_kernarg_segment_ptr 1
    .amdhsa_system_sgpr_workgroup_id_x 1
    .amdhsa_system_vgpr_workitem_id 0
    .amdhsa_next_free_vgpr 4
    .amdhsa_next_free_sgpr 30
    .amdhsa_accum_offset 4
    .amdhsa_float_denorm_mode_32 3
    .amdhsa_float_denorm_mode_16_64 3
.end_amdhsa_kernel

.amdgpu_metadata
---
amdhsa.version: [1, 2]
amdhsa.kernels:
  - .name: oob
    .symbol: oob.kd
    .kernarg_segment_size: 32
    .kernarg_segment_align: 8
    .group_segment_fixed_size: 0
    .private_segment_fixed_size: 0
    .wavefront_size: 64
    .sgpr_count: 36
    .vgpr_count: 4
    .agpr_count: 0
    .max_flat_workgroup_size: 256
    .args:
      - {.name: A, .size: 8, .offset: 0, .value_kind: global_buffer, .address_space: global}
      - {.name: B, .size: 8, .offset: 8, .value_kind: global_buffer, .address_space: global}
      - {.name: C, .size: 8, .offset: 16, .value_kind: global_buffer, .address_space: global}
      - {.name: N, .size: 4, .offset: 24, .value_kind: by_value}
      - {.name: stride, .size: 4, .offset: 28, .value_kind: by_value}
...
.end_amdgpu_metadata
